"""The exceptions of the package."""

import re


class PolyBlocksError(Exception):
    """Base class of the package's errors."""


class ToolchainError(PolyBlocksError):
    """pbtool (or another part of the toolchain) cannot be found or run."""


class CompileError(PolyBlocksError):
    """A program could not be imported or compiled.

    ``op`` names the operation that could not be handled, when the
    importer's or pbtool's message names one (e.g. ``"tm_tensor.attention"``
    or ``"torch.aten.stft"``); ``location`` is the source location of the
    first error (``"model.py:12:0"``: the Python line that created the op,
    where the framework records it), if any.
    """

    def __init__(self, message, op=None, location=None):
        super().__init__(message)
        self.op = op
        self.location = location


class CheckFailedError(PolyBlocksError):
    """A run-time check of a compiled program failed (status 8: an index out
    of range, such as a token id past the end of an embedding table). The
    outputs are not valid."""


# 'dialect.op' names quoted in MLIR diagnostics ('torch.aten.add.Tensor',
# 'tm_tensor.attention', 'scf.execute_region').
_QUOTED_OP = re.compile(r"'([a-z_][a-z0-9_]*\.[A-Za-z0-9_.]+)'")
# "file:line:col: error:" at the start of a diagnostic.
_LOCATED_ERROR = re.compile(r"^(.+?:\d+:\d+): error: (.*)$", re.MULTILINE)


def error_from_diagnostics(text, what):
    """A CompileError for the diagnostics `text` of `what` (e.g. "pbtool
    compile"), naming the first quoted op and the first error location."""
    located = _LOCATED_ERROR.search(text)
    first = located.group(2) if located else text.strip().splitlines()[0] if text.strip() else ""
    op = _QUOTED_OP.search(first) or _QUOTED_OP.search(text)
    message = "%s failed" % what
    if op:
        message += " on '%s'" % op.group(1)
    if located:
        message += " at %s" % located.group(1)
    message += ":\n" + text.strip()
    return CompileError(message, op=op.group(1) if op else None,
                        location=located.group(1) if located else None)
