"""The PyTorch model zoo through both front doors, against torch's own
output on the same inputs: exported (weights as constants) and compiled by
pbtool into a shared library called through its C interface, and through
polyblocks.torch.jit (weights as arguments). Tolerances: zoo_torch.MODELS."""

import time

import numpy as np
import pytest
import torch

import polyblocks.torch as pbt
from conftest import compile_and_load, compile_to_s1, relative_error
from zoo_torch import MODELS


def reference(model, inputs):
    with torch.no_grad():
        return model(*inputs).numpy()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_export_compile_and_call(name, tmp_path):
    build, tolerance = MODELS[name]
    model, inputs = build()
    expected = reference(model, inputs)
    source = tmp_path / (name + ".mlir")
    start = time.time()
    pbt.export(model, inputs, str(source), function=name)
    exported = time.time()
    kernel, _ = compile_and_load(source, name)
    compiled = time.time()
    (actual,) = kernel(*[t.numpy() for t in inputs])
    error = relative_error(actual, expected)
    print("%s: export %.1f s, pbtool %.1f s, error %.2e (tolerance %.0e)" % (
        name, exported - start, compiled - exported, error, tolerance))
    assert actual.shape == expected.shape
    assert error <= tolerance


def test_batch_tiled_mobilenet_v2(tmp_path):
    """MobileNetV2 at batch 8, planned for a 32 MiB last-level cache: its
    leading layers, whose activations outgrow it at batch 8, run one image
    at a time (pb-tile-batch: the expansion to 96 channels is a buffer of
    one 112x112 image); the result matches torch's on all eight images."""
    build, tolerance = MODELS["mobilenet_v2"]
    model, inputs = build(batch=8)
    expected = reference(model, inputs)
    source = tmp_path / "mobilenet_v2_b8.mlir"
    pbt.export(model, inputs, str(source), function="forward")
    flags = ["--l3-cache-kib=32768"]
    s1 = compile_to_s1(source, flags)
    assert "scf.for" in s1 and "memref<1x112x112x96xf32>" in s1
    kernel, _ = compile_and_load(source, "forward", flags)
    (actual,) = kernel(*[t.numpy() for t in inputs])
    assert relative_error(actual, expected) <= tolerance


def test_mlp_batch_8_on_register_tiles(tmp_path):
    """The MLP at batch 8: its 8-row products by the constant weights are
    register-tiled, their panels packed at compile time (not streamed, as
    at batch 1); the 10-column classifier, which the tiles would cover one
    vector wide, is streamed. The result matches torch's."""
    build, tolerance = MODELS["mlp"]
    model, inputs = build(batch=8)
    expected = reference(model, inputs)
    source = tmp_path / "mlp_b8.mlir"
    pbt.export(model, inputs, str(source), function="forward")
    kernel, explained = compile_and_load(source, "forward", ["--explain"])
    assert explained.count("the column factor packed at compile time") == 2
    assert explained.count("matmul of 8 rows streamed") == 1
    (actual,) = kernel(*[t.numpy() for t in inputs])
    assert relative_error(actual, expected) <= tolerance


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jit(name):
    build, tolerance = MODELS[name]
    model, inputs = build()
    expected = reference(model, inputs)
    compiled = pbt.jit(model)
    start = time.time()
    compiled.compile(*inputs)
    actual = compiled(*inputs)
    error = relative_error(actual.numpy(), expected)
    print("%s: jit compile %.1f s, error %.2e" % (name, time.time() - start, error))
    assert error <= tolerance
