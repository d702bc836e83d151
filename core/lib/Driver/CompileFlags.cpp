//===- CompileFlags.cpp - The flags that configure a compilation ----------===//

#include "polyblocks/Driver/CompileFlags.h"

#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
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
    "o",       "header",   "compile-to",  "emit",     "dump-stages",
    "depfile", "function", "input",       "output",   "seed",
    "atol",    "rtol",     "repetitions", "interface"};

using Kind = FlagInfo::Kind;

static const FlagInfo kFlags[] = {
    {"target", Kind::String,
     "code generation target: cpu, nvgpu or amdgpu (default: cpu)", nullptr,
     nullptr, &CompileFlags::target},
    {"cpu", Kind::String,
     "CPU to generate code for, as LLVM names it (e.g. x86-64-v3, "
     "skylake-avx512), or 'host' (default: host)",
     nullptr, nullptr, &CompileFlags::cpu},
    {"chip", Kind::String,
     "GPU to generate code for: sm_70 ... sm_90a for nvgpu (default: "
     "sm_80), gfx90a, gfx942 or gfx1100 for amdgpu (default: gfx90a)",
     nullptr, nullptr, &CompileFlags::chip},
    {"cpu-features", Kind::String,
     "LLVM target features, e.g. '+avx2,+fma' (default: those of the CPU)",
     nullptr, nullptr, &CompileFlags::cpuFeatures},
    {"triple", Kind::String, "target triple (default: the host's)", nullptr,
     nullptr, &CompileFlags::triple, /*emitOnly=*/true},
    {"no-parallel", Kind::Bool,
     "do not run loops on several cores (no OpenMP runtime needed)",
     &CompileFlags::noParallel},
    {"drop-assertions", Kind::Bool,
     "erase the program's run-time checks (cf.assert, e.g. index bounds) "
     "instead of returning status 8 when one fails",
     &CompileFlags::dropAssertions},
    {"no-winograd", Kind::Bool,
     "compute 3x3 convolutions directly, not by Winograd's F(m x m, 3 x 3) "
     "(fewer multiplications, a different rounding)",
     &CompileFlags::noWinograd},
    {"verify-each", Kind::Bool,
     "check the IR after every pass, not once after each stage (names the "
     "pass that broke it; compiles more slowly)",
     &CompileFlags::verifyEach},
    {"emulate-gpu", Kind::Bool,
     "for testing a GPU target without a GPU: run each kernel's blocks and "
     "threads as loops on the CPU instead of making device code",
     &CompileFlags::emulateGPU},
    {"vector-bits", Kind::Unsigned,
     "width of the vector registers the models plan for, in bits (default: "
     "0, the CPU's)",
     nullptr, &CompileFlags::vectorBits},
    {"vector-registers", Kind::Unsigned,
     "number of vector registers the models plan for (default: 0, the "
     "CPU's)",
     nullptr, &CompileFlags::vectorRegisters},
    {"l1-cache-kib", Kind::Unsigned,
     "size of one core's L1 data cache for the tiling models, in KiB "
     "(default: 0, the host's for --cpu=host, else 32)",
     nullptr, &CompileFlags::l1CacheKiB},
    {"l2-cache-kib", Kind::Unsigned,
     "size of one core's L2 cache for the tiling and fusion models, in KiB "
     "(default: 0, the host's for --cpu=host, else 512)",
     nullptr, &CompileFlags::l2CacheKiB},
    {"l3-cache-kib", Kind::Unsigned,
     "size of the last-level cache the cores share, in KiB, for the batch "
     "tiling model (default: 0, the host's for --cpu=host, else 8192)",
     nullptr, &CompileFlags::l3CacheKiB},
    {"threads", Kind::Unsigned,
     "threads the parallel loops are planned for (default: 0, the host's "
     "for --cpu=host, else 8)",
     nullptr, &CompileFlags::threads},
    {"codegen-threads", Kind::Unsigned,
     "threads that optimize and compile a program's code, each a part of it "
     "(default: 0, the host's cores for a large program; 1: one piece)",
     nullptr, &CompileFlags::codegenThreads, nullptr, /*emitOnly=*/true},
    {"fuse", Kind::Bool,
     "experimental: upstream sibling fusion of loop nests (known to "
     "miscompile some programs)",
     &CompileFlags::fuse},
    {"tile-cache-size-kib", Kind::Unsigned,
     "experimental: tile nests for a cache of this size with upstream "
     "affine-loop-tile, in KiB (default: 0, no tiling)",
     nullptr, &CompileFlags::tileCacheSizeKiB},
    {"experimental-s3-passes", Kind::String,
     "experimental: a textual pipeline of func.func passes appended to S3 "
     "(e.g. 'affine-loop-unroll-jam{unroll-jam-factor=4}')",
     nullptr, nullptr, &CompileFlags::extraS3Passes, /*emitOnly=*/false,
     /*hidden=*/true},
};

