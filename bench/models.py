"""The model benchmark: every network of the zoo (tests/python/zoo_torch.py,
zoo_jax.py) through PolyBlocks and the anchors available here, on the same
inputs and threads, interleaved round by round (each timed call after
100 ms of untimed calls of the same engine), medians; prints a table of
times and ratios (PolyBlocks time / anchor time: below 1 is faster) with
compile times, and writes it into bench/RESULTS.md.

Anchors: PyTorch eager and torch.compile (Inductor), ONNX Runtime on a
torch.onnx export, IREE (llvm-cpu for the host CPU) on the same linalg
program PolyBlocks compiles; for the JAX networks jax.jit (XLA) and IREE on
JAX's StableHLO. Run it through bench/run-models.sh, which installs what it
needs.
"""

import argparse
import atexit
import datetime
import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

THREADS = int(os.environ.get("POLYBLOCKS_BENCH_THREADS", "2"))
# Before any runtime starts its threads.
os.environ.setdefault("OMP_NUM_THREADS", str(THREADS))
# numpy's own OpenBLAS is no engine here: one thread, no pool of its own
# spinning beside the engines'.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=true "
    "intra_op_parallelism_threads=%d" % THREADS)

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

TORCH_MODELS = ["mlp", "resnet18", "resnet50", "resnext50", "mobilenet_v2",
                "bert_layer", "gpt2_block"]
JAX_MODELS = ["mlp", "conv_block", "bert_layer"]


class Unavailable(Exception):
    """An engine that cannot run a model here (says why)."""


def relative_error(actual, expected):
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    return float(np.abs(actual - expected).max() / max(np.abs(expected).max(),
                                                       1e-30))


#===------------------------------------------------------------------------===#
# Engines: prepare(...) returns (run, seconds to compile); run() computes the
# network once and returns its output as a numpy array.
#===------------------------------------------------------------------------===#

def torch_engines():
    import torch

    torch.set_num_threads(THREADS)

    def eager(model, inputs, name):
        def run():
            with torch.no_grad():
                return model(*inputs).numpy()
        return run, 0.0

    def inductor(model, inputs, name):
        torch._dynamo.reset()
        compiled = torch.compile(model)
        start = time.perf_counter()
        with torch.no_grad():
            compiled(*inputs)
        seconds = time.perf_counter() - start

        def run():
            with torch.no_grad():
                return compiled(*inputs).numpy()
        return run, seconds

    def onnxruntime(model, inputs, name):
        try:
            import onnxruntime as ort
        except ImportError as e:
            raise Unavailable("onnxruntime not installed: %s" % e)
        path = os.path.join(WORK, name + ".onnx")
        start = time.perf_counter()
        with torch.no_grad():
            torch.onnx.export(model, tuple(inputs), path, dynamo=False,
                              opset_version=17)
        options = ort.SessionOptions()
        options.intra_op_num_threads = THREADS
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(path, options,
                                       providers=["CPUExecutionProvider"])
        seconds = time.perf_counter() - start
        feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), inputs)}

        def run():
            return session.run(None, feeds)[0]
        return run, seconds

    def iree(model, inputs, name):
        text = polyblocks_text(model, inputs, name)
        return iree_engine(text, [t.numpy() for t in inputs], name,
                           input_type="auto")

    def polyblocks(model, inputs, name):
        text = polyblocks_text(model, inputs, name)
        return polyblocks_engine(text, [t.numpy() for t in inputs], name)

    return [("PolyBlocks", polyblocks), ("torch eager", eager),
            ("Inductor", inductor), ("ONNX Runtime", onnxruntime),
            ("IREE", iree)]


_TEXTS = {}


def polyblocks_text(model, inputs, name):
    """The network as polyblocks.torch.export writes it (weights as
    constants), exported once per model and batch."""
    key = (name, tuple(tuple(t.shape) for t in inputs))
    if key not in _TEXTS:
        import polyblocks.torch as pbt
        start = time.perf_counter()
        exported = pbt._export(model, tuple(inputs), "constants", "forward",
                               debug_info=False)
        _TEXTS[key] = (exported.text, time.perf_counter() - start)
    return _TEXTS[key][0]


_COMPILED = {}


