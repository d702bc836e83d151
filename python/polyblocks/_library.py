"""Loading a shared library of compiled kernels and calling its entry points
on numpy arrays (or on raw pointers, for tensors of other frameworks)."""

import ctypes
import json

import numpy as np

from ._errors import CheckFailedError, PolyBlocksError

# PB_STATUS_CHECK_FAILED (runtime.h): a cf.assert of the program failed.
STATUS_CHECK_FAILED = 8


def _address(array):
    """The address of a contiguous array's first element: through ctypes'
    view of its buffer (cheaper than `array.ctypes.data`, which
    bench/call_overhead.py times beside it), or, for arrays ctypes cannot
    view (read-only, empty), `array.ctypes`."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):
        return array.ctypes.data


def _numpy_dtype(name):
    """The numpy dtype of an MLIR element type; bf16 needs ml_dtypes."""
    simple = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
              "i1": np.bool_, "i8": np.int8, "i16": np.int16,
              "i32": np.int32, "i64": np.int64}
    if name in simple:
        return np.dtype(simple[name])
    if name == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    raise PolyBlocksError("unknown element type '%s'" % name)


class Param:
    """One argument or result: its name, MLIR element type and shape."""

    def __init__(self, desc):
        self.name = desc["name"]
        self.dtype_name = desc["dtype"]
        self.shape = tuple(desc["shape"])
        self.index_bound = desc.get("index_bound")

    @property
    def dtype(self):
        return _numpy_dtype(self.dtype_name)

    def __repr__(self):
        return "%s: %sx%s" % (self.name, "x".join(map(str, self.shape)),
                              self.dtype_name)


class Kernel:
    """One entry point of a library: call it with numpy arrays (one per
    input, of the declared shape and dtype); it returns the results as a
    list of new arrays."""

    def __init__(self, library, desc):
        self.name = desc["name"]
        self.inputs = [Param(p) for p in desc["inputs"]]
        self.results = [Param(p) for p in desc["results"]]
        self._fn = getattr(library, self.name)
        self._fn.argtypes = [ctypes.c_void_p] * (len(self.inputs) +
                                                 len(self.results))
        self._fn.restype = ctypes.c_int
        self._library = library  # keeps the library loaded
        # (dtype, shape) of the inputs, then of the results: looked up once,
        # on the first call (bf16 imports ml_dtypes only then).
        self._signature = None

    def call_pointers(self, pointers):
        """Calls the entry point on raw buffer addresses (inputs, then
        results); raises on a non-zero status."""
        status = self._fn(*pointers)
        if status == STATUS_CHECK_FAILED:
            raise CheckFailedError(
                "@%s: a run-time check of the program failed (status 8), "
                "e.g. an index out of range; its results are not valid"
                % self.name)
        if status != 0:
            raise PolyBlocksError("@%s returned status %d" % (self.name, status))

    def __call__(self, *inputs):
        # A network's call can take a few microseconds: this path does as
        # little as it can per call (the signature looked up once; an input
        # that already is a contiguous array of the right dtype taken as it
        # is, others converted and kept alive until the call returns).
        signature = self._signature
        if signature is None:
            signature = self._signature = (
                [(p.dtype, p.shape) for p in self.inputs],
                [(p.dtype, p.shape) for p in self.results])
        input_types, result_types = signature
        if len(inputs) != len(input_types):
            raise TypeError("@%s takes %d inputs, got %d" % (
                self.name, len(input_types), len(inputs)))
        arrays = []
        pointers = []
        for (dtype, shape), value in zip(input_types, inputs):
            if not (type(value) is np.ndarray and value.dtype == dtype and
                    value.flags.c_contiguous):
                value = np.ascontiguousarray(value, dtype=dtype)
            if value.shape != shape:
                param = self.inputs[len(arrays)]
                raise ValueError("@%s: input %s has shape %s, expected %s" % (
                    self.name, param.name, value.shape, shape))
            arrays.append(value)
            pointers.append(_address(value))
        results = [np.empty(shape, dtype) for dtype, shape in result_types]
        for result in results:
            pointers.append(_address(result))
        self.call_pointers(pointers)
        return results

    def __repr__(self):
        return "Kernel @%s(%s) -> (%s)" % (
            self.name, ", ".join(map(repr, self.inputs)),
            ", ".join(map(repr, self.results)))


class Library:
    """A loaded shared library of kernels (``pbtool compile --emit=shared``)
    and its interface (``--interface``)."""

    def __init__(self, library_path, interface_path):
        with open(interface_path) as f:
            self.interface = json.load(f)
        self.path = library_path
        self._handle = ctypes.CDLL(library_path)
        self.kernels = {d["name"]: Kernel(self._handle, d)
                        for d in self.interface["functions"]}

    def __getitem__(self, name):
        return self.kernels[name]

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError(name)

    def __repr__(self):
        return "Library(%s: %s)" % (self.path, ", ".join(self.kernels))


def load(library_path, interface_path):
    """Loads a library made by ``pbtool compile --emit=shared -o LIB
    --interface JSON``."""
    return Library(library_path, interface_path)
