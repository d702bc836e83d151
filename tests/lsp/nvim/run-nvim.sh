#!/usr/bin/env bash
# Runs headless Neovim for tests/lsp/neovim.test, with a time limit, or says
# why it cannot.
if ! command -v nvim >/dev/null 2>&1; then
  echo "error: Neovim (nvim) is not installed; scripts/setup.sh installs it" \
       "(Debian package neovim)" >&2
  exit 1
fi
exec timeout 300 nvim "$@"