def polyblocks_engine(text, arrays, name):
    import polyblocks
    _COMPILED[name] = text
    start = time.perf_counter()
    kernel = polyblocks.compile(text, name=name)["forward"]
    seconds = time.perf_counter() - start

    def run():
        return kernel(*arrays)[0]
    return run, seconds


def iree_engine(text, arrays, name, input_type):
    try:
        import iree.compiler as ireec
        import iree.runtime as ireert
    except ImportError as e:
        raise Unavailable("iree-base-compiler / -runtime not installed: %s" % e)
    start = time.perf_counter()
    try:
        vmfb = ireec.compile_str(
            text, target_backends=["llvm-cpu"], input_type=input_type,
            extra_args=["--iree-llvmcpu-target-cpu=host",
                         "--iree-opt-data-tiling",
                         "--iree-llvmcpu-enable-ukernels=all"])
    except Exception as e:
        raise Unavailable("iree-compile failed: %s" %
                          str(e).strip().splitlines()[-1][:200])
    seconds = time.perf_counter() - start
    ireert.flags.parse_flags("--task_topology_max_group_count=%d" % THREADS)
    config = ireert.Config("local-task")
    context = ireert.SystemContext(config=config)
    vm_module = ireert.VmModule.copy_buffer(context.instance, vmfb)
    context.add_vm_module(vm_module)
    module = context.modules[vm_module.name]
    try:
        function = module["forward"]
    except KeyError:
        function = module["main"]

    def run():
        result = function(*arrays)
        if isinstance(result, (list, tuple)):
            result = result[0]
        return np.asarray(result.to_host())
    return run, seconds


def jax_engines():
    import jax

    def xla(fn, args, name):
        jitted = jax.jit(fn)
        start = time.perf_counter()
        jax.block_until_ready(jitted(*args))
        seconds = time.perf_counter() - start

        def run():
            return np.asarray(jax.block_until_ready(jitted(*args)))
        return run, seconds

    def leaves(args):
        return [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]

    def polyblocks(fn, args, name):
        import polyblocks.jax as pbj
        exported = pbj._export(fn, args, "forward")
        return polyblocks_engine(exported.text, leaves(args), name)

    def iree(fn, args, name):
        text = jax.jit(fn, keep_unused=True).lower(*args).as_text()
        return iree_engine(text, leaves(args), name, input_type="stablehlo")

    return [("PolyBlocks", polyblocks), ("XLA", xla), ("IREE", iree)]


#===------------------------------------------------------------------------===#
# Measurement
#===------------------------------------------------------------------------===#

def measure(prepared, rounds, warm_ms=100):
    """Runs every engine once per round, each round in its own order
    (shuffled, seeded by the round: the same orders every run); returns the
    median seconds of each. A fixed or rotated order would have each engine
    always follow the same one. Each timed call follows untimed calls of the
    same engine for `warm_ms` (at least one): it runs as repeated calls do,
    after the pool of the engine before has stopped spinning (ONNX
    Runtime's kept a core busy for some 40 ms after its call, torch's for
    some 15: the calls of whichever engine came next took twice as long,
    bench/contention.py). With --warm-ms=0 the timed calls follow one
    another."""
    names = list(prepared)
    for name in names:  # warm-up
        for _ in range(2):
            prepared[name]()
    times = {name: [] for name in names}
    for r in range(rounds):
        order = list(names)
        random.Random(r).shuffle(order)
        for name in order:
            if warm_ms:
                until = time.perf_counter() + warm_ms / 1e3
                prepared[name]()
                while time.perf_counter() < until:
                    prepared[name]()
            start = time.perf_counter()
            prepared[name]()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def program_file(name):
    """The program compiled for this model, written once into WORK for the
    pbtool runs of its own (None if PolyBlocks did not compile it)."""
    if name not in _COMPILED:
        return None
    # Named by content: the same name is another program at another batch.
    text = _COMPILED[name]
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = os.path.join(WORK, "%s-%s.mlir" % (name, digest))
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(text)
    return path


