#!/usr/bin/env bash
# The model benchmark (bench/models.py): every zoo network through
# PolyBlocks, torch eager, torch.compile (Inductor), ONNX Runtime, IREE and
# (JAX networks) XLA, interleaved, medians; the table goes into
# bench/RESULTS.md. Installs what it needs: the build and Python environment
# (scripts/setup.sh --python) and the anchors' packages from PyPI
# (bench/requirements.txt) into that environment.
#   bench/run-models.sh [--models resnet18,jax:bert_layer] [--batches 1,8] [--rounds N] [--no-write]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --python
venv="${POLYBLOCKS_VENV:-$PWD/.venv}"
PIP_NO_CACHE_DIR=1 "$venv/bin/pip" install -q --disable-pip-version-check -r bench/requirements.txt
exec "$venv/bin/python" bench/models.py "$@"
