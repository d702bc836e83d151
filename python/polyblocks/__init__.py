"""PolyBlocks from Python: PyTorch and JAX programs through the PolyBlocks
tensor compiler.

- ``polyblocks.torch.export`` / ``polyblocks.jax.export`` write an ``.mlir``
  program for ``pbtool`` and ``polyblocks_add_kernel()`` (the C++ flow);
- ``torch.compile(model, backend="polyblocks")``, ``polyblocks.torch.jit``
  and ``polyblocks.jax.jit`` compile on first call per input shapes and
  dtypes and run in this process;
- ``polyblocks.compile`` compiles MLIR text and ``polyblocks.load`` loads a
  library made by ``pbtool compile --emit=shared --interface``.

torch, torch-mlir and jax are imported only by the submodules that use them.
"""

from ._compiler import CompileOptions, compile, cache_dir
from ._errors import CheckFailedError, CompileError, PolyBlocksError, ToolchainError
from ._library import Kernel, Library, load
from ._toolchain import find_pbtool

__version__ = "0.1.0"

__all__ = [
    "CheckFailedError",
    "CompileError",
    "CompileOptions",
    "Kernel",
    "Library",
    "PolyBlocksError",
    "ToolchainError",
    "cache_dir",
    "compile",
    "find_pbtool",
    "load",
]
