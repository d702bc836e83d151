"""JAX programs through PolyBlocks.

- ``export(fn, example_args, path)`` writes an ``.mlir`` program for
  ``pbtool`` and ``polyblocks_add_kernel()``;
- ``jit(fn)`` compiles on the first call for each argument structure,
  shapes and dtypes and runs the compiled code in this process.

``jax.jit(fn).lower(...)`` gives StableHLO; jaxlib's own StableHLO passes
(``chlo-legalize-to-stablehlo``, ``stablehlo-legalize-to-linalg``) turn it
into linalg on tensors, written as text that MLIR 22 parses. What those
passes leave in StableHLO is rewritten here where MLIR has the same thing
(``stablehlo.while`` becomes ``scf.while``); anything else is reported by
name and source location.
"""

import os
import re
import tempfile
import threading
import warnings

import numpy as np

from . import _compiler
from ._errors import CompileError, ToolchainError

__all__ = ["ExportedProgram", "export", "jit"]

_TO_LINALG = ("builtin.module(func.func(chlo-legalize-to-stablehlo),"
              "stablehlo-legalize-to-linalg,canonicalize,cse)")


def _jax():
    try:
        import jax
        from jax._src.interpreters import mlir as jax_mlir
        from jaxlib.mlir import ir, passmanager
        from jaxlib.mlir._mlir_libs import _stablehlo
    except ImportError as e:
        raise ToolchainError("polyblocks.jax needs jax and jaxlib (pip install "
                             "jax): %s" % e) from None
    return jax, jax_mlir, ir, passmanager, _stablehlo


_registered = False
_register_lock = threading.Lock()


def _register_passes(stablehlo):
    global _registered
    with _register_lock:
        if not _registered:
            stablehlo.register_stablehlo_passes()
            _registered = True


def _walk(operation, visit, pre_order=False):
    """Calls `visit` on every operation nested in `operation`: after the ops
    inside it, or before them (`pre_order`)."""
    for region in operation.regions:
        for block in region.blocks:
            for op in list(block.operations):
                if pre_order:
                    visit(op.operation)
                _walk(op.operation, visit, pre_order)
                if not pre_order:
                    visit(op.operation)


def _move_block(ir, source, target):
    """Moves the operations of block `source` to the end of the empty block
    `target`, whose arguments replace those of `source`."""
    for old, new in zip(source.arguments, target.arguments):
        old.replace_all_uses_with(new)
    point = ir.InsertionPoint(target)
    for op in list(source.operations):
        op.operation.detach_from_parent()
        point.insert(op.operation)


def _while_to_scf(ir, op):
    """stablehlo.while (its regions already in linalg) -> scf.while: the
    condition's 0-d tensor<i1> is read with tensor.extract for
    scf.condition, which forwards the carried values; the body's
    stablehlo.return becomes scf.yield."""
    types = [r.type for r in op.results]
    with op.location, ir.InsertionPoint(op):
        loop = ir.Operation.create("scf.while", results=types,
                                   operands=list(op.operands), regions=2)
    for index, old_region in enumerate(op.regions):
        old_block = old_region.blocks[0]
        block = loop.regions[index].blocks.append(*types)
        _move_block(ir, old_block, block)
        ret = list(block.operations)[-1]
        values = list(ret.operands)
        with ret.location, ir.InsertionPoint(ret):
            if index == 0:
                flag = ir.Operation.create(
                    "tensor.extract", results=[ir.IntegerType.get_signless(1)],
                    operands=[values[0]]).result
                ir.Operation.create("scf.condition",
                                    operands=[flag] + list(block.arguments))
            else:
                ir.Operation.create("scf.yield", operands=values)
        ret.operation.erase()
    for old, new in zip(op.results, loop.results):
        old.replace_all_uses_with(new)
    op.erase()


# What jax.numpy functions the StableHLO ops left over usually come from.
_JAX_ORIGIN = {
    "stablehlo.sort": "jnp.sort / argsort / lax.top_k",
    "stablehlo.scatter": "x.at[...].set / add, jnp.take_along_axis updates",
    "stablehlo.custom_call": "a library call (e.g. jnp.linalg)",
    "stablehlo.rng_bit_generator": "jax.random inside the function",
    "stablehlo.fft": "jnp.fft",
}


def _location_of(op):
    """`file:line:col` of the op's source location, if it has one."""
    match = re.search(r'"([^"]+)":(\d+):(\d+)', str(op.location))
    return "%s:%s:%s" % match.groups() if match else None


def _legalize(ir, module):
    """Rewrites what jaxlib's passes leave in StableHLO and reports the rest
    by name and location."""
    # Inner loops first: each rewrite leaves the handles of enclosing loops
    # valid.
    whiles = []
    _walk(module.operation, lambda op: whiles.append(op)
          if op.name == "stablehlo.while" else None)
    for op in whiles:
        _while_to_scf(ir, op)
    # Outer ops first: a sort is named before the return of its comparator.
    leftovers = []
    _walk(module.operation, lambda op: leftovers.append(op)
          if op.name.split(".")[0] in ("stablehlo", "chlo", "mhlo", "sdy")
          else None, pre_order=True)
    if leftovers:
        op = leftovers[0]
        location = _location_of(op)
        origin = _JAX_ORIGIN.get(op.name)
        raise CompileError(
            "'%s'%s%s is not supported: jaxlib's StableHLO-to-linalg passes "
            "leave it, and PolyBlocks has no lowering for it%s" % (
                op.name, " (%s)" % origin if origin else "",
                " at %s" % location if location else "",
                "" if len(leftovers) == 1 else
                " (%d such ops, also: %s)" % (len(leftovers), ", ".join(
                    sorted({o.name for o in leftovers[1:]})))),
            op=op.name, location=location)


