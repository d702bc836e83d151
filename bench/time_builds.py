"""Times one program's entry point as two or more pbtool builds compile it,
each build's calls in a process of its own (no other thread pool there),
the builds' processes taking turns: for every round, each build's process
makes its warm-up calls and then `--calls` timed ones, and reports the
fastest and the median. The table gives, per build, the range of those
minima and medians over the rounds, and the median over the rounds of
its minimum over the first build's in the same round.

    .venv/bin/python bench/time_builds.py prog.mlir \\
        --pbtool OLD/bin/pbtool --pbtool build/bin/pbtool --rounds 5

With `--keep DIR` the compiled libraries stay in DIR, so that `perf record
-o p.data -- .venv/bin/python bench/time_builds.py ... --keep DIR` and
`perf report -i p.data --sort dso,sym` attribute the samples to each
build's functions. A small program is compiled in one piece, its nests in
one function; `--compile-arg=--codegen-threads=2` compiles it in parts,
each nest a function of its own (forward.parallel0.nestN) that `perf
report` names.

The last column says whether each build's results equal the first
build's bit for bit (the same inputs in every process). The inputs are
random (seeded), in buffers aligned to 64 bytes, or `--offset` bytes past
that (16: where numpy's and malloc's large buffers start). With `--evict-mib 96` each timed call starts with the kernel's
data out of the caches (as in a network whose weights outgrow L3). A
benchmark, not a test: compare builds only within one run.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# numpy's OpenBLAS would start a thread pool of its own, here and in each
# child, whose threads spin for a while after starting: one thread.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))


def aligned_array(shape, dtype, offset):
    """A C-contiguous array whose data starts `offset` bytes past a 64-byte
    boundary."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.empty(size + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    return raw[start:start + size].view(dtype).reshape(shape)


def run(library, interface, function, calls, warmup, offset, seed, evict_mib):
    """The child: loads the library, times `calls` calls, prints JSON."""
    import polyblocks
    kernel = polyblocks.load(library, interface)
    fn = kernel[function] if function else next(iter(kernel.kernels.values()))
    rng = np.random.default_rng(seed)
    arrays = []
    for param in fn.inputs + fn.results:
        array = aligned_array(param.shape, param.dtype, offset)
        if np.issubdtype(param.dtype, np.floating):
            array[...] = rng.uniform(-1, 1, param.shape)
        else:
            array[...] = 0
        arrays.append(array)
    pointers = [a.ctypes.data for a in arrays]
    for _ in range(warmup):
        fn.call_pointers(pointers)
    # Written before each timed call, it evicts the kernel's weights and
    # buffers from the caches, as a network's other layers do.
    junk = np.zeros(evict_mib * 2**20 // 4, np.float32) if evict_mib else None
    times = []
    for _ in range(calls):
        if junk is not None:
            junk += 1.0
        start = time.perf_counter()
        fn.call_pointers(pointers)
        times.append((time.perf_counter() - start) * 1e3)
    # The results' bytes after the last call, so that builds can be
    # compared for equal outputs on the same inputs.
    digest = hashlib.sha256()
    for array in arrays[len(fn.inputs):]:
        digest.update(np.ascontiguousarray(array).tobytes())
    print(json.dumps({"min": min(times), "median": statistics.median(times),
                      "digest": digest.hexdigest()}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("--pbtool", action="append", required=True,
                        help="a pbtool to compile with (give two or more)")
    parser.add_argument("--function", default="")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--offset", type=int, default=0,
                        help="bytes past a 64-byte boundary the buffers "
                        "start at")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--evict-mib", type=int, default=0,
                        help="write a buffer of this many MiB before each "
                        "timed call (more than the last-level cache: the "
                        "kernel then starts with its data in memory)")
    parser.add_argument("--compile-arg", action="append", default=[],
                        help="a flag for every build's `pbtool compile` "
                        "(repeatable)")
    parser.add_argument("--keep", metavar="DIR",
                        help="compile the builds into DIR and keep them "
                        "(buildN.so: for `perf record` on this script, whose "
                        "report then names the kernels' functions)")
    parser.add_argument("--run", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(args.run[0], args.run[1], args.function, args.calls, args.warmup,
            args.offset, args.seed, args.evict_mib)
        return

    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            tmp = args.keep
        builds = []
        for i, pbtool in enumerate(args.pbtool):
            library = os.path.join(tmp, "build%d.so" % i)
            interface = os.path.join(tmp, "build%d.json" % i)
            subprocess.run([pbtool, "compile", args.program, "--emit=shared",
                            "-o", library, "--interface", interface] +
                           args.compile_arg, check=True)
            builds.append((pbtool, library, interface))
        results = [[] for _ in builds]
        for _ in range(args.rounds):
            for i, (_, library, interface) in enumerate(builds):
                out = subprocess.run(
                    [sys.executable, __file__, args.program, "--pbtool", "-",
                     "--run", library, interface, "--function", args.function,
                     "--calls", str(args.calls), "--warmup",
                     str(args.warmup), "--offset", str(args.offset),
                     "--seed", str(args.seed), "--evict-mib",
                     str(args.evict_mib)],
                    check=True, capture_output=True, text=True).stdout
                results[i].append(json.loads(out))
    print("%s: %d rounds of %d calls, buffers %d bytes past 64-byte "
          "alignment%s" % (args.program, args.rounds, args.calls, args.offset,
                           ", %d MiB written before each call" %
                           args.evict_mib if args.evict_mib else ""))
    # A machine's slow phases move every build's figures of a round alike:
    # the ratio of each round's minimum to the first build's in the same
    # round, and the median of those ratios, compare builds within rounds.
    # The last column: whether a build's results equal the first build's,
    # bit for bit, in every round (the inputs are the same).
    print("| build | min over the rounds (ms) | median over the rounds (ms) "
          "| min / first build's, median of the rounds "
          "| results equal the first build's |")
    print("|---|---|---|---|---|")
    base = [r["min"] for r in results[0]]
    base_digests = [r["digest"] for r in results[0]]
    for (pbtool, _, _), rounds in zip(builds, results):
        mins = [r["min"] for r in rounds]
        medians = [r["median"] for r in rounds]
        ratio = statistics.median(m / b for m, b in zip(mins, base))
        equal = all(r["digest"] == d for r, d in zip(rounds, base_digests))
        print("| %s | %.4f-%.4f | %.4f-%.4f | %.3f | %s |" % (
            pbtool, min(mins), max(mins), min(medians), max(medians), ratio,
            "yes" if equal else "no"))


if __name__ == "__main__":
    main()
