#!/usr/bin/env bash
# ./bench/run.sh: benchmarks PolyBlocks-generated kernels against OpenBLAS,
# oneDNN, Halide 14 and STREAM, in one command.
#
#   1. installs the anchors with apt where missing (quiet when present);
#   2. configures build-bench/ from the top-level project with
#      -DPOLYBLOCKS_BUILD_BENCH=ON and builds only the pb-bench target (-j2);
#   3. runs pb-bench on 2 threads, prints the report and writes it, with the
#      date, CPU model, thread count and exact command, to bench/RESULTS.md.
#
# Arguments are passed to pb-bench (e.g. --filter=GEMM, --min-time=0.5).
# Not a test: nothing here runs in CI. Exit status: pb-bench's (1 when a row
# failed its correctness check).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
BUILD="$ROOT/build-bench"
THREADS=2
JOBS=2

# --- 1. anchors ---------------------------------------------------------------
# libopenblas0-openmp: OpenBLAS built on OpenMP, so that it shares the one
# OpenMP runtime of the process (see the notes in RESULTS.md); libopenblas-dev
# provides the header.
"$ROOT/scripts/install-packages.sh" libdnnl-dev libopenblas-dev libopenblas0-openmp libhalide14-0-dev

# --- 2. configure and build ------------------------------------------------------
mkdir -p "$BUILD"
cmake_args=(-S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPOLYBLOCKS_BUILD_BENCH=ON
            -DPOLYBLOCKS_BUILD_TESTS=OFF -DPOLYBLOCKS_BUILD_EXAMPLES=OFF)
if [ ! -f "$BUILD/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  cmake_args+=(-G Ninja)
fi
log="$BUILD/pb-bench-build.log"
if ! cmake "${cmake_args[@]}" >"$log" 2>&1; then
  tail -n 40 "$log"
  echo "run.sh: configuring $BUILD failed (full log: $log)" >&2
  exit 1
fi
echo "run.sh: building pb-bench in build-bench/ (log: build-bench/pb-bench-build.log)"
if ! cmake --build "$BUILD" --target pb-bench -j "$JOBS" >>"$log" 2>&1; then
  tail -n 40 "$log"
  echo "run.sh: building pb-bench failed (full log: $log)" >&2
  exit 1
fi

# --- 3. run ---------------------------------------------------------------------------
export OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS HL_NUM_THREADS=$THREADS
# OpenBLAS 0.3.21 does not know every recent CPU; on AVX-512 machines force its
# SkylakeX kernels. Without AVX-512 those kernels die with SIGILL, so the
# variable is left unset and OpenBLAS picks its kernels itself (pb-bench
# prints which core it chose).
if grep -qw avx512f /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=SkylakeX
  coretype_env="OPENBLAS_CORETYPE=SkylakeX "
else
  unset OPENBLAS_CORETYPE
  coretype_env=""
fi

cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
cpu_family="$(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2- | tr -d ' ')"
cpu_modelno="$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2- | tr -d ' ')"
cpu_isa="AVX2 $(grep -qw fma /proc/cpuinfo && echo '+ FMA')"
grep -qw avx512f /proc/cpuinfo && cpu_isa="AVX-512 (avx512f)"
ncpu="$(nproc)"
l3="$(lscpu 2>/dev/null | sed -n 's/^L3 cache:[[:space:]]*//p' | sed 's/ *(.*)//' | head -n1)"
l3="${l3:-unknown}"
commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
date_now="$(date -u '+%Y-%m-%d %H:%M UTC')"
load="$(cut -d' ' -f1-3 /proc/loadavg)"

command_line="${coretype_env}OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS HL_NUM_THREADS=$THREADS build-bench/bin/pb-bench${*:+ $*}"
echo "run.sh: $command_line"
echo

# Share of the CPUs that other processes used during one second (nothing of
# ours runs then): a busy machine makes every number below noisy.
cpu_busy_percent() {
  local a b
  read -r -a a < <(head -n1 /proc/stat)
  sleep 1
  read -r -a b < <(head -n1 /proc/stat)
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  local idle=$((b[4] - a[4] + b[5] - a[5]))
  echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}
busy_before="$(cpu_busy_percent)"
if [ "$busy_before" -gt 10 ]; then
  echo "run.sh: warning: other processes keep ${busy_before}% of the CPUs busy; results will be noisy" >&2
fi

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
set +e
"$BUILD/bin/pb-bench" "$@" | tee "$report"
status=${PIPESTATUS[0]}
set -e
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
busy_after="$(cpu_busy_percent)"

{
  echo "# PolyBlocks benchmark results"
  echo
  echo "- Date: $date_now"
  echo "- CPU: $cpu_model (family $cpu_family, model $cpu_modelno), $ncpu logical CPUs, $cpu_isa"
  echo "- Threads: $THREADS for every side (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, HL_NUM_THREADS; oneDNN uses the OpenMP default)"
  echo "- Command: \`./bench/run.sh${*:+ $*}\`, which ran \`$command_line\`"
  echo "- PolyBlocks: commit $commit; kernels compiled by pbtool for the host CPU"
  echo "- CPU time used by other processes in the second before the run: ${busy_before}%, in the second after: ${busy_after}%"
  echo "  (load average at the start: $load, at the end: $load_end; the start includes building pb-bench)"
  echo
  cat "$report"
  echo
  cat <<EOF
## How to read this

- Every row times our kernel and its anchor alternately in the same process
  (ours, anchor, ours, anchor, ...) after one warm-up call each; the numbers
  are medians. Ours/Anchor is the speed ratio (> 1: PolyBlocks is faster).
- GFLOP/s count 2·M·N·K for GEMM and 2·OH·OW·F·KH·KW·C for convolutions
  (padding included in our kernel, done inside the oneDNN primitive).
- GB/s count bytes read + written once: 8 bytes per element for
  relu(x·a+b), one read + one write of the 16 MiB tensor for softmax and
  layernorm, 12 bytes per element for the triad. Write-allocate traffic is not
  counted on either side, so a kernel that streams as fast as the triad shows
  about 0.89x (2 counted of 3 moved vs 3 of 4). The triad moves 768 MiB per
  call (DRAM); the softmax and layernorm tensors are 16 MiB each and this
  CPU's L3 is $l3, so those two may run partly from cache. Their rows
  against oneDNN's softmax and layer normalization count the same bytes on
  both sides.
- A machine shared with other work (see the CPU use above) makes the
  numbers noisy, most of all for kernels made of many short parallel regions
  (a parallel loop inside a sequential one forks and joins the threads at
  every outer iteration).
- The blur row is in milliseconds per call (lower is faster); the ratio is
  still ours/anchor speed.
- Max rel err: max |ours - ref| / max(|ref|, 1% of max |ref|); ref is the
  anchor's output, except for the rows against the triad (C++
  double-precision reference). Rows above 1e-3 are marked FAIL.
- One OpenMP runtime: our kernels need LLVM's libomp; pb-bench links it
  instead of GCC's libgomp, and oneDNN, OpenBLAS (its OpenMP build) and the
  STREAM/peak loops reach it through libomp's GOMP_* entry points; Halide's
  parallel loops are routed to it too (custom_do_par_for). On 2 cores, two
  thread pools would otherwise steal each other's cores: idle libomp workers
  spin for 200 ms after each parallel region.
EOF
} >"$BENCH/RESULTS.md"
echo "run.sh: wrote bench/RESULTS.md"
exit "$status"