class ExportedProgram:
    """A JAX program in MLIR.

    text: the program (linalg on tensors, with source locations);
    function: its entry point's name, whose arguments are the leaves of the
        example arguments (jax.tree_util order) and whose results are the
        leaves of the output;
    in_tree, out_tree: the pytree structures of arguments and output.
    """

    def __init__(self, text, function, in_tree, out_tree):
        self.text = text
        self.function = function
        self.in_tree = in_tree
        self.out_tree = out_tree


def _export(fn, example_args, function):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", function):
        raise ValueError("function must be a C identifier, not %r" % function)
    jax, jax_mlir, ir, passmanager, stablehlo = _jax()
    args = tuple(example_args) if isinstance(example_args, (tuple, list)) \
        else (example_args,)
    try:
        # keep_unused: the entry point takes every leaf, used or not.
        lowered = jax.jit(fn, keep_unused=True).lower(*args)
        text = lowered.as_text(debug_info=True)
    except Exception as e:
        raise CompileError("jax could not trace the function: %s: %s" % (
            type(e).__name__, e)) from e
    _register_passes(stablehlo)
    context = jax_mlir.make_ir_context()
    with context, ir.Location.unknown():
        module = ir.Module.parse(text)
        try:
            passmanager.PassManager.parse(_TO_LINALG).run(module.operation)
        except Exception as e:
            raise CompileError("jaxlib's StableHLO-to-linalg passes failed: %s"
                               % e) from e
        _legalize(ir, module)
        # The public entry point is @main; nothing calls it.
        for op in module.body.operations:
            if op.operation.name == "func.func" and \
                    ir.StringAttr(op.attributes["sym_name"]).value == "main":
                op.attributes["sym_name"] = ir.StringAttr.get(function)
        text = module.operation.get_asm(enable_debug_info=True)
    return ExportedProgram(text, function, lowered.in_tree, lowered.out_tree)


def export(fn, example_args, path, function="main"):
    """Writes `fn` (a function of arrays and pytrees of arrays, as jax.jit
    takes it) traced on `example_args` as an MLIR program to `path`, for
    pbtool and ``polyblocks_add_kernel()``. Its entry point takes the leaves
    of the arguments in jax.tree_util order (closed-over arrays, such as
    model parameters, become constants).

    Returns the ExportedProgram. Raises CompileError naming the op (and its
    Python line) when the program cannot be converted; the file is then not
    written.
    """
    exported = _export(fn, example_args, function)
    import jax
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".polyblocks-", suffix=".mlir",
                               dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write("// Exported from JAX %s by polyblocks.jax.export.\n"
                    % jax.__version__)
            f.write(exported.text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return exported


class JitFunction:
    """`fn` compiled by PolyBlocks on its first call for each argument
    structure, shapes and dtypes (see `jit`)."""

    def __init__(self, fn, **options):
        if options.get("target", "cpu") != "cpu":
            raise ToolchainError("polyblocks.jax.jit runs on the CPU target "
                                 "only (target=%r)" % options["target"])
        self.fn = fn
        self.options = _compiler.CompileOptions.from_kwargs(**options)
        self._compiled = {}
        self._fallback = set()
        self._lock = threading.Lock()

    def _key(self, args):
        import jax
        leaves, tree = jax.tree_util.tree_flatten(args)
        return (tree, tuple((np.shape(x), str(np.asarray(x).dtype))
                            for x in leaves)), leaves

    def compile(self, *args):
        """Compiles for `args` now; raises CompileError when the program
        does not compile."""
        key, _ = self._key(args)
        with self._lock:
            if key not in self._compiled:
                exported = _export(self.fn, args, "forward")
                library = _compiler.compile(exported.text, self.options,
                                            name="forward")
                self._compiled[key] = (library["forward"], exported.out_tree)
            return self._compiled[key]

    def __call__(self, *args):
        import jax
        import jax.numpy as jnp
        key, leaves = self._key(args)
        if key not in self._fallback:
            try:
                kernel, out_tree = self.compile(*args)
            except (CompileError, ToolchainError) as e:
                self._fallback.add(key)
                warnings.warn("polyblocks: running %s with jax.jit (not "
                              "compiled%s): %s" % (
                                  getattr(self.fn, "__name__", "the function"),
                                  " because of '%s'" % e.op if e.op else "", e),
                              stacklevel=2)
            else:
                results = kernel(*[np.asarray(x) for x in leaves])
                return jax.tree_util.tree_unflatten(
                    out_tree, [jnp.asarray(r) for r in results])
        return jax.jit(self.fn)(*args)


def jit(fn, target="cpu", **options):
    """Compiles `fn` with PolyBlocks on its first call for each argument
    structure, shapes and dtypes; later calls with them run the compiled
    code. Arrays in and out are jax arrays (numpy arrays are accepted).

    options: pbtool's flags as keywords (cpu, no_parallel, l2_cache_kib,
    drop_assertions, ...), see polyblocks.CompileOptions. What cannot be
    compiled runs through jax.jit, with a warning naming the op;
    ``.compile(*args)`` compiles now and raises instead.
    """
    return JitFunction(fn, target=target, **options)
