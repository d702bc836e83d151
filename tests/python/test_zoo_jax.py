"""The JAX / Flax model zoo through both front doors, against jax.jit's
output on the same inputs: exported and compiled by pbtool into a shared
library called through its C interface, and through polyblocks.jax.jit.
Tolerances: zoo_jax.MODELS."""

import re

import jax
import numpy as np
import pytest

import polyblocks.jax as pbj
from conftest import compile_and_load, compile_to_s1, relative_error
from zoo_jax import MODELS


@pytest.mark.parametrize("name", sorted(MODELS))
def test_export_compile_and_call(name, tmp_path):
    build, tolerance = MODELS[name]
    fn, args = build()
    expected = np.asarray(jax.jit(fn)(*args))
    source = tmp_path / (name + ".mlir")
    pbj.export(fn, args, str(source), function=name)
    kernel, _ = compile_and_load(source, name)
    leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    (actual,) = kernel(*leaves)
    error = relative_error(actual, expected)
    print("%s: error %.2e (tolerance %.0e)" % (name, error, tolerance))
    assert error <= tolerance


def test_bert_layer_batch_8_biases_on_the_tiles(tmp_path):
    """The BERT layer at batch 8: jaxlib's DenseGeneral adds each bias on
    [batch, sequence, heads, features], a reshape of the matmul's result;
    all six are computed on the matmuls' tiles (the queries' past the keys'
    and values' matmuls between them). The result matches jax.jit's."""
    build, tolerance = MODELS["bert_layer"]
    fn, args = build(batch=8)
    expected = np.asarray(jax.jit(fn)(*args))
    source = tmp_path / "bert_layer_b8.mlir"
    pbj.export(fn, args, str(source), function="bert_layer")
    kernel, explained = compile_and_load(source, "bert_layer", ["--explain"])
    assert explained.count("pb-fuse-epilogues:") == 6
    leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    (actual,) = kernel(*leaves)
    assert relative_error(actual, expected) <= tolerance


def test_bert_layer_attention_fused(tmp_path):
    """jaxlib writes the layer's attention as two linalg.generic
    contractions over [batch, sequence, heads, features] around a softmax
    of five nests (its maximum through a copy and a broadcast): at S1 it is
    one scf.forall over the 12 heads (pb-fuse-attention), and no
    contraction of five loops is left. Its copies that change no value
    (stop_gradient, the layer norms' means broadcast to [..., 1]) are no
    loop nests there (pb-fold-copy-generics). (The layer's numbers:
    test_export_compile_and_call.)"""
    build, _ = MODELS["bert_layer"]
    fn, args = build()
    source = tmp_path / "bert_layer.mlir"
    pbj.export(fn, args, str(source), function="bert_layer")
    s1 = compile_to_s1(source)
    assert len(re.findall(r"scf\.forall \(%\w+\) in \(12\)", s1)) == 1
    five_loops = '"parallel", "parallel", "parallel", "parallel", "reduction"'
    assert five_loops not in s1
    copy = r"\^bb0\(%in: f32, %out: f32\):\s*linalg\.yield %in : f32"
    assert re.findall(copy, s1) == []


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jit(name):
    build, tolerance = MODELS[name]
    fn, args = build()
    expected = np.asarray(jax.jit(fn)(*args))
    compiled = pbj.jit(fn)
    compiled.compile(*args)
    error = relative_error(np.asarray(compiled(*args)), expected)
    assert error <= tolerance
