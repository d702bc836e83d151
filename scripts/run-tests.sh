#!/usr/bin/env bash
# Sets everything up, builds PolyBlocks and runs every test through CTest:
# lit (passes, stages, pbtool, end-to-end numerical corpus, C/C++ interface,
# language server protocol and Neovim), GoogleTest units, the examples and
# the downstream CMake project, and the Python front door with its model zoo
# (whose frameworks it installs from PyPI into .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --python
ctest --test-dir "${POLYBLOCKS_BUILD_DIR:-build}" --output-on-failure -j "${POLYBLOCKS_JOBS:-2}"
