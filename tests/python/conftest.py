"""Shared set-up of the Python tests: a compile cache of their own, and the
seed of every random draw."""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))

# Every run compiles into a fresh cache, so that a test never passes on a
# kernel an earlier build compiled.
_CACHE = tempfile.mkdtemp(prefix="polyblocks-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _seed():
    try:
        import torch
        torch.manual_seed(0)
    except ImportError:
        pass
    import numpy as np
    np.random.seed(0)


def relative_error(actual, expected):
    """max |actual - expected| over max |expected| (the output's scale)."""
    import numpy as np
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    scale = float(np.abs(expected).max())
    assert scale > 0, "the reference output is all zeros: the test proves nothing"
    return float(np.abs(actual - expected).max()) / scale


def _pbtool_compile(source, *args):
    """`pbtool compile source args...`, asserted to succeed: its standard
    output and error."""
    import polyblocks
    done = subprocess.run(
        [polyblocks.find_pbtool(), "compile", str(source), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def compile_and_load(source, function, flags=()):
    """Compiles the program `source` (a pathlib.Path) with pbtool into a
    shared library beside it, loads it, and returns its entry point
    `function` and what pbtool wrote on standard error (the remarks, when
    `flags` has --explain)."""
    import polyblocks
    library, interface = source.with_suffix(".so"), source.with_suffix(".json")
    _, stderr = _pbtool_compile(source, "--emit=shared", "-o", str(library),
                                "--interface", str(interface), *flags)
    return polyblocks.load(str(library), str(interface))[function], stderr


def compile_to_s1(source, flags=()):
    """The IR of the program `source` at the end of S1 (bufferized), as
    pbtool prints it."""
    return _pbtool_compile(source, "--compile-to=s1", "-o", "-", *flags)[0]
