"""PyTorch programs through PolyBlocks.

- ``export(module, example_args, path)`` writes an ``.mlir`` program for
  ``pbtool`` and ``polyblocks_add_kernel()``;
- ``jit(module)`` compiles on the first call for each input shape and dtype
  and runs the compiled code in this process;
- ``torch.compile(module, backend="polyblocks")`` does the same from
  TorchDynamo (the backend is registered when the package is installed).

The import goes through torch.export and torch-mlir's FX importer
(``torch_mlir.fx``) to linalg on tensors, written as text that MLIR 22
parses. Where the importer is known to be wrong, the export works around it
(tanh-GELU: torch-mlir's linalg lowering uses 0.797724 for sqrt(2/pi) =
0.7978846; GELU is decomposed here instead).
"""

import math
import os
import re
import tempfile
import threading
import warnings

import torch

from . import _compiler
from ._errors import CompileError, PolyBlocksError, ToolchainError

__all__ = ["ExportedProgram", "export", "jit", "dynamo_backend"]

# MLIR element types of torch dtypes that cross the kernel boundary.
_MLIR_DTYPES = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.bool: "i1", torch.int8: "i8",
    torch.int16: "i16", torch.int32: "i32", torch.int64: "i64",
}
_TORCH_DTYPES = {v: k for k, v in _MLIR_DTYPES.items()}


def _torch_mlir():
    """torch-mlir's FX importer, or a ToolchainError saying how to get it."""
    try:
        # bf16 weights need ml_dtypes, which torch-mlir does not declare.
        import ml_dtypes  # noqa: F401
        from torch_mlir import fx, ir
        from torch_mlir.dialects import torch as torch_dialect
        from torch_mlir.extras.fx_decomp_util import get_decomposition_table
        from torch_mlir.extras.fx_importer import FxImporter
    except ImportError as e:
        raise ToolchainError(
            "polyblocks.torch needs torch-mlir and ml_dtypes (pip install "
            "torch-mlir ml_dtypes): %s" % e) from None
    return fx, ir, torch_dialect, get_decomposition_table, FxImporter


#===------------------------------------------------------------------------===#
# Decompositions
#===------------------------------------------------------------------------===#

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SQRT_HALF = math.sqrt(0.5)


def _gelu(x, approximate="none"):
    """GELU with exact constants. torch-mlir's linalg lowering of the tanh
    form multiplies by 0.797724 instead of sqrt(2/pi) = 0.7978846 (an error
    near 1e-4 at |x| ~ 2); decomposed here, the importer never sees it."""
    if approximate == "tanh":
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + torch.tanh(inner))
    return 0.5 * x * (1.0 + torch.erf(x * _SQRT_HALF))


def _decomposition_table():
    get_table = _torch_mlir()[3]
    table = dict(get_table())
    table[torch.ops.aten.gelu.default] = _gelu
    return table


#===------------------------------------------------------------------------===#
# Export
#===------------------------------------------------------------------------===#

class _Function(torch.nn.Module):
    """A plain function as a module, for torch.export."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


class _WeightsAsArguments(torch.nn.Module):
    """`module` with its parameters and buffers as leading arguments."""

    def __init__(self, module, names):
        super().__init__()
        self.module = module
        self.names = names

    def forward(self, *args):
        n = len(self.names)
        state = dict(zip(self.names, args[:n]))
        return torch.func.functional_call(self.module, state, args[n:])


def _as_module(fn):
    return fn if isinstance(fn, torch.nn.Module) else _Function(fn)


def _state(module):
    """The module's parameters and buffers, by name, in a fixed order."""
    named = list(module.named_parameters()) + list(module.named_buffers())
    return [name for name, _ in named], [t.detach() for _, t in named]


def _check_inputs(args):
    for i, a in enumerate(args):
        if not isinstance(a, torch.Tensor):
            raise CompileError("input #%d is a %s: PolyBlocks programs take "
                               "tensors only" % (i, type(a).__name__))
        if a.dtype not in _MLIR_DTYPES:
            raise CompileError(
                "input #%d has dtype %s, which a PolyBlocks kernel cannot take "
                "(supported: %s)" % (i, a.dtype, ", ".join(
                    str(d).replace("torch.", "") for d in _MLIR_DTYPES)),
                op=str(a.dtype))


def _source_ops(program):
    """For each (file, line) of the traced code, the aten ops created there
    (from the nodes' stack traces), to name the op behind an importer error
    located only by its Python line."""
    ops = {}
    frame = re.compile(r'File "([^"]+)", line (\d+)')
    for node in program.graph.nodes:
        trace = node.meta.get("stack_trace")
        if node.op != "call_function" or not trace:
            continue
        frames = frame.findall(trace)
        if frames:
            file, line = frames[-1]
            ops.setdefault((file, int(line)), []).append(
                "torch." + str(node.target).replace(".default", ""))
    return ops


