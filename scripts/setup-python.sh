#!/usr/bin/env bash
# The Python front door's environment: a virtual environment (default
# .venv in the checkout, or $POLYBLOCKS_VENV) holding the frameworks the
# Python tests use (python/test-requirements.txt) and, once the build has
# staged it, the polyblocks package of the build (editable, so that it
# follows rebuilds). Usage: setup-python.sh BUILD_DIR. Quiet when
# everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
venv="${POLYBLOCKS_VENV:-$PWD/.venv}"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if [ ! -x "$venv/bin/python" ]; then
  echo "creating the Python environment $venv"
  "$python" -m venv "$venv"
fi
# pip prints nothing when every requirement is satisfied already.
"$venv/bin/pip" install -q --disable-pip-version-check -r python/test-requirements.txt
if [ -f "$build/python/pyproject.toml" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$build/python" >/dev/null
fi
