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
  # The frameworks take about 6.5 GB installed (torch's Linux wheel brings
  # its CUDA libraries) and about 3 GB more while pip unpacks them.
  free_mb=$(df --output=avail -B1M "$(dirname "$venv")" | tail -1)
  if [ "$free_mb" -lt 10000 ]; then
    echo "warning: $free_mb MB free beside $venv; installing the frameworks" \
      "takes about 10000 MB at its peak" >&2
  fi
  "$python" -m venv "$venv"
fi
# pip keeps no cache of the wheels (gigabytes that are never read again
# here) and unpacks them beside the environment, on its file system rather
# than in a /tmp that may be smaller. It prints nothing when every
# requirement is satisfied already.
mkdir -p "$venv/pip-tmp"
TMPDIR="$venv/pip-tmp" PIP_NO_CACHE_DIR=1 "$venv/bin/pip" install -q \
  --disable-pip-version-check -r python/test-requirements.txt
rm -rf "$venv/pip-tmp"
if [ -f "$build/python/pyproject.toml" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$build/python" >/dev/null
fi
