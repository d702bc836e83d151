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

# Tests that run code built for x86-64-v4 (AVX-512) need a host that has it;
# elsewhere they check the compiled code only.
def host_cpu_flags():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


if {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"} <= host_cpu_flags():
    config.available_features.add("host-x86-64-v4")

# The examples' kernels are in the build tree's compile database.
if config.pb_build_examples.upper() in ("ON", "1", "YES", "TRUE"):
    config.available_features.add("examples")

# GPU targets. Compiling for nvgpu needs only LLVM; turning PTX into a cubin
# needs ptxas from a CUDA toolkit; running kernels needs the CUDA driver and
# a GPU. Tests say which they need, and the reason a kind is skipped is
# printed.
import ctypes
import shutil

config.substitutions.append(("%pb-runtime-include",
                             os.path.join(config.pb_source_dir, "runtime", "include")))
config.substitutions.append(("%pb-runtime-lib",
                             os.path.join(config.pb_binary_dir, "lib")))


def find_cuda_file(*relative):
    roots = [os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"),
             "/usr/local/cuda"]
    for root in roots:
        if root and os.path.exists(os.path.join(root, *relative)):
            return os.path.join(root, *relative)
    return None


if find_cuda_file("bin", "ptxas") or shutil.which("ptxas"):
    config.available_features.add("ptxas")
else:
    lit_config.note("tests needing ptxas are skipped: no CUDA toolkit "
                    "($CUDA_PATH, $CUDA_HOME, /usr/local/cuda) and no ptxas on PATH")

cuda_stub = find_cuda_file("lib64", "stubs", "libcuda.so") or \
    find_cuda_file("lib", "stubs", "libcuda.so")
if cuda_stub:
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda-stub", cuda_stub))


def probe_cuda_gpu():
    """Returns None when a CUDA GPU can run kernels, else the reason."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return "the CUDA driver does not load (%s)" % e
    if cuda.cuInit(0) != 0:
        return "cuInit failed (no usable GPU)"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return "the CUDA driver sees no GPU"
    return None


gpu_missing = probe_cuda_gpu()
if gpu_missing is None:
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("GPU execution tests are skipped: " + gpu_missing)


# AMD GPUs: the HIP runtime is loaded at run time like the CUDA driver.
def load_hip_runtime():
    """Returns (library, None) when the HIP runtime loads, else (None, why)."""
    error = None
    for name in ("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"):
        try:
            return ctypes.CDLL(name), None
        except OSError as e:
            error = e
    return None, "the HIP runtime (libamdhip64) does not load (%s)" % error


def find_amd_chip():
    """The chip (gfx90a, gfx942, ...) of the first AMD GPU the kernel driver
    lists, from its topology (gfx_target_version 90010 is gfx90a)."""
    import glob
    for properties in sorted(glob.glob("/sys/class/kfd/kfd/topology/nodes/*/properties")):
        with open(properties) as f:
            for line in f:
                key, _, value = line.partition(" ")
                if key == "gfx_target_version" and int(value) != 0:
                    v = int(value)
                    return "gfx%d%d%x" % (v // 10000, v // 100 % 100, v % 100)
    return None


def probe_amd_gpu(hip):
    """Returns (chip, None) when an AMD GPU can run kernels, else (None, why)."""
    if hip.hipInit(0) != 0:
        return None, "hipInit failed (no usable AMD GPU)"
    count = ctypes.c_int(0)
    if hip.hipGetDeviceCount(ctypes.byref(count)) != 0 or count.value == 0:
        return None, "the HIP runtime sees no GPU"
    chip = find_amd_chip()
    if chip is None:
        return None, "the GPU's chip is not in /sys/class/kfd"
    return chip, None


hip, hip_missing = load_hip_runtime()
if hip is not None:
    config.available_features.add("hip-runtime")
    amd_chip, hip_missing = probe_amd_gpu(hip)
if hip_missing is None:
    config.available_features.add("amd-gpu")
    config.substitutions.append(("%amd-chip", amd_chip))
else:
    lit_config.note("AMD GPU execution tests are skipped: " + hip_missing)
