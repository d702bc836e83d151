#!/usr/bin/env bash
# Sets everything up, builds PolyBlocks and runs the main example: the
# separable 5-tap blur, compiled from examples/blur/blur.mlir through
# polyblocks_add_kernel, checked against a plain C++ loop and timed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
"${POLYBLOCKS_BUILD_DIR:-build}/bin/blur-example"