ArrayRef<FlagInfo> getCompileFlagTable() { return kFlags; }

static const FlagInfo *lookupFlag(StringRef name) {
  for (const FlagInfo &info : kFlags)
    if (info.name == name)
      return &info;
  return nullptr;
}

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

llvm::Error setFlag(const FlagInfo &info, StringRef value,
                    CompileFlags &flags) {
  switch (info.kind) {
  case Kind::Bool: {
    std::optional<bool> on = parseBool(value);
    if (!on)
      return makeFlagError("bad value '" + value + "' for --" + info.name +
                           " (expected true or false)");
    flags.*info.boolField = *on;
    return llvm::Error::success();
  }
  case Kind::Unsigned:
    if (value.getAsInteger(0, flags.*info.unsignedField))
      return makeFlagError("bad value '" + value + "' for --" + info.name +
                           (info.name.ends_with("-kib")
                                ? " (expected a size in KiB)"
                                : " (expected a non-negative integer)"));
    return llvm::Error::success();
  case Kind::String:
    flags.*info.stringField = value.str();
    return llvm::Error::success();
  }
  llvm_unreachable("unknown flag kind");
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
    const FlagInfo *info = lookupFlag(name);
    bool other = llvm::is_contained(kOtherValueFlags, name);
    if (!info && !other)
      return makeFlagError("unknown pbtool flag '" + arg + "'");
    // Boolean flags never take the next argument.
    if (info && info->kind == Kind::Bool) {
      if (llvm::Error err = setFlag(*info, value.value_or("true"), flags))
        return err;
      continue;
    }
    if (!value) {
      if (i + 1 == args.size())
        return makeFlagError("missing value for --" + name);
      value = args[++i];
    }
    if (info)
      if (llvm::Error err = setFlag(*info, *value, flags))
        return err;
  }
  return llvm::Error::success();
}

llvm::Expected<PipelineOptions>
resolvePipelineOptions(const CompileFlags &flags, bool forTextualPipeline) {
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
    // Without a device binary to make (--emulate-gpu, a textual pipeline
    // that may stop before S5), no toolkit is needed.
    if (!toolkit && (flags.emulateGPU || forTextualPipeline))
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
  options.winograd = !flags.noWinograd;
  options.verifyEachPass = flags.verifyEach;
  options.codegenThreads = flags.codegenThreads;
  options.fuse = flags.fuse;
  options.tileCacheSizeKiB = flags.tileCacheSizeKiB;
  options.extraS3Passes = flags.extraS3Passes;
  if (!flags.extraS3Passes.empty()) {
    // The textual pipeline names passes from the global registry.
    static std::once_flag registered;
    std::call_once(registered, [] {
      mlir::registerAllPasses();
      polyblocks::registerPolyBlocksPasses();
    });
    OpPassManager probe("func.func");
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(parsePassPipeline(flags.extraS3Passes, probe, errorStream)))
      return makeFlagError("bad --experimental-s3-passes: " + error);
  }
  // An unknown CPU or triple is found here, before any work. (A textual
  // pipeline without a CPU plans for the model's defaults.)
  if (!forTextualPipeline || !flags.cpu.empty()) {
    auto tm = createCPUTargetMachine(options.getCPUTarget());
    if (!tm)
      return tm.takeError();
    options.cpuModel = getCPUModel(**tm, /*host=*/options.cpu == "host");
  }
  // The overrides of the machine model.
  CPUModel &cpu = options.cpuModel;
  for (auto [value, field] :
       {std::pair{flags.vectorBits, &cpu.vectorBits},
        std::pair{flags.vectorRegisters, &cpu.numVectorRegisters},
        std::pair{flags.l1CacheKiB, &cpu.l1CacheKiB},
        std::pair{flags.l2CacheKiB, &cpu.l2CacheKiB},
        std::pair{flags.l3CacheKiB, &cpu.l3CacheKiB},
        std::pair{flags.threads, &cpu.numThreads}})
    if (value != 0)
      *field = value;
  return options;
}

