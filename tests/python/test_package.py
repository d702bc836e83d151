"""polyblocks' own machinery: compiling MLIR text into a cached shared
library, loading and calling it, and its errors."""

import os
import subprocess

import numpy as np
import pytest

import polyblocks

ADD = """
func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""

EMBED = """
#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @embed(%ids: tensor<3xi64>, %table: tensor<10x4xf32>) -> tensor<3x4xf32> {
  %c10 = arith.constant 10 : index
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %below = arith.cmpi slt, %i, %c10 : index
    cf.assert %below, "index must be smaller than dim size"
    %nonneg = arith.cmpi sge, %id, %c0 : i64
    cf.assert %nonneg, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i, %j] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
"""


def test_compile_load_and_call():
    library = polyblocks.compile(ADD)
    kernel = library["add"]
    assert [p.shape for p in kernel.inputs] == [(2, 3), (2, 3)]
    assert kernel.inputs[0].name == "a" and kernel.results[0].dtype == np.float32
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    (r,) = kernel(a, np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(r, a + 1)
    # The same kernel by attribute; inputs of another dtype are converted.
    (r,) = library.add(a.astype(np.float64), a)
    np.testing.assert_array_equal(r, 2 * a)
    # A strided view and a nested list: copied into contiguous arrays that
    # live until the call returns.
    wide = np.arange(12, dtype=np.float32).reshape(2, 6)
    (r,) = kernel(wide[:, ::2], [[1, 1, 1], [1, 1, 1]])
    np.testing.assert_array_equal(r, wide[:, ::2] + 1)
    # A read-only input.
    frozen = a.copy()
    frozen.flags.writeable = False
    (r,) = kernel(frozen, a)
    np.testing.assert_array_equal(r, 2 * a)


def test_cache_compiles_a_program_once(monkeypatch):
    polyblocks.compile(ADD)
    entries = os.listdir(polyblocks.cache_dir())

    def no_pbtool(*args, **kwargs):
        raise AssertionError("pbtool ran for a cached program")

    monkeypatch.setattr(subprocess, "run", no_pbtool)
    polyblocks.compile(ADD)
    assert os.listdir(polyblocks.cache_dir()) == entries
    monkeypatch.undo()
    # Other flags, another kernel.
    polyblocks.compile(ADD, polyblocks.CompileOptions(no_parallel=True))
    assert len(os.listdir(polyblocks.cache_dir())) == len(entries) + 1


def test_cache_is_under_xdg_cache_home():
    assert polyblocks.cache_dir() == os.path.join(
        os.environ["XDG_CACHE_HOME"], "polyblocks")


def test_failed_check_raises():
    kernel = polyblocks.compile(EMBED)["embed"]
    table = np.arange(40, dtype=np.float32).reshape(10, 4)
    (rows,) = kernel(np.array([9, 0, 3]), table)
    np.testing.assert_array_equal(rows, table[[9, 0, 3]])
    assert kernel.inputs[0].index_bound == 10
    for bad in ([10, 0, 0], [0, -1, 0]):
        with pytest.raises(polyblocks.CheckFailedError, match="run-time check"):
            kernel(np.array(bad), table)


def test_compile_error_names_op_and_location():
    with pytest.raises(polyblocks.CompileError) as info:
        polyblocks.compile(
            "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %m = memref.alloca() : memref<4xf32>\n"
            "  return %a : tensor<4xf32>\n}\n", name="bad")
    assert info.value.op == "memref.alloca"
    assert info.value.location.endswith("bad.mlir:2:8")
    assert "is not supported in an input program" in str(info.value)


def test_dynamic_dimension_is_an_error():
    with pytest.raises(polyblocks.CompileError, match="dynamic dimension"):
        polyblocks.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> "
                           "{ return %a : tensor<?xf32> }")


def test_call_checks_shapes():
    kernel = polyblocks.compile(ADD)["add"]
    with pytest.raises(ValueError, match="has shape"):
        kernel(np.ones((3, 2), np.float32), np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="takes 2 inputs"):
        kernel(np.ones((2, 3), np.float32))


def test_options_are_pbtool_flags():
    options = polyblocks.CompileOptions.from_kwargs(
        cpu="x86-64-v3", no_parallel=True, l2_cache_kib=256,
        drop_assertions=True)
    assert options.flags() == ["--target=cpu", "--cpu=x86-64-v3",
                               "--no-parallel", "--l2-cache-kib=256",
                               "--drop-assertions"]
    with pytest.raises(TypeError, match="unknown PolyBlocks option fast"):
        polyblocks.CompileOptions.from_kwargs(fast=True)
    # Compiled for another CPU and with the checks dropped: still runs here.
    kernel = polyblocks.compile(EMBED, options)["embed"]
    (rows,) = kernel(np.array([1, 2, 3]), np.ones((10, 4), np.float32))
    assert rows.sum() == 12


def test_pbtool_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("POLYBLOCKS_PBTOOL", str(tmp_path / "missing"))
    with pytest.raises(polyblocks.ToolchainError, match="POLYBLOCKS_PBTOOL"):
        polyblocks.find_pbtool()
