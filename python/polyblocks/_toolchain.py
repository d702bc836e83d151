"""Finding the pbtool this package drives."""

import os
import shutil

from ._errors import ToolchainError


def find_pbtool():
    """The path of pbtool: ``$POLYBLOCKS_PBTOOL``, else the pbtool of the
    build this package was installed from, else the first on ``PATH``."""
    explicit = os.environ.get("POLYBLOCKS_PBTOOL")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise ToolchainError("$POLYBLOCKS_PBTOOL is '%s', which is not an "
                                 "executable file" % explicit)
        return explicit
    try:
        from ._build_config import PBTOOL
    except ImportError:
        PBTOOL = None
    if PBTOOL and os.access(PBTOOL, os.X_OK):
        return PBTOOL
    found = shutil.which("pbtool")
    if found:
        return found
    raise ToolchainError(
        "pbtool not found: install the package from a PolyBlocks build "
        "(pip install <build>/python), set $POLYBLOCKS_PBTOOL, or put pbtool "
        "on PATH" + (" (the build's %s is gone)" % PBTOOL if PBTOOL else ""))


def pbtool_identity(path):
    """What identifies a pbtool binary for the compile cache: a rebuilt
    compiler must not reuse kernels of the previous one."""
    st = os.stat(path)
    return "%s:%d:%d" % (os.path.realpath(path), st.st_size, st.st_mtime_ns)
