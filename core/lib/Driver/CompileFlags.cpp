//===- CompileFlags.cpp - The flags that configure a compilation ----------===//

#include "polyblocks/Driver/CompileFlags.h"

#include "polyblocks/InitAll.h"
#include "polyblocks/Target/CPUTarget.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>

#include <mutex>

using namespace mlir;

namespace polyblocks {

/// pbtool's flags that take a value but do not configure the pipeline.
static constexpr llvm::StringLiteral kOtherValueFlags[] = {
    "o",       "header",   "compile-to", "emit",   "dump-stages",
    "depfile", "function", "input",      "output", "seed",
    "atol",    "rtol",     "repetitions"};

static llvm::Error makeFlagError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Parses a boolean flag value as llvm::cl does.
static std::optional<bool> parseBool(StringRef value) {
  if (value == "true" || value == "TRUE" || value == "True" || value == "1")
    return true;
  if (value == "false" || value == "FALSE" || value == "False" || value == "0")
    return false;
  return std::nullopt;
}

/// The CUDA toolkit for ptxas, fatbinary and libdevice: $CUDA_PATH,
/// $CUDA_HOME, then /usr/local/cuda; empty when there is none (ptxas is then
/// looked up on PATH). A toolkit named by a variable must exist.
static llvm::Expected<std::string> findCUDAToolkit() {
  for (const char *var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *dir = std::getenv(var); dir && *dir) {
      if (!llvm::sys::fs::is_directory(dir))
        return makeFlagError(Twine("the CUDA toolkit '") + dir + "' (from $" +
                             var + ") is not a directory");
      return std::string(dir);
    }
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda");
  return std::string();
}

/// True if `dir` holds llvm/bin/ld.lld, the linker that makes HSACO.
static bool hasROCmLinker(StringRef dir) {
  SmallString<256> lld(dir);
  llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
  return llvm::sys::fs::can_execute(lld);
}

/// The ROCm folder whose llvm/bin/ld.lld links AMD code objects: $ROCM_PATH
/// (which must hold it), /opt/rocm, then the one PolyBlocks installs beside
/// its tools (lib/polyblocks/rocm, linking LLVM's own ld.lld). ROCm
/// itself is not needed: the kernels call no device library.
static llvm::Expected<std::string> findROCmLinker() {
  if (const char *dir = std::getenv("ROCM_PATH"); dir && *dir) {
    if (!hasROCmLinker(dir))
      return makeFlagError(Twine("the ROCm folder '") + dir +
                           "' (from $ROCM_PATH) has no llvm/bin/ld.lld");
    return std::string(dir);
  }
  if (hasROCmLinker("/opt/rocm"))
    return std::string("/opt/rocm");
  // <prefix>/bin/pbtool -> <prefix>/lib/polyblocks/rocm
  static int anchor;
  SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(
          llvm::sys::fs::getMainExecutable(nullptr, &anchor))));
  llvm::sys::path::append(dir, "lib", "polyblocks", "rocm");
  if (hasROCmLinker(dir))
    return dir.str().str();
  return makeFlagError("no linker for AMD code objects: set $ROCM_PATH to a "
                       "ROCm installation, or install PolyBlocks with lld "
                       "(ld.lld) available");
}

