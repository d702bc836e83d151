"""Checks that the Neovim configuration README.md shows is the one the
Neovim test runs: the first ```lua block after the "### Neovim" heading
must equal the given file."""
import sys

readme, config = sys.argv[1], sys.argv[2]
with open(readme, encoding="utf-8") as f:
    text = f.read()
section = text.split("\n### Neovim\n", 1)
if len(section) != 2:
    sys.exit("README.md has no '### Neovim' section")
block = section[1].split("```lua\n", 1)
if len(block) != 2:
    sys.exit("README.md's Neovim section has no ```lua block")
shown = block[1].split("```", 1)[0]
with open(config, encoding="utf-8") as f:
    tested = f.read()
if shown != tested:
    sys.exit("README.md's Neovim configuration differs from " + config)
print("README.md shows " + config)
