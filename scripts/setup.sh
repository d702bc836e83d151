#!/usr/bin/env bash
# Installs what PolyBlocks needs to build and test (Debian 12; run as root or
# with sudo available), then configures and builds it in build/, and sets up
# the Python environment of the front door (scripts/setup-python.sh).
# Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# neovim is the editor the language server's tests drive (tests/lsp);
# libamdhip64-5 is Debian's HIP runtime, which the AMD runtime tests load
# (PolyBlocks builds and links without it); python3-venv makes the Python
# front door's environment.
./scripts/install-packages.sh \
  cmake ninja-build ccache g++ python3 python3-venv libgtest-dev \
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 libomp-22-dev \
  neovim libamdhip64-5

build="${POLYBLOCKS_BUILD_DIR:-build}"
venv="${POLYBLOCKS_VENV:-$PWD/.venv}"
./scripts/setup-python.sh "$build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPOLYBLOCKS_PYTHON="$venv/bin/python" >/dev/null
fi
cmake --build "$build" -j "${POLYBLOCKS_JOBS:-2}"
# The build staged the package: install it into the environment.
./scripts/setup-python.sh "$build"