llvm::Error parseCompileFlags(ArrayRef<std::string> args, CompileFlags &flags) {
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg == "--") // Everything after it is positional.
      break;
    if (!arg.starts_with("-") || arg == "-") // The command or an input.
      continue;
    StringRef name = arg.drop_front(arg.starts_with("--") ? 2 : 1);
    std::optional<StringRef> value;
    if (size_t eq = name.find('='); eq != StringRef::npos) {
      value = name.drop_front(eq + 1);
      name = name.take_front(eq);
    }

    // Boolean flags never take the next argument.
    if (name == flag::kNoParallel || name == flag::kFuse ||
        name == flag::kEmulateGPU || name == flag::kDropAssertions) {
      std::optional<bool> on = value ? parseBool(*value) : true;
      if (!on)
        return makeFlagError("bad value '" + *value + "' for --" + name +
                             " (expected true or false)");
      (name == flag::kNoParallel       ? flags.noParallel
       : name == flag::kFuse           ? flags.fuse
       : name == flag::kDropAssertions ? flags.dropAssertions
                                       : flags.emulateGPU) = *on;
      continue;
    }

    bool known = llvm::is_contained(
        std::initializer_list<StringRef>{
            flag::kTarget, flag::kCPU, flag::kChip, flag::kCPUFeatures,
            flag::kTriple, flag::kTileCacheSizeKiB, flag::kL2CacheKiB,
            flag::kExperimentalS3Passes},
        name);
    bool other = llvm::is_contained(kOtherValueFlags, name);
    if (!known && !other)
      return makeFlagError("unknown pbtool flag '" + arg + "'");
    if (!value) {
      if (i + 1 == args.size())
        return makeFlagError("missing value for --" + name);
      value = args[++i];
    }
    if (other)
      continue;
    if (name == flag::kTarget)
      flags.target = value->str();
    else if (name == flag::kCPU)
      flags.cpu = value->str();
    else if (name == flag::kChip)
      flags.chip = value->str();
    else if (name == flag::kCPUFeatures)
      flags.cpuFeatures = value->str();
    else if (name == flag::kTriple)
      flags.triple = value->str();
    else if (name == flag::kExperimentalS3Passes)
      flags.extraS3Passes = value->str();
    else if (value->getAsInteger(0, name == flag::kL2CacheKiB
                                        ? flags.l2CacheKiB
                                        : flags.tileCacheSizeKiB))
      return makeFlagError("bad value '" + *value + "' for --" + name +
                           " (expected a size in KiB)");
  }
  return llvm::Error::success();
}

llvm::Expected<PipelineOptions>
resolvePipelineOptions(const CompileFlags &flags) {
  PipelineOptions options;
  std::optional<TargetKind> target = parseTargetKind(flags.target);
  if (!target)
    return makeFlagError("unknown target '" + flags.target +
                         "' (known targets: cpu, nvgpu, amdgpu)");
  options.target = *target;
  if (isGPUTarget(*target) && !flags.chip.empty() &&
      !lookupGPUChip(*target, flags.chip))
    return makeFlagError("unknown chip '" + flags.chip + "' for target " +
                         flags.target + " (known: " + getGPUChipList(*target) +
                         ")");
  if (isGPUTarget(*target)) {
    options.chip =
        flags.chip.empty() ? getDefaultChip(*target).str() : flags.chip;
    bool nvidia = *target == TargetKind::NVGPU;
    llvm::Expected<std::string> toolkit =
        nvidia ? findCUDAToolkit() : findROCmLinker();
    // Without a device binary to make (--emulate-gpu), no toolkit is needed.
    if (!toolkit && flags.emulateGPU)
      llvm::consumeError(toolkit.takeError());
    else if (!toolkit)
      return toolkit.takeError();
    else
      options.gpuToolkitPath = *toolkit;
    options.gpuBinaryFormat = nvidia ? "fatbin" : "bin";
    options.emulateGPU = flags.emulateGPU;
  } else if (!flags.chip.empty()) {
    return makeFlagError("--chip names a GPU, but the target is " +
                         flags.target + " (use --cpu for CPUs)");
  } else if (flags.emulateGPU) {
    return makeFlagError("--emulate-gpu runs a GPU target's kernels on the "
                         "CPU, but the target is " +
                         flags.target);
  }
  options.cpu = flags.cpu;
  options.cpuFeatures = flags.cpuFeatures;
  options.triple = flags.triple;
  options.parallelize = !flags.noParallel;
  options.dropAssertions = flags.dropAssertions;
  options.fuse = flags.fuse;
  options.tileCacheSizeKiB = flags.tileCacheSizeKiB;
  options.extraS3Passes = flags.extraS3Passes;
  if (!flags.extraS3Passes.empty()) {
    // The textual pipeline names passes from the global registry.
    static std::once_flag registered;
    std::call_once(registered, [] {
      mlir::registerAllPasses();
      polyblocks::registerAllPasses();
    });
    OpPassManager probe("func.func");
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(parsePassPipeline(flags.extraS3Passes, probe, errorStream)))
      return makeFlagError("bad --experimental-s3-passes: " + error);
  }
  // An unknown CPU or triple is found here, before any work.
  auto tm = createCPUTargetMachine(options);
  if (!tm)
    return tm.takeError();
  setCPUParameters(options, **tm);
  if (flags.l2CacheKiB != 0)
    options.cpuModel.l2CacheKiB = flags.l2CacheKiB;
  return options;
}

} // namespace polyblocks