def _import_error(diagnostics, program, fallback):
    """A CompileError for the importer's `diagnostics` [(loc, message)],
    naming the aten op at the failing Python line when it can."""
    if not diagnostics:
        return CompileError("torch-mlir could not import the program: %s" %
                            fallback)
    loc, message = diagnostics[0]
    # A plain, fused or call-site location: the first file position that
    # traced code created an op at, else the first file position.
    positions = re.findall(r'"([^"]+)":(\d+):(\d+)', loc)
    source_ops = _source_ops(program)
    location = op = None
    for file, line, column in positions:
        ops = source_ops.get((file, int(line)))
        if ops:
            location, op = "%s:%s:%s" % (file, line, column), ops[0]
            break
    if location is None and positions:
        location = "%s:%s:%s" % positions[0]
    quoted = re.search(r"'([a-z_]+\.[A-Za-z0-9_.]+)'", message)
    if op is None and quoted:
        op = quoted.group(1)
    text = "torch-mlir could not import %s%s: %s" % (
        "'%s'" % op if op else "the program",
        " (%s)" % location if location else "", message)
    if len(diagnostics) > 1:
        text += "\n" + "\n".join("%s: %s" % d for d in diagnostics[1:])
    return CompileError(text, op=op, location=location)


class ExportedProgram:
    """A PyTorch program in MLIR.

    text: the program (linalg on tensors, with source locations);
    function: its entry point's name;
    arguments: the names of the entry point's arguments in order, weights
        ("weight:fc1.weight") before inputs ("input:0");
    out_spec: how the results nest in the module's output (a pytree spec).
    """

    def __init__(self, text, function, arguments, out_spec):
        self.text = text
        self.function = function
        self.arguments = arguments
        self.out_spec = out_spec


def _export(module, example_args, weights, function, debug_info=True):
    """Exports `module` called on `example_args` to an ExportedProgram."""
    if weights not in ("constants", "arguments"):
        raise ValueError("weights must be 'constants' or 'arguments', not %r"
                         % (weights,))
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", function):
        raise ValueError("function must be a C identifier, not %r" % function)
    fx, ir, torch_dialect, _, FxImporter = _torch_mlir()
    module = _as_module(module)
    args = tuple(example_args) if isinstance(example_args, (tuple, list)) \
        else (example_args,)
    _check_inputs(args)
    names = []
    if weights == "arguments":
        names, values = _state(module)
        module = _WeightsAsArguments(module, names)
        args = tuple(values) + args
    try:
        with torch.no_grad():
            program = torch.export.export(module, args, strict=False)
            program = program.run_decompositions(_decomposition_table())
    except Exception as e:  # torch.export reports many kinds of errors
        raise CompileError("torch.export could not trace the program: %s: %s"
                           % (type(e).__name__, e)) from e

    context = ir.Context()
    torch_dialect.register_dialect(context)
    diagnostics = []

    def collect(diagnostic):
        diagnostics.append((str(diagnostic.location), str(diagnostic.message)))
        return True

    handler = context.attach_diagnostic_handler(collect)
    try:
        mlir_module = fx.export_and_import(
            program, output_type="linalg-on-tensors", func_name=function,
            fx_importer=FxImporter(context=context), decomposition_table={})
    except Exception as e:
        raise _import_error(diagnostics, program.graph_module, e) from None
    finally:
        handler.detach()
    text = mlir_module.operation.get_asm(enable_debug_info=debug_info)
    arguments = ["weight:" + n for n in names] + [
        "input:%d" % i for i in range(len(args) - len(names))]
    return ExportedProgram(text, function, arguments, program.call_spec.out_spec)


