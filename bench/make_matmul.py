"""Writes a matmul M x K by K x N as a tensor program for `pbtool bench`,
the weights a random constant (as a network's layer has them) or an
argument; with --torch, instead times torch's `a @ b` on the same shapes
(the threads of POLYBLOCKS_BENCH_THREADS, 2 by default; median of 30).

  python bench/make_matmul.py 1024 768 3072 > mm.mlir
  pbtool bench mm.mlir --repetitions=30
  python bench/make_matmul.py 1024 768 3072 --weights=argument > mm-arg.mlir
  python bench/make_matmul.py 1024 768 3072 --torch

The numbers taken with it: bench/RESULTS.md, notes on the passes.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def program(m, k, n, constant_weights):
    rng = np.random.default_rng(0)
    weights = (rng.standard_normal((k, n)) * 0.05).astype(np.float32)
    args = "%%x: tensor<%dx%dxf32>" % (m, k)
    decl = ""
    if constant_weights:
        decl = '  %%w = arith.constant dense<"0x%s"> : tensor<%dx%dxf32>\n' % (
            weights.tobytes().hex().upper(), k, n)
    else:
        args += ", %%w: tensor<%dx%dxf32>" % (k, n)
    return (
        "func.func @forward(%s) -> tensor<%dx%dxf32> {\n"
        "  %%zero = arith.constant 0.0 : f32\n%s"
        "  %%e = tensor.empty() : tensor<%dx%dxf32>\n"
        "  %%f = linalg.fill ins(%%zero : f32) outs(%%e : tensor<%dx%dxf32>)"
        " -> tensor<%dx%dxf32>\n"
        "  %%r = linalg.matmul ins(%%x, %%w : tensor<%dx%dxf32>, tensor<%dx%dxf32>)"
        " outs(%%f : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n"
        "  return %%r : tensor<%dx%dxf32>\n}\n" %
        (args, m, n, decl, m, n, m, n, m, n, m, k, k, n, m, n, m, n, m, n))


def time_torch(m, k, n):
    import torch
    torch.set_num_threads(int(os.environ.get("POLYBLOCKS_BENCH_THREADS", "2")))
    a, b = torch.randn(m, k), torch.randn(k, n)
    for _ in range(5):
        a @ b
    times = []
    for _ in range(30):
        start = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    print("torch a @ b, %d x %d by %d x %d: %.3f ms, %.0f GFLOP/s" %
          (m, k, k, n, seconds * 1e3, 2.0 * m * k * n / seconds / 1e9))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("m", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("--weights", choices=["constant", "argument"],
                        default="constant")
    parser.add_argument("--torch", action="store_true",
                        help="time torch's matmul instead")
    args = parser.parse_args()
    if args.torch:
        time_torch(args.m, args.k, args.n)
    else:
        sys.stdout.write(program(args.m, args.k, args.n,
                                 args.weights == "constant"))


if __name__ == "__main__":
    main()
