#!/usr/bin/env bash
# Checks that every C and C++ source of the project is formatted as
# .clang-format says (clang-format of the LLVM 22 toolchain). Lit tests
# written in C (files holding RUN: lines) are left as written: reflowing
# their comments would break their RUN and CHECK lines.
#   check-format.sh          list the files that differ (exit 1 if any)
#   check-format.sh --fix    reformat them in place
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=/usr/lib/llvm-22/bin/clang-format
fix=0
[ "${1:-}" = "--fix" ] && fix=1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.c' '*.cpp' '*.h')
else
  files=$(find . -path ./build -prune -o -path './build-*' -prune -o -path ./.venv -prune -o \
    \( -name '*.c' -o -name '*.cpp' -o -name '*.h' \) -print | sed 's|^\./||')
fi
bad=()
for f in $files; do
  grep -q 'RUN:' "$f" && continue
  if ((fix)); then
    "$clang_format" -i "$f"
  elif ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if ((${#bad[@]})); then
  printf 'not formatted (scripts/check-format.sh --fix):\n'
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
