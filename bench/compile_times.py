"""Times `pbtool compile` on programs, against a baseline pbtool in the same
run (turns interleaved), and prints a table: wall seconds (minimum and
median of the rounds), the steps that took most of the time in the fastest
round, and the peak resident memory, as `--timing` reports them.

    .venv/bin/python bench/export_zoo.py resnet18 -o r18.mlir
    .venv/bin/python bench/compile_times.py r18.mlir \\
        --baseline-pbtool OLD/bin/pbtool --rounds 5

The object is written to a temporary file each time; `--emit=shared` times
the shared library `polyblocks.compile` makes instead (linking included).
A benchmark, not a test: the host's noise moves single figures by 20 % and
more, so compare the two builds' minima taken in one run.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ("parse and check the program", "stage s1 (bufferize)",
         "stage s2 (affine)", "stage s3 (optimize)", "stage s4 (map)",
         "stage s5 (llvm)", "optimize LLVM IR (-O3)", "generate machine code",
         "link the parts (ld -r)", "add the constant data",
         "link the shared library", "write the outputs")
# A program in parts: the step its threads share ("..., 2 parts in
# parallel"), shown under this name.
PARALLEL = "optimize LLVM IR (-O3) and generate machine code"


def compile_once(pbtool, program, emit, out):
    """Wall seconds, the --timing steps (name -> seconds) and the peak MB."""
    command = [pbtool, "compile", program, "--timing", "-o", out]
    if emit:
        command.append("--emit=" + emit)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("%s failed on %s:\n%s" % (pbtool, program, done.stderr))
    steps, peak = {}, None
    for line in done.stderr.splitlines():
        match = re.match(r"\s*([\d.]+) \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)"
                         r"\s+(.*?)\s*$", line)
        if match and match.group(3).startswith(PARALLEL + ","):
            steps["the parts"] = float(match.group(2))
        elif match and match.group(3) in STEPS:
            steps[match.group(3)] = float(match.group(2))
        peak_match = re.search(r"peak resident memory: (\d+) MB", line)
        if peak_match:
            peak = int(peak_match.group(1))
    return seconds, steps, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("programs", nargs="+")
    parser.add_argument("--pbtool", default=os.path.join(
        HERE, "..", "build", "bin", "pbtool"))
    parser.add_argument("--baseline-pbtool")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--emit", choices=["shared"])
    args = parser.parse_args()

    tools = [("this build", args.pbtool)]
    if args.baseline_pbtool:
        tools.append(("baseline", args.baseline_pbtool))
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "kernel.so" if args.emit else "kernel.o")
        rows = []
        for program in args.programs:
            runs = {label: [] for label, _ in tools}
            for round_ in range(args.rounds):
                # Alternate which build goes first.
                order = tools if round_ % 2 == 0 else tools[::-1]
                for label, pbtool in order:
                    runs[label].append(
                        compile_once(pbtool, program, args.emit, out))
            for label, _ in tools:
                fastest = min(runs[label], key=lambda run: run[0])
                rows.append((os.path.basename(program), label,
                             min(run[0] for run in runs[label]),
                             statistics.median(run[0] for run in runs[label]),
                             max(run[2] or 0 for run in runs[label]),
                             fastest[1]))
    print("| program | pbtool | min s | median s | peak MB | "
          "largest steps of the fastest round (s) |")
    print("|---|---|---|---|---|---|")
    for name, label, low, median, peak, steps in rows:
        largest = sorted(steps.items(), key=lambda item: -item[1])[:4]
        print("| %s | %s | %.2f | %.2f | %d | %s |" % (
            name, label, low, median, peak,
            ", ".join("%s %.2f" % item for item in largest)))


if __name__ == "__main__":
    main()