def compile_peak_memory(name):
    """The peak resident memory, in MB, of `pbtool compile` making an object
    of the program compiled for this model, as `--timing` reports it (the
    compiler's own high-water mark: what this process held does not
    count)."""
    from polyblocks._toolchain import find_pbtool
    path = program_file(name)
    if not path:
        return None
    done = subprocess.run([find_pbtool(), "compile", path, "--timing", "-o",
                           path + ".o"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    for line in done.stderr.splitlines():
        if line.strip().startswith("peak resident memory:"):
            return float(line.split(":")[1].split()[0])
    return None


def own_process_median(name, rounds):
    """PolyBlocks' median in a process of its own (`pbtool bench` on the
    program compiled for this model), where no other runtime keeps threads:
    the cost of sharing two cores with the anchors' thread pools is the
    difference from the interleaved median. Also the program's arithmetic
    in GFLOP as `pbtool bench` counts it (its linalg ops'), or None."""
    from polyblocks._toolchain import find_pbtool
    path = program_file(name)
    if not path:
        return None, None
    time.sleep(1)  # this process's idle thread pools stop spinning
    out = subprocess.run([find_pbtool(), "bench", path, "--function=forward",
                          "--repetitions=%d" % max(rounds, 5)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True).stdout.split()
    median = gflop = None
    for word, value in zip(out, out[1:]):
        if word == "median":
            median = float(value) / 1e3
        if value == "GFLOP,":
            gflop = float(word)
    return median, gflop


def peak_gflops():
    """The machine's peak f32 arithmetic on THREADS threads, in GFLOP/s
    (bench/peak_fma.c, built here with the C compiler), or None."""
    source = os.path.join(HERE, "peak_fma.c")
    binary = os.path.join(WORK, "peak_fma")
    for cc in ("clang-22", "/usr/lib/llvm-22/bin/clang", "cc"):
        try:
            subprocess.run([cc, "-O2", "-fopenmp", source, "-o", binary],
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            break
        except (OSError, subprocess.CalledProcessError):
            continue
    else:
        return None
    out = subprocess.run([binary], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS=str(THREADS)))
    return float(out.stdout.split()[0]) if out.returncode == 0 else None


def bench_model(framework, name, batch, engines, rounds, warm_ms=100,
                reference_engine=None):
    """Times `engines` on the zoo network `name` at `batch`. Their outputs
    are checked against the framework's own: that of `reference_engine`
    (torch eager or XLA, a (name, prepare) pair), run here once when it is
    not among the engines timed."""
    if framework == "torch":
        import zoo_torch
        import torch
        torch.manual_seed(0)
        model, inputs = zoo_torch.MODELS[name][0](batch=batch)
    else:
        import zoo_jax
        model, inputs = zoo_jax.MODELS[name][0](batch=batch)
    prepared, compile_seconds, notes, outputs = {}, {}, {}, {}
    for engine, prepare in engines:
        try:
            run, seconds = prepare(model, inputs, name)
            outputs[engine] = run()
            prepared[engine] = run
            compile_seconds[engine] = seconds
        except Unavailable as e:
            notes[engine] = str(e)
        except Exception as e:  # an anchor failing is a finding, not a crash
            notes[engine] = "%s: %s" % (type(e).__name__,
                                        str(e).strip().splitlines()[0][:160]
                                        if str(e).strip() else "")
            traceback.print_exc()
    # Every engine's output against the framework's own.
    reference = None
    if reference_engine:
        reference = outputs.get(reference_engine[0])
        if reference is None:
            reference = reference_engine[1](model, inputs, name)[0]()
    errors = {e: relative_error(o, reference) for e, o in outputs.items()
              if reference is not None}
    medians = measure(prepared, rounds, warm_ms)
    own, gflop = own_process_median(name, rounds) \
        if "PolyBlocks" in prepared else (None, None)
    memory = compile_peak_memory(name) if "PolyBlocks" in prepared else None
    return {"model": name, "framework": framework, "batch": batch,
            "medians": medians, "own": own, "memory": memory, "gflop": gflop,
            "compile": compile_seconds, "notes": notes,
            "errors": errors,
            "export": _TEXTS.get((name, tuple(tuple(t.shape) for t in inputs)),
                                 (None, None))[1]
            if framework == "torch" else None}


def ms(seconds):
    """Milliseconds to three significant digits (0.0213 ms, 2.19 ms)."""
    value = seconds * 1e3
    return "%.3g ms" % value if value < 1 else "%.2f ms" % value


def format_table(results, peak):
    anchors = []
    for r in results:
        for engine in list(r["medians"]) + list(r["notes"]):
            if engine != "PolyBlocks" and engine not in anchors:
                anchors.append(engine)
    head = ("| network | batch | PolyBlocks | " +
            " | ".join(anchors) + " | ours / best anchor | PolyBlocks in its "
            "own process (/ best anchor) | PolyBlocks compile (peak "
            "memory) | arithmetic (at the peak) |")
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        med = r["medians"]
        ours = med.get("PolyBlocks")
        cells = []
        for a in anchors:
            if a in med:
                ratio = ours / med[a] if ours else None
                cells.append("%s (%.2fx)" % (ms(med[a]), ratio)
                             if ratio else ms(med[a]))
            else:
                cells.append("n/a")
        best = min((med[a] for a in anchors if a in med), default=None)
        own = r["own"]
        gflop = r.get("gflop")
        arithmetic = "n/a"
        if gflop:
            arithmetic = "%.3g GFLOP" % gflop
            if peak:
                arithmetic += " (%s)" % ms(gflop / peak)
        rows.append("| %s (%s) | %d | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["framework"], r["batch"],
            ms(ours) if ours else "n/a", " | ".join(cells),
            "%.2fx" % (ours / best) if ours and best else "n/a",
            "%s (%.2fx)" % (ms(own), own / best) if own and best
            else "n/a",
            ("%.1f s" % r["compile"]["PolyBlocks"] +
             (" (%.0f MB)" % r["memory"] if r.get("memory") else ""))
            if "PolyBlocks" in r["compile"] else "n/a", arithmetic))
    return "\n".join(rows)


def format_details(results):
    lines = []
    for r in results:
        parts = []
        for engine, seconds in r["compile"].items():
            parts.append("%s %.1f s" % (engine, seconds))
        errors = ", ".join("%s %.1e" % (e, v) for e, v in r["errors"].items()
                           if e not in ("torch eager", "XLA"))
        line = "- %s (%s), batch %d: compile %s; error vs the framework: %s" % (
            r["model"], r["framework"], r["batch"], ", ".join(parts), errors)
        if r["export"]:
            line += "; torch-mlir export %.1f s" % r["export"]
        for engine, note in r["notes"].items():
            line += "; %s: %s" % (engine, note)
        lines.append(line)
    return "\n".join(lines)


def machine():
    try:
        model = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                 if l.startswith("model name")][0]
    except (OSError, IndexError):
        model = "unknown CPU"
    flags = open("/proc/cpuinfo").read()
    isa = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "SSE"
    return "%s (%s), %d threads" % (model, isa, THREADS)


def write_results(text, path):
    begin, end = "<!-- models:begin -->", "<!-- models:end -->"
    content = open(path).read() if os.path.exists(path) else ""
    block = "%s\n%s\n%s" % (begin, text, end)
    if begin in content and end in content:
        content = content[:content.index(begin)] + block + \
            content[content.index(end) + len(end):]
    else:
        content = content.rstrip("\n") + "\n\n## Networks\n\n" + block + "\n"
    open(path, "w").write(content)


def select_engines(engines, wanted, baseline):
    """The engines named in `wanted` (all when empty; PolyBlocks always),
    with PolyBlocks compiled by the `baseline` pbtool beside it when given:
    a step measured against the build before it in the same rounds."""
    chosen = [(n, p) for n, p in engines
              if not wanted or n == "PolyBlocks" or n in wanted]
    if baseline:
        prepare = dict(engines)["PolyBlocks"]

        def prepare_baseline(*args):
            # polyblocks.compile runs the pbtool this names.
            saved = os.environ.get("POLYBLOCKS_PBTOOL")
            os.environ["POLYBLOCKS_PBTOOL"] = baseline
            try:
                return prepare(*args)
            finally:
                if saved is None:
                    del os.environ["POLYBLOCKS_PBTOOL"]
                else:
                    os.environ["POLYBLOCKS_PBTOOL"] = saved
        chosen.insert(1, ("PolyBlocks baseline", prepare_baseline))
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="",
                        help="comma-separated zoo names (default: all); "
                             "prefix jax: for the JAX ones, e.g. jax:bert_layer")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--warm-ms", type=int, default=100,
                        help="untimed calls of the engine for this long "
                             "(at least one) before each timed call; 0: "
                             "the timed calls follow one another")
    parser.add_argument("--no-write", action="store_true",
                        help="print only; do not update bench/RESULTS.md")
    parser.add_argument("--engines", default="",
                        help="comma-separated anchors to run beside "
                             "PolyBlocks (default: all), e.g. "
                             "'torch eager,ONNX Runtime'")
    parser.add_argument("--baseline-pbtool", default="",
                        help="also run PolyBlocks compiled by this pbtool "
                             "(another build), as the engine 'PolyBlocks "
                             "baseline'; bench/RESULTS.md is not written")
    args = parser.parse_args()
    engines = [e for e in args.engines.split(",") if e]
    wanted = [m for m in args.models.split(",") if m]
    jobs = [("torch", m) for m in TORCH_MODELS] + [("jax", m) for m in JAX_MODELS]
    if wanted:
        jobs = [(f, m) for f, m in jobs
                if (m if f == "torch" else "jax:" + m) in wanted]
    peak = peak_gflops()
    print("peak f32 arithmetic: %s GFLOP/s" % peak, flush=True)
    results = []
    # Each framework's engines, those timed, and its own engine (torch
    # eager, XLA) for the outputs' errors when it is not among them.
    lists, references = {}, {}
    for framework, make, own in (("torch", torch_engines, "torch eager"),
                                 ("jax", jax_engines, "XLA")):
        if any(f == framework for f, _ in jobs):
            every = make()
            lists[framework] = select_engines(every, engines,
                                              args.baseline_pbtool)
            references[framework] = (own, dict(every)[own])
    for batch in [int(b) for b in args.batches.split(",")]:
        for framework, name in jobs:
            print("== %s (%s), batch %d" % (name, framework, batch), flush=True)
            result = bench_model(framework, name, batch, lists[framework],
                                 args.rounds, args.warm_ms,
                                 references[framework])
            print("   " + ", ".join("%s %s" % (e, ms(t))
                                    for e, t in result["medians"].items()),
                  flush=True)
            results.append(result)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    protocol = ("each timed call after %d ms of untimed calls of the same "
                "engine (the engine before it has stopped spinning)"
                % args.warm_ms if args.warm_ms else
                "the timed calls one after another")
    text = ("Measured %s at %s on %s; medians of %d interleaved rounds, "
            "each round's order shuffled, %s (`./bench/run-models.sh`). "
            "Ratios are PolyBlocks' time over the "
            "anchor's (below 1: PolyBlocks is faster). \"In its own "
            "process\": `pbtool bench` on the same program, in a process "
            "where no other runtime keeps a thread pool; every engine of the "
            "interleaved rounds has its own pool in one process, and on 2 "
            "cores a pool still spinning after its call takes a core from "
            "the next engine's. \"Arithmetic\": the arith and math ops of "
            "the network's linalg ops, as `pbtool bench` counts them (a "
            "convolution's as computed directly, a multiply-add as two), "
            "and their time at the machine's peak, %s (`bench/peak_fma.c`: "
            "independent FMA chains on every thread, measured at the start "
            "of this run). For networks of matmuls that time bounds every "
            "engine's; Winograd convolutions do less arithmetic than "
            "counted.\n\n%s\n\n%s\n" % (
                datetime.date.today().isoformat(), commit or "?", machine(),
                args.rounds, protocol,
                "%.1f GFLOP/s" % peak if peak else "not measured",
                format_table(results, peak), format_details(results)))
    print(text)
    if not args.no_write and not wanted and not engines and \
            not args.baseline_pbtool:
        write_results(text, os.path.join(HERE, "RESULTS.md"))


# The exports, compiled programs and compile cache of one run (gigabytes for
# the whole zoo): removed when the run ends.
WORK = tempfile.mkdtemp(prefix="polyblocks-models-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

if __name__ == "__main__":
    # A cache of its own: compile times are measured, not cache hits.
    os.environ["XDG_CACHE_HOME"] = os.path.join(WORK, "cache")
    main()
