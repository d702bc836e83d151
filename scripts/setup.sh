#!/usr/bin/env bash
# Installs what PolyBlocks needs to build and test (Debian 12; run as root or
# with sudo available), then configures and builds it in build/.
#   setup.sh            the compiler, tools, examples and C/C++ tests
#   setup.sh --python   also the Python front door's environment
#                       (scripts/setup-python.sh: torch, torch-mlir, jax from
#                       PyPI in .venv, the build's polyblocks package), which
#                       the Python tests use
# Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
python=0
[ "${1:-}" = "--python" ] && python=1

# neovim is the editor the language server's tests drive (tests/lsp);
# libamdhip64-5 is Debian's HIP runtime, which the AMD runtime tests load
# (PolyBlocks builds and links without it); python3-venv makes the Python
# front door's environment; clang-format-22 checks the sources' format.
./scripts/install-packages.sh \
  cmake ninja-build ccache g++ python3 python3-venv libgtest-dev \
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 libomp-22-dev \
  clang-format-22 neovim libamdhip64-5

build="${POLYBLOCKS_BUILD_DIR:-build}"
venv="${POLYBLOCKS_VENV:-$PWD/.venv}"
configure=()
if ((python)); then
  ./scripts/setup-python.sh "$build"
  configure=("-DPOLYBLOCKS_PYTHON=$venv/bin/python")
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
elif ((python)) && ! grep -qx "POLYBLOCKS_PYTHON:FILEPATH=$venv/bin/python" "$build/CMakeCache.txt"; then
  cmake -S . -B "$build" "${configure[@]}" >/dev/null
fi
cmake --build "$build" -j "${POLYBLOCKS_JOBS:-2}"
# The build staged the package: install it into the environment.
if ((python)); then
  ./scripts/setup-python.sh "$build"
fi