def export(module, example_args, path, weights="constants", function="main"):
    """Writes `module` (an nn.Module, or a function of tensors) called on
    `example_args` as an MLIR program to `path`, for pbtool and
    ``polyblocks_add_kernel()``.

    weights: "constants" puts parameters and buffers in the program (the
        compiled kernel holds them); "arguments" makes them the entry
        point's leading arguments, in the order of ``named_parameters()``
        then ``named_buffers()`` (listed in a comment at the top of the
        file).
    function: the entry point's name (the C function's name).

    The module runs in the mode it is in (call ``.eval()`` for inference).
    Shapes and dtypes are those of `example_args`. Returns the
    ExportedProgram. Raises CompileError naming the op (and its Python
    line) when the program cannot be imported; the file is then not
    written.
    """
    exported = _export(module, example_args, weights, function)
    header = "// Exported from PyTorch %s by polyblocks.torch.export.\n" % \
        torch.__version__
    header += "// @%s arguments: %s\n" % (function, ", ".join(
        "%%arg%d = %s" % (i, a) for i, a in enumerate(exported.arguments)))
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".polyblocks-", suffix=".mlir",
                               dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(header)
            f.write(exported.text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return exported


#===------------------------------------------------------------------------===#
# In-process compilation
#===------------------------------------------------------------------------===#

def _signature(args):
    return tuple((tuple(a.shape), a.dtype) for a in args)


class _Compiled:
    """One program compiled for one signature: its kernel and how its
    results nest."""

    def __init__(self, kernel, out_spec):
        self.kernel = kernel
        self.out_spec = out_spec

    def __call__(self, values):
        contiguous = [v.detach().contiguous() for v in values]
        for v in contiguous:
            if v.device.type != "cpu":
                raise PolyBlocksError("tensor on %s: the CPU target takes CPU "
                                      "tensors" % v.device)
        results = [torch.empty(p.shape, dtype=_TORCH_DTYPES[p.dtype_name])
                   for p in self.kernel.results]
        self.kernel.call_pointers([t.data_ptr() for t in contiguous + results])
        return torch.utils._pytree.tree_unflatten(results, self.out_spec)


class JitFunction:
    """`fn` compiled by PolyBlocks on its first call for each input shapes
    and dtypes (see `jit`)."""

    def __init__(self, fn, weights="arguments", **options):
        if options.get("target", "cpu") != "cpu":
            raise ToolchainError("polyblocks.torch.jit runs on the CPU target "
                                 "only (target=%r)" % options["target"])
        self.fn = fn
        self.module = _as_module(fn)
        self.weights = weights
        self.options = _compiler.CompileOptions.from_kwargs(**options)
        self._compiled = {}
        self._fallback = set()
        self._lock = threading.Lock()

    def compile(self, *args):
        """Compiles for `args` (their shapes and dtypes) now; raises
        CompileError when the program does not compile."""
        key = _signature(args)
        with self._lock:
            if key not in self._compiled:
                exported = _export(self.module, args, self.weights, "forward")
                library = _compiler.compile(exported.text, self.options,
                                            name="forward")
                self._compiled[key] = _Compiled(library["forward"],
                                                exported.out_spec)
            return self._compiled[key]

    def __call__(self, *args):
        if any(not isinstance(a, torch.Tensor) for a in args):
            return self._eager(args, "an argument that is not a tensor")
        key = _signature(args)
        if key in self._fallback:
            return self.fn(*args)
        try:
            compiled = self.compile(*args)
        except (CompileError, ToolchainError) as e:
            self._fallback.add(key)
            return self._eager(args, e)
        weights = _state(self.module)[1] if self.weights == "arguments" else []
        return compiled(list(weights) + list(args))

    def _eager(self, args, reason):
        op = getattr(reason, "op", None)
        warnings.warn("polyblocks: running %s eagerly (not compiled%s): %s" % (
            getattr(self.fn, "__name__", type(self.fn).__name__),
            " because of '%s'" % op if op else "", reason), stacklevel=3)
        return self.fn(*args)


def jit(fn_or_module, target="cpu", weights="arguments", **options):
    """Compiles `fn_or_module` with PolyBlocks on its first call for each
    input shapes and dtypes; later calls with them run the compiled code.

    weights: "arguments" (default) passes the module's current parameters
        and buffers on every call, so that updates to them are seen;
        "constants" compiles them into the program (the first call's
        values are kept).
    options: pbtool's flags as keywords (cpu, no_parallel, l2_cache_kib,
        drop_assertions, ...), see polyblocks.CompileOptions.

    Tensors in and out are CPU torch tensors. What cannot be compiled runs
    eagerly, with a warning naming the op; ``.compile(*args)`` compiles now
    and raises instead.
    """
    return JitFunction(fn_or_module, weights=weights, target=target, **options)


def dynamo_backend(gm, example_inputs, options=None, mode=None, **kwargs):
    """The ``torch.compile`` backend "polyblocks": compiles the captured
    graph for the example inputs' shapes and dtypes (weights as arguments).
    Falls back to the graph's eager code, with one warning naming the op,
    when it cannot."""
    options = dict(options or {})
    options.setdefault("target", "cpu")
    for x in example_inputs:
        if not isinstance(x, torch.Tensor) or any(
                isinstance(s, torch.SymInt) for s in x.shape):
            warnings.warn("polyblocks: running the graph eagerly: dynamic "
                          "shapes and non-tensor inputs are not supported "
                          "(use torch.compile(..., dynamic=False))")
            return gm.forward
    try:
        function = JitFunction(gm, weights="arguments", **options)
        compiled = function.compile(*example_inputs)
    except (CompileError, ToolchainError) as e:
        warnings.warn("polyblocks: running the graph eagerly (not compiled%s):"
                      " %s" % (" because of '%s'" % e.op if e.op else "", e))
        return gm.forward

    def run(*args):
        weights = _state(gm)[1]
        return compiled(list(weights) + list(args))

    return run
