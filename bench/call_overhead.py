"""Times what a call through the Python front door costs on top of the
compiled entry point: `kernel(x)` against the entry point called on raw
pointers (ctypes), both on the same compiled kernel (8 x 784 -> 8 x 10, a
tiny matmul, so that the wrapper's share shows), medians of 9 runs of
20,000 calls; and the two ways to take an array's address, the wrapper's
(ctypes' view of the buffer) and `array.ctypes.data`.

  .venv/bin/python bench/call_overhead.py

The numbers taken with it: bench/RESULTS.md, notes on the passes.
"""
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import polyblocks  # noqa: E402
from polyblocks._library import _address  # noqa: E402

PROGRAM = """
func.func @forward(%x: tensor<8x784xf32>, %w: tensor<784x10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x10xf32>) -> tensor<8x10xf32>
  %r = linalg.matmul ins(%x, %w : tensor<8x784xf32>, tensor<784x10xf32>) outs(%f : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %r : tensor<8x10xf32>
}
"""


def median_us(fn, calls=20000, runs=9):
    for _ in range(2000):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main():
    kernel = polyblocks.compile(PROGRAM, name="call_overhead")["forward"]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 784)).astype(np.float32)
    w = rng.standard_normal((784, 10)).astype(np.float32)
    out = np.empty((8, 10), np.float32)
    pointers = [x.ctypes.data, w.ctypes.data, out.ctypes.data]
    np.testing.assert_allclose(kernel(x, w)[0], x @ w, rtol=1e-4, atol=1e-4)
    for _ in range(2):
        wrapped = median_us(lambda: kernel(x, w))
        raw = median_us(lambda: kernel.call_pointers(pointers))
        print("kernel(x, w) %.2f us, on raw pointers %.2f us: the wrapper "
              "%.2f us per call" % (wrapped, raw, wrapped - raw))
    print("an array's address: ctypes' view of its buffer %.3f us, "
          "array.ctypes.data %.3f us" % (median_us(lambda: _address(x)),
                                         median_us(lambda: x.ctypes.data)))


if __name__ == "__main__":
    main()
