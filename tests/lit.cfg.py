# lit configuration for the PolyBlocks tests: per-pass and per-stage
# FileCheck tests, pbtool command-line tests, the end-to-end numerical
# corpus, the C/C++ interface tests and the language server's protocol and
# editor tests.
import os
import sys

import lit.formats

config.name = "PolyBlocks"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".c", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pb_binary_dir, "tests")
# Folders holding inputs of other tests, not tests themselves.
config.excludes = ["Inputs", "unit", "downstream", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py.in", "nvim"]

config.environment["PATH"] = os.pathsep.join(
    [config.pb_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Keep the numerical tests deterministic and light on this machine's cores.
config.environment["OMP_NUM_THREADS"] = "2"

config.substitutions.append(("%pbtool", os.path.join(config.pb_tools_dir, "pbtool")))
config.substitutions.append(("%pb-opt", os.path.join(config.pb_tools_dir, "pb-opt")))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%libomp", config.libomp))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%pb-lsp", os.path.join(config.pb_tools_dir, "pb-lsp")))
config.substitutions.append(("%pb-binary-dir", config.pb_binary_dir))
config.substitutions.append(("%pb-source-dir", config.pb_source_dir))
config.substitutions.append(("%python", sys.executable))
# The scripted LSP client of the protocol tests (tests/lsp/lsp-client.py).
config.substitutions.append(
    ("%lsp-client", sys.executable + " " +
     os.path.join(config.test_source_root, "lsp", "lsp-client.py")))

# The examples' kernels are in the build tree's compile database.
if config.pb_build_examples.upper() in ("ON", "1", "YES", "TRUE"):
    config.available_features.add("examples")
