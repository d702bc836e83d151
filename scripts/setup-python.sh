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
fresh=0
if [ ! -x "$venv/bin/python" ]; then
  echo "creating the Python environment $venv"
  fresh=1
  # The frameworks take about 6.5 GB (torch's Linux wheel brings its CUDA
  # libraries).
  free_mb=$(df --output=avail -B1M "$(dirname "$venv")" | tail -1)
  if [ "$free_mb" -lt 7000 ]; then
    echo "warning: $free_mb MB free beside $venv; the frameworks take" \
      "about 6500 MB" >&2
  fi
  "$python" -m venv "$venv"
fi
# pip keeps no cache of the wheels (gigabytes that are never read again
# here) and unpacks them beside the environment, on its file system rather
# than in a /tmp that may be smaller.
mkdir -p "$venv/pip-tmp"
export TMPDIR="$venv/pip-tmp" PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A new environment takes its packages one at a time, as the resolver plans
# them: pip keeps every wheel it downloads until its command ends (in one
# command for all, 3 GB more than the environment itself at the end).
if ((fresh)); then
  "$venv/bin/pip" install -q --dry-run --report "$TMPDIR/plan.json" \
    -r python/test-requirements.txt
  "$venv/bin/python" -c '
import json, sys
for item in json.load(open(sys.argv[1]))["install"]:
    print("%s==%s" % (item["metadata"]["name"], item["metadata"]["version"]))
' "$TMPDIR/plan.json" >"$TMPDIR/plan.txt"
  while read -r spec; do
    "$venv/bin/pip" install -q --no-deps "$spec"
  done <"$TMPDIR/plan.txt"
fi
# Prints nothing when every requirement is satisfied already.
"$venv/bin/pip" install -q -r python/test-requirements.txt
if [ -f "$build/python/pyproject.toml" ]; then
  "$venv/bin/pip" install -q --no-deps -e "$build/python" >/dev/null
fi
rm -rf "$TMPDIR"
