"""The JAX / Flax model zoo through both front doors, against jax.jit's
output on the same inputs: exported and compiled by pbtool into a shared
library called through its C interface, and through polyblocks.jax.jit.
Tolerances: zoo_jax.MODELS."""

import subprocess

import jax
import numpy as np
import pytest

import polyblocks
import polyblocks.jax as pbj
from conftest import relative_error
from zoo_jax import MODELS


@pytest.mark.parametrize("name", sorted(MODELS))
def test_export_compile_and_call(name, tmp_path):
    build, tolerance = MODELS[name]
    fn, args = build()
    expected = np.asarray(jax.jit(fn)(*args))
    source = tmp_path / (name + ".mlir")
    pbj.export(fn, args, str(source), function=name)
    library, interface = tmp_path / (name + ".so"), tmp_path / (name + ".json")
    subprocess.run([polyblocks.find_pbtool(), "compile", str(source),
                    "--emit=shared", "-o", str(library),
                    "--interface", str(interface)], check=True)
    kernel = polyblocks.load(str(library), str(interface))[name]
    leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    (actual,) = kernel(*leaves)
    error = relative_error(actual, expected)
    print("%s: error %.2e (tolerance %.0e)" % (name, error, tolerance))
    assert error <= tolerance


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jit(name):
    build, tolerance = MODELS[name]
    fn, args = build()
    expected = np.asarray(jax.jit(fn)(*args))
    compiled = pbj.jit(fn)
    compiled.compile(*args)
    error = relative_error(np.asarray(compiled(*args)), expected)
    assert error <= tolerance
