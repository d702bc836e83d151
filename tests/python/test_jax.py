"""polyblocks.jax: what jaxlib's StableHLO-to-linalg passes leave (loops,
concatenation) compiled, the rest named, and the JIT's fallback."""

import subprocess
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import polyblocks
import polyblocks.jax as pbj
from conftest import relative_error

X = jnp.arange(48, dtype=jnp.float32).reshape(6, 8) / 17.0


def check(fn, *args, tolerance=1e-6):
    expected = jax.jit(fn)(*args)
    actual = pbj.jit(fn)(*args)
    for a, e in zip(jax.tree_util.tree_leaves(actual),
                    jax.tree_util.tree_leaves(expected)):
        assert relative_error(np.asarray(a), np.asarray(e)) <= tolerance


def test_fori_loop_becomes_scf_while():
    exported = pbj._export(
        lambda a: jax.lax.fori_loop(0, 5, lambda i, v: jnp.tanh(v) * 2 + 1, a),
        (X,), "loop")
    assert "scf.while" in exported.text and "stablehlo" not in exported.text
    check(lambda a: jax.lax.fori_loop(0, 5, lambda i, v: jnp.tanh(v) * 2 + 1, a), X)


def test_while_loop_with_data_dependent_trip_count():
    def halve_until_small(a):
        return jax.lax.while_loop(lambda v: jnp.max(v) > 0.1,
                                  lambda v: v * 0.5, a)
    check(halve_until_small, X)


def test_concatenate_as_jaxlib_writes_it():
    # jaxlib writes it as an scf.if inside a linalg.generic.
    check(lambda a, b: jnp.concatenate([a, jnp.sin(b), a * 2], axis=1), X, X)


def test_pytrees_in_and_out():
    def fn(params, x):
        return {"y": x @ params["w"] + params["b"], "norm": jnp.sum(x * x)}
    params = {"w": jnp.ones((8, 3)), "b": jnp.arange(3.0)}
    check(fn, params, X)


def test_grouped_convolution_as_a_batch_over_its_groups(tmp_path):
    """feature_group_count > 1 arrives as a linalg.generic (loops and filter
    in jaxlib's order); pb-grouped-convs-as-batches gives it the
    micro-kernel's. Strided and dilated, 8 groups of 4 channels to 8."""
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((2, 15, 15, 32), dtype=np.float32))
    w = jnp.asarray(rng.standard_normal((3, 3, 4, 64), dtype=np.float32))

    def conv(x, w):
        return jax.nn.relu(jax.lax.conv_general_dilated(
            x, w, (2, 1), "SAME", rhs_dilation=(1, 2),
            dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=8))
    check(conv, x, w, tolerance=1e-5)
    pbj.export(conv, (x, w), str(tmp_path / "conv.mlir"), function="conv")
    explained = subprocess.run(
        [polyblocks.find_pbtool(), "compile", "conv.mlir", "--explain",
         "-o", "conv.o"], cwd=tmp_path, check=True, capture_output=True,
        text=True).stderr
    assert "the column factor packed per batch" in explained


def test_export_then_pbtool(tmp_path):
    fn = lambda a, b: jax.nn.softmax(a @ b.T, axis=-1)
    pbj.export(fn, (X, X), str(tmp_path / "attn.mlir"), function="attn")
    subprocess.run([polyblocks.find_pbtool(), "compile", "attn.mlir",
                    "--emit=shared", "-o", "attn.so", "--interface",
                    "attn.json"], cwd=tmp_path, check=True)
    kernel = polyblocks.load(str(tmp_path / "attn.so"),
                             str(tmp_path / "attn.json"))["attn"]
    (y,) = kernel(np.asarray(X), np.asarray(X))
    assert relative_error(y, np.asarray(fn(X, X))) <= 1e-6


def test_sort_is_named(tmp_path):
    path = tmp_path / "sort.mlir"
    with pytest.raises(polyblocks.CompileError) as info:
        pbj.export(lambda a: jnp.sort(a, axis=-1), (X,), str(path))
    assert info.value.op == "stablehlo.sort"
    assert "jnp.sort" in str(info.value)
    assert not path.exists()


def test_unsupported_dtype_is_named():
    with pytest.raises(polyblocks.CompileError, match="unsupported element type"):
        pbj.jit(lambda a: a * 2).compile(X.astype(jnp.complex64))


def test_jit_falls_back_with_one_warning():
    compiled = pbj.jit(lambda a: jnp.sort(a, axis=-1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y1 = compiled(X)
        y2 = compiled(X)
    np.testing.assert_array_equal(np.asarray(y1), np.sort(np.asarray(X), axis=-1))
    np.testing.assert_array_equal(np.asarray(y2), np.asarray(y1))
    messages = [str(w.message) for w in caught if "polyblocks" in str(w.message)]
    assert len(messages) == 1 and "stablehlo.sort" in messages[0]