//===----------------------------------------------------------------------===//
// Textual pipelines
//===----------------------------------------------------------------------===//

namespace {
/// The options of the textual stage pipelines: the flags of the table.
struct StagePipelineOptions
    : public mlir::PassPipelineOptions<StagePipelineOptions> {
  StagePipelineOptions() {
    CompileFlags defaults;
    // Textual pipelines plan for the model's defaults unless given a CPU.
    defaults.cpu = "";
    for (const FlagInfo &info : kFlags) {
      llvm::cl::desc help(info.help);
      switch (info.kind) {
      case Kind::Bool:
        boolOptions.push_back(std::make_unique<Option<bool>>(
            *this, info.name, help, llvm::cl::init(defaults.*info.boolField)));
        break;
      case Kind::Unsigned:
        unsignedOptions.push_back(std::make_unique<Option<unsigned>>(
            *this, info.name, help,
            llvm::cl::init(defaults.*info.unsignedField)));
        break;
      case Kind::String:
        stringOptions.push_back(std::make_unique<Option<std::string>>(
            *this, info.name, help,
            llvm::cl::init(defaults.*info.stringField)));
        break;
      }
    }
  }

  /// The options' values as CompileFlags.
  CompileFlags getFlags() const {
    CompileFlags flags;
    size_t b = 0, u = 0, t = 0;
    for (const FlagInfo &info : kFlags) {
      switch (info.kind) {
      case Kind::Bool:
        flags.*info.boolField = *boolOptions[b++];
        break;
      case Kind::Unsigned:
        flags.*info.unsignedField = *unsignedOptions[u++];
        break;
      case Kind::String:
        flags.*info.stringField = *stringOptions[t++];
        break;
      }
    }
    return flags;
  }

  std::vector<std::unique_ptr<Option<bool>>> boolOptions;
  std::vector<std::unique_ptr<Option<unsigned>>> unsignedOptions;
  std::vector<std::unique_ptr<Option<std::string>>> stringOptions;
};
} // namespace

/// Registers `name`, whose passes `build` adds for the resolved options.
static void registerTextualPipeline(
    StringRef name, StringRef description,
    std::function<void(OpPassManager &, const PipelineOptions &)> build) {
  mlir::registerPassPipeline(
      name, description,
      [build, name](OpPassManager &pm, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        StagePipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        llvm::Expected<PipelineOptions> resolved = resolvePipelineOptions(
            options.getFlags(), /*forTextualPipeline=*/true);
        if (!resolved)
          return errorHandler(name + ": " +
                              llvm::toString(resolved.takeError()));
        build(pm, *resolved);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> print) {
        print(StagePipelineOptions());
      });
}

void registerStagePipelines() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    for (const StageInfo &info : getStageTable()) {
      Stage stage = info.stage;
      registerTextualPipeline(
          info.pipelineName, info.description,
          [stage](OpPassManager &pm, const PipelineOptions &options) {
            buildStagePipeline(pm, stage, options);
          });
    }
    registerTextualPipeline(
        "pb-reference-pipeline",
        "the unoptimized reference lowering: S1, linalg to scf loops, LLVM",
        buildReferencePipeline);
  });
}

} // namespace polyblocks
