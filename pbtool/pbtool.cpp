//===- pbtool.cpp - The PolyBlocks command-line driver --------------------===//
//
//   pbtool compile     IN.mlir -o OUT.o --header OUT.h   (or any stage's IR)
//   pbtool run         IN.mlir --function=F --input=a.npy --output=o.npy
//   pbtool crosscheck  IN.mlir   (optimized vs reference on random inputs)
//   pbtool bench       IN.mlir --function=F
//
// Exit codes: 0 success; 1 the program, an input or an output could not be
// processed (a diagnostic says why); 2 bad command line; 3 crosscheck found
// differing results.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "polyblocks/Driver/CompileFlags.h"
#include "polyblocks/Driver/Explain.h"
#include "polyblocks/Driver/OpKernels.h"
#include "polyblocks/Driver/Outputs.h"
#include "polyblocks/Driver/SharedLibrary.h"
#include "polyblocks/Execution/HostTensor.h"
#include "polyblocks/Execution/JitModule.h"
#include "polyblocks/InitAll.h"
#include "polyblocks/Interface/KernelInterface.h"
#include "polyblocks/Pipelines/Pipelines.h"
#include "polyblocks/Support/Version.h"
#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Target/GPUTarget.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace polyblocks;
using namespace pbtool;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

static cl::OptionCategory pbCategory("pbtool options");

static cl::SubCommand
    compileCmd("compile",
               "Compile a tensor program into an object file and C header, "
               "or into the IR of any stage");
static cl::SubCommand
    runCmd("run",
           "Compile a tensor program and run one function (on the GPU for "
           "a GPU target)");
static cl::SubCommand
    crosscheckCmd("crosscheck",
                  "Run every public function through the optimizing pipeline "
                  "and the unoptimized reference lowering on the same random "
                  "inputs and compare the results");
static cl::SubCommand
    benchCmd("bench",
             "Compile a tensor program and time one function on random "
             "inputs");

// Options every command takes.
static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input.mlir>"), cl::Required,
                  cl::sub(compileCmd), cl::sub(runCmd), cl::sub(crosscheckCmd),
                  cl::sub(benchCmd), cl::cat(pbCategory));
// The pipeline flags (--target, --cpu, --no-parallel, ...), made from their
// one declaration (Driver/CompileFlags.h) before the command line is read.
namespace {
struct PipelineFlag {
  const FlagInfo *info;
  std::unique_ptr<cl::Option> option;
};
} // namespace

/// A cl::opt for `info`, in every command or only in compile (emitOnly).
template <typename T>
static std::unique_ptr<cl::Option> makeFlag(const FlagInfo &info, T init) {
  auto hidden = info.hidden ? cl::Hidden : cl::NotHidden;
  if (info.emitOnly)
    return std::make_unique<cl::opt<T>>(
        StringRef(info.name), cl::desc(info.help), cl::init(init),
        cl::sub(compileCmd), cl::cat(pbCategory), hidden);
  return std::make_unique<cl::opt<T>>(
      StringRef(info.name), cl::desc(info.help), cl::init(init),
      cl::sub(compileCmd), cl::sub(runCmd), cl::sub(crosscheckCmd),
      cl::sub(benchCmd), cl::cat(pbCategory), hidden);
}

static std::vector<PipelineFlag> &getPipelineFlags() {
  static std::vector<PipelineFlag> flags = [] {
    std::vector<PipelineFlag> result;
    CompileFlags defaults;
    for (const FlagInfo &info : getCompileFlagTable()) {
      std::unique_ptr<cl::Option> option;
      switch (info.kind) {
      case FlagInfo::Kind::Bool:
        option = makeFlag<bool>(info, defaults.*info.boolField);
        break;
      case FlagInfo::Kind::Unsigned:
        option = makeFlag<unsigned>(info, defaults.*info.unsignedField);
        break;
      case FlagInfo::Kind::String:
        option = makeFlag<std::string>(info, defaults.*info.stringField);
        break;
      }
      result.push_back({&info, std::move(option)});
    }
    return result;
  }();
  return flags;
}

/// The values of the pipeline flags on the command line.
static CompileFlags getCompileFlags() {
  CompileFlags flags;
  for (const PipelineFlag &flag : getPipelineFlags()) {
    const FlagInfo &info = *flag.info;
    switch (info.kind) {
    case FlagInfo::Kind::Bool:
      flags.*info.boolField = *static_cast<cl::opt<bool> *>(flag.option.get());
      break;
    case FlagInfo::Kind::Unsigned:
      flags.*info.unsignedField =
          *static_cast<cl::opt<unsigned> *>(flag.option.get());
      break;
    case FlagInfo::Kind::String:
      flags.*info.stringField =
          *static_cast<cl::opt<std::string> *>(flag.option.get());
      break;
    }
  }
  return flags;
}

// compile
static cl::opt<std::string>
    outputFilename("o",
                   cl::desc("output file (default: <input>.o for objects, "
                            "standard output for text)"),
                   cl::value_desc("path"), cl::sub(compileCmd),
                   cl::cat(pbCategory));
static cl::opt<std::string> headerFilename(
    "header", cl::desc("also write the C header declaring the entry points"),
    cl::value_desc("path"), cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<std::string> interfaceFilename(
    "interface",
    cl::desc("also write the entry points' interface (names, element types, "
             "shapes) as JSON, for loaders of the output"),
    cl::value_desc("path"), cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<bool> explain(
    "explain",
    cl::desc("print, as remarks at their source locations, why each loop "
             "nest got its tiles, fusion and threads (the decisions of S3)"),
    cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<bool> timing(
    "timing",
    cl::desc("print on standard error how long each step of the compilation "
             "took: parsing, each stage's passes, the translation to LLVM IR, "
             "its optimization and the code generation; and the peak "
             "resident memory"),
    cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<std::string> compileTo(
    "compile-to",
    cl::desc("stop after a stage and write its IR: s1 (bufferize), s2 "
             "(affine), s3 (optimize), s4 (map), s5 (llvm dialect)"),
    cl::value_desc("stage"), cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<std::string>
    emitKind("emit",
             cl::desc("what to write: obj (default), shared (a "
                      "shared library of the entry points, for "
                      "loading at run time), asm, llvm (LLVM IR of "
                      "the host code); the device code: ptx or "
                      "cubin for nvgpu, hsaco or amdgcn (its "
                      "assembly) for amdgpu"),
             cl::init("obj"), cl::sub(compileCmd), cl::cat(pbCategory));
static cl::opt<std::string>
    dumpStagesDir("dump-stages",
                  cl::desc("write the IR after every stage into DIR as "
                           "<name>.<N>.<stage>.mlir"),
                  cl::value_desc("DIR"), cl::sub(compileCmd),
                  cl::cat(pbCategory));
static cl::opt<std::string> depfileName(
    "depfile",
    cl::desc("write a Makefile-syntax dependency file for the output"),
    cl::value_desc("path"), cl::sub(compileCmd), cl::cat(pbCategory));

// run / bench / crosscheck
static cl::opt<std::string>
    functionName("function",
                 cl::desc("function to run (default: the only public one)"),
                 cl::sub(runCmd), cl::sub(benchCmd), cl::sub(crosscheckCmd),
                 cl::cat(pbCategory));
static cl::list<std::string> inputs(
    "input",
    cl::desc("an argument: a .npy file, or a literal like '2x2xf32=1 2 3 4' "
             "(one value fills every element); once per argument, in order"),
    cl::sub(runCmd), cl::cat(pbCategory));
static cl::list<std::string> outputs(
    "output",
    cl::desc("a .npy file to write a result into; once per result, in order "
             "(default: print the results)"),
    cl::sub(runCmd), cl::cat(pbCategory));
static cl::opt<unsigned> seed("seed", cl::desc("random seed (default: 1)"),
                              cl::init(1), cl::sub(crosscheckCmd),
                              cl::sub(benchCmd), cl::cat(pbCategory));
static cl::opt<double>
    atolOpt("atol", cl::desc("absolute tolerance (default: by element type)"),
            cl::init(-1), cl::sub(crosscheckCmd), cl::cat(pbCategory));
static cl::opt<double>
    rtolOpt("rtol",
            cl::desc("relative tolerance, of the larger of an element's and "
                     "the result's largest magnitude (default: by element "
                     "type)"),
            cl::init(-1), cl::sub(crosscheckCmd), cl::cat(pbCategory));
static cl::opt<bool> perOp(
    "per-op",
    cl::desc("time each op of the function alone (compiled as its own "
             "function, not fused with its neighbours) and list the ops by "
             "time"),
    cl::sub(benchCmd), cl::cat(pbCategory));
static cl::opt<unsigned> repetitions("repetitions",
                                     cl::desc("timed calls (default: 20)"),
                                     cl::init(20), cl::sub(benchCmd),
                                     cl::cat(pbCategory));

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Binds the flags to pipeline options; fails (usage error) on a bad target,
/// S3 pass pipeline, triple or CPU.
static std::optional<PipelineOptions> getPipelineOptions() {
  llvm::Expected<PipelineOptions> options =
      resolvePipelineOptions(getCompileFlags());
  if (!options) {
    reportError(options.takeError());
    return std::nullopt;
  }
  return *options;
}

/// Picks the function named by --function, or the only public one.
static const KernelSignature *selectFunction(const Program &program) {
  if (!functionName.empty()) {
    if (const KernelSignature *sig = program.lookup(functionName))
      return sig;
    std::string names;
    for (const KernelSignature &sig : program.signatures)
      names += (names.empty() ? "@" : ", @") + sig.name;
    reportError("no public function @" + functionName + " in '" +
                inputFilename + "' (it has " + names + ")");
    return nullptr;
  }
  if (program.signatures.size() == 1)
    return &program.signatures.front();
  reportError("'" + inputFilename +
              "' has several public functions: choose one with --function");
  return nullptr;
}

/// Lowers `module` through S1-S5 and JIT-compiles it.
static std::unique_ptr<JitModule> compileForJit(ModuleOp module,
                                                const PipelineOptions &options,
                                                bool reference = false) {
  LogicalResult lowered = reference ? runReferencePipeline(module, options)
                                    : runStages(module, Stage::S5, options);
  if (failed(lowered))
    return nullptr;
  auto jit = JitModule::create(module, options);
  if (!jit) {
    reportError(jit.takeError());
    return nullptr;
  }
  return std::move(*jit);
}

/// Fresh zero-filled result buffers for `sig`.
static std::vector<HostTensor> makeResults(const KernelSignature &sig) {
  std::vector<HostTensor> results;
  for (const TensorParam &param : sig.results)
    results.push_back(HostTensor::forParam(param));
  return results;
}

/// True when the kernels of `options` run on a GPU (not emulated).
static bool runsOnGPU(const PipelineOptions &options) {
  return isGPUTarget(options.target) && !options.emulateGPU;
}

/// The runtime platform the kernels run on; none for the CPU (emulated GPU
/// targets included).
using GPUPlatform = std::optional<pbrtPlatform>;
static GPUPlatform getGPUPlatform(const PipelineOptions &options) {
  if (!runsOnGPU(options))
    return std::nullopt;
  return options.target == TargetKind::AMDGPU ? PBRT_PLATFORM_HIP
                                              : PBRT_PLATFORM_CUDA;
}

/// Reports a non-zero status of @name (with the runtime's reason on a GPU).
static bool checkStatus(const KernelSignature &sig, int32_t status,
                        GPUPlatform gpu) {
  if (status == 0)
    return true;
  if (status == PB_STATUS_CHECK_FAILED) {
    reportError("@" + sig.name + " returned status " + Twine(status) +
                ": a run-time check of the program failed (a cf.assert, e.g. "
                "an index out of range); its results are not valid");
    return false;
  }
  reportError("@" + sig.name + " returned status " + Twine(status) +
              (gpu ? Twine(": ") + pbrtGetLastError() : Twine()));
  return false;
}

/// Device copies of a call's arguments and results, for GPU targets.
class DeviceBuffers {
public:
  explicit DeviceBuffers(pbrtPlatform platform) : platform(platform) {}
  ~DeviceBuffers() {
    for (void *p : buffers)
      pbrtDeviceFree(platform, p);
  }
  /// Allocates a device buffer per tensor and copies the tensors in.
  int32_t upload(ArrayRef<HostTensor> args, ArrayRef<HostTensor> results) {
    for (ArrayRef<HostTensor> tensors : {args, results})
      for (const HostTensor &t : tensors) {
        void *p = nullptr;
        if (int32_t status = pbrtDeviceAlloc(platform, &p, t.getByteSize()))
          return status;
        buffers.push_back(p);
        if (int32_t status =
                pbrtCopyToDevice(platform, p, t.data(), t.getByteSize()))
          return status;
      }
    return PB_STATUS_SUCCESS;
  }
  /// Copies the results back (they follow the arguments).
  int32_t download(size_t numArgs, MutableArrayRef<HostTensor> results) {
    for (auto [i, t] : llvm::enumerate(results))
      if (int32_t status = pbrtCopyToHost(
              platform, t.data(), buffers[numArgs + i], t.getByteSize()))
        return status;
    return PB_STATUS_SUCCESS;
  }
  /// The entry point's arguments: the buffers, then the (default) stream.
  SmallVector<void *> getCallArguments() const {
    SmallVector<void *> callArgs(buffers.begin(), buffers.end());
    callArgs.push_back(nullptr);
    return callArgs;
  }

private:
  pbrtPlatform platform;
  SmallVector<void *> buffers;
};

/// Calls `sig` through `jit` with the entry point's arguments `callArgs`
/// (on the GPU, device buffers and the stream, and waits for the kernels);
/// reports a failed call or a non-zero status.
static bool invokeKernel(JitModule &jit, const KernelSignature &sig,
                         ArrayRef<void *> callArgs, GPUPlatform gpu) {
  auto status = jit.call(sig.name, callArgs);
  if (!status) {
    reportError(status.takeError());
    return false;
  }
  return checkStatus(sig, *status, gpu) &&
         (!gpu || checkStatus(sig, pbrtStreamSynchronize(*gpu, nullptr), gpu));
}

/// Calls `sig` on `args` and `results` (on the GPU: on device copies of
/// them); reports a failed call or a non-zero status.
static bool callKernel(JitModule &jit, const KernelSignature &sig,
                       MutableArrayRef<HostTensor> args,
                       MutableArrayRef<HostTensor> results,
                       GPUPlatform gpu = std::nullopt) {
  if (gpu) {
    DeviceBuffers device(*gpu);
    return checkStatus(sig, device.upload(args, results), gpu) &&
           invokeKernel(jit, sig, device.getCallArguments(), gpu) &&
           checkStatus(sig, device.download(args.size(), results), gpu);
  }
  SmallVector<void *> buffers;
  for (HostTensor &t : args)
    buffers.push_back(t.data());
  for (HostTensor &t : results)
    buffers.push_back(t.data());
  return invokeKernel(jit, sig, buffers, gpu);
}

static std::vector<HostTensor> makeRandomArgs(const KernelSignature &sig,
                                              std::mt19937_64 &rng) {
  std::vector<HostTensor> args;
  for (const TensorParam &param : sig.inputs) {
    args.push_back(HostTensor::forParam(param));
    // Indices (token ids, gather positions) stay in range.
    if (param.indexBound)
      args.back().fillRandomIndices(rng, *param.indexBound);
    else
      args.back().fillRandom(rng);
  }
  return args;
}

/// The common start of run, crosscheck and bench: binds the flags and loads
/// the input. Returns the exit code to stop with, or nullopt to go on.
static std::optional<int> startCommand(MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr,
                                       std::optional<PipelineOptions> &options,
                                       std::unique_ptr<Program> &program) {
  options = getPipelineOptions();
  if (!options)
    return kUsageError;
  program = loadProgram(inputFilename, context, sourceMgr);
  if (!program)
    return kError;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//

static std::string escapeForMake(StringRef path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#')
      out += '\\';
    if (c == '$')
      out += '$';
    out += c;
  }
  return out;
}

/// With --timing: the most memory the compilation held at once, from the
/// kernel's high-water mark of this process's resident set (VmHWM; not
/// getrusage, which counts the memory of the process that started pbtool
/// until its exec).
static void printPeakMemory(raw_ostream &os) {
  auto status = llvm::MemoryBuffer::getFileAsStream("/proc/self/status");
  if (!status)
    return;
  StringRef text = (*status)->getBuffer();
  size_t at = text.find("VmHWM:");
  if (at == StringRef::npos)
    return;
  StringRef value = text.substr(at + 6).ltrim();
  int64_t kib = 0;
  if (value.consumeInteger(10, kib))
    return;
  os << llvm::formatv("  peak resident memory: {0} MB\n", kib / 1024);
}

static int runCompile(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::optional<PipelineOptions> options = getPipelineOptions();
  if (!options)
    return kUsageError;
  // What to write: a stage's IR (--compile-to) or the code (--emit).
  std::optional<OutputKind> output;
  if (!compileTo.empty()) {
    std::optional<Stage> stage = parseStage(compileTo);
    if (!stage) {
      reportError("unknown stage '" + compileTo +
                  "' for --compile-to "
                  "(expected s1, s2, s3, s4 or s5)");
      return kUsageError;
    }
    output = getStageOutput(*stage);
  }
  if (output && emitKind.getNumOccurrences()) {
    reportError("--compile-to and --emit cannot be combined: --compile-to "
                "writes MLIR");
    return kUsageError;
  }
  if (!output) {
    llvm::Expected<OutputKind> kind =
        parseOutputKind(emitKind, *options, "--emit kind",
                        /*withStages=*/false, /*textOnly=*/false);
    if (!kind) {
      reportError(kind.takeError());
      return kUsageError;
    }
    output = *kind;
  }
  if (output->kind == OutputKind::SharedLibrary && options->emulateGPU) {
    reportError("--emit=shared links the target's code; --emulate-gpu is "
                "for crosscheck, run and bench");
    return kUsageError;
  }
  configurePipelineFor(*output, *options);

  auto tm = createCPUTargetMachine(options->getCPUTarget());
  if (!tm) {
    reportError(tm.takeError());
    return kError;
  }
  // Text goes to standard output by default; files are named after the
  // input.
  bool textToStdout = output->isText();
  if (!depfileName.empty() && outputFilename.empty() && textToStdout) {
    reportError("--depfile needs an output file (-o) to name in its rule");
    return kUsageError;
  }

  // With --timing, the report is printed when `timingManager` goes.
  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();
  TimingScope *timingScope = timing ? &rootTiming : nullptr;

  TimingScope parsing = rootTiming.nest("parse and check the program");
  std::unique_ptr<Program> program =
      loadProgram(inputFilename, context, sourceMgr);
  if (!program)
    return kError;
  parsing.stop();

  // Stage dumps are written as soon as each stage is done.
  if (!dumpStagesDir.empty()) {
    std::error_code ec = llvm::sys::fs::create_directories(dumpStagesDir);
    if (!ec && !llvm::sys::fs::is_directory(dumpStagesDir))
      ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) {
      reportError("cannot create directory '" + dumpStagesDir +
                  "': " + ec.message());
      return kError;
    }
  }
  auto afterStage = [&](const StageInfo &info, ModuleOp module) {
    // This module is the context's only IR: the constants the stage folded
    // or packed away are not needed again.
    releaseUnreferencedResources(module);
    if (explain && info.stage == Stage::S3)
      emitExplanationRemarks(module);
    if (dumpStagesDir.empty())
      return success();
    SmallString<256> path(dumpStagesDir);
    llvm::sys::path::append(
        path, getOutputFileName(inputFilename, getStageOutput(info.stage)));
    return success(writeOutputs({{path.str().str(), [&](raw_ostream &os) {
                                    module.print(os);
                                    return llvm::Error::success();
                                  }}}));
  };
  if (!headerFilename.empty() && failed(checkHeaderNames(program->signatures)))
    return kError;
  // An object or a header is for linking into a C program.
  if ((!headerFilename.empty() || output->kind == OutputKind::Object) &&
      failed(checkLinkableNames(program->signatures)))
    return kError;
  ModuleOp module = *program->module;
  if (failed(
          runStages(module, output->stage, *options, afterStage, timingScope)))
    return kError;

  std::string outputPath = !outputFilename.empty() ? outputFilename.getValue()
                           : textToStdout
                               ? std::string("-")
                               : getOutputFileName(inputFilename, *output);
  // The main output, produced into a temporary file beside where it goes
  // (renamed there with the other outputs once all are ready), or in memory
  // for the standard output.
  llvm::SmallVector<char, 0> contents;
  SmallString<256> producedPath;
  if (outputPath != "-") {
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            outputPath + ".tmp-%%%%%%", producedPath)) {
      reportError("cannot write '" + outputPath + "': " + ec.message());
      return kError;
    }
    llvm::sys::RemoveFileOnSignal(producedPath);
  }
  llvm::FileRemover removeProduced(producedPath, !producedPath.empty());
  TimingScope rendering = rootTiming.nest("produce the output");
  llvm::Error rendered =
      producedPath.empty()
          ? renderOutput(module, *output, *options, contents,
                         /*function=*/std::nullopt,
                         timing ? &rendering : nullptr, /*consumeModule=*/true)
          : renderOutputFile(module, *output, *options, producedPath,
                             /*function=*/std::nullopt,
                             timing ? &rendering : nullptr,
                             /*consumeModule=*/true);
  if (rendered) {
    reportError(std::move(rendered));
    return kError;
  }
  rendering.stop();

  SmallVector<PendingOutput> pending;
  if (producedPath.empty())
    pending.push_back({outputPath, [&](raw_ostream &os) {
                         os.write(contents.data(), contents.size());
                         return llvm::Error::success();
                       }});
  else
    pending.push_back({outputPath, nullptr, producedPath.str().str()});
  bool gpu = runsOnGPU(*options);
  std::string targetDescription =
      (getTargetKindName(options->target) + " (" +
       (gpu ? StringRef(options->chip) : (*tm)->getTargetCPU()) + ")")
          .str();
  std::string header;
  if (!headerFilename.empty()) {
    StringRef headerName = llvm::sys::path::filename(headerFilename);
    header = renderKernelHeader(
        program->signatures, llvm::sys::path::filename(inputFilename),
        makeIncludeGuard(headerName), headerName, targetDescription, gpu);
    pending.push_back({headerFilename, [&](raw_ostream &os) {
                         os << header;
                         return llvm::Error::success();
                       }});
  }
  std::string interface;
  if (!interfaceFilename.empty()) {
    interface =
        renderKernelInterfaceJSON(program->signatures, targetDescription, gpu);
    pending.push_back({interfaceFilename, [&](raw_ostream &os) {
                         os << interface;
                         return llvm::Error::success();
                       }});
  }
  if (!depfileName.empty()) {
    pending.push_back({depfileName, [&](raw_ostream &os) {
                         os << escapeForMake(outputPath);
                         if (!headerFilename.empty())
                           os << ' ' << escapeForMake(headerFilename);
                         if (!interfaceFilename.empty())
                           os << ' ' << escapeForMake(interfaceFilename);
                         os << ": " << escapeForMake(inputFilename) << "\n";
                         return llvm::Error::success();
                       }});
  }
  TimingScope writing = rootTiming.nest("write the outputs");
  bool written = writeOutputs(pending);
  writing.stop();
  if (timing)
    printPeakMemory(llvm::errs());
  return written ? kSuccess : kError;
}

//===----------------------------------------------------------------------===//
// run
//===----------------------------------------------------------------------===//

/// Loads the value of --input `spec` for `param`, checking its type.
static std::optional<HostTensor> loadInput(StringRef spec, unsigned index,
                                           const KernelSignature &sig) {
  const TensorParam &param = sig.inputs[index];
  bool literal = spec.contains('=') && !spec.ends_with(".npy");
  auto tensor =
      literal ? parseTensorLiteral(spec)
              : readNpyFile(spec.starts_with("@") ? spec.drop_front() : spec);
  if (!tensor) {
    emitError(param.loc) << "cannot use input #" << index << " for %"
                         << param.name << ": "
                         << llvm::toString(tensor.takeError());
    return std::nullopt;
  }
  if (tensor->getInfo().mlirName != param.getInfo().mlirName ||
      tensor->getShape() != ArrayRef<int64_t>(param.shape)) {
    emitError(param.loc) << "input #" << index << " ('" << spec << "') is "
                         << tensor->getTypeString() << ", but argument %"
                         << param.name << " of @" << sig.name << " is "
                         << param.getTypeString();
    return std::nullopt;
  }
  return std::move(*tensor);
}

static int runRun(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::optional<PipelineOptions> options;
  std::unique_ptr<Program> program;
  if (std::optional<int> exitCode =
          startCommand(context, sourceMgr, options, program))
    return *exitCode;
  const KernelSignature *sig = selectFunction(*program);
  if (!sig)
    return kError;
  if (inputs.size() != sig->inputs.size()) {
    emitError(sig->loc) << "@" << sig->name << " takes " << sig->inputs.size()
                        << " argument" << (sig->inputs.size() == 1 ? "" : "s")
                        << ", but " << inputs.size() << " --input "
                        << (inputs.size() == 1 ? "was" : "were") << " given";
    return kError;
  }
  if (!outputs.empty() && outputs.size() != sig->results.size()) {
    emitError(sig->loc) << "@" << sig->name << " has " << sig->results.size()
                        << " result" << (sig->results.size() == 1 ? "" : "s")
                        << ", but " << outputs.size() << " --output "
                        << (outputs.size() == 1 ? "was" : "were") << " given";
    return kError;
  }
  std::vector<HostTensor> args;
  for (auto [i, spec] : llvm::enumerate(inputs)) {
    std::optional<HostTensor> arg = loadInput(spec, i, *sig);
    if (!arg)
      return kError;
    args.push_back(std::move(*arg));
  }
  // Check that every output can be created before doing the work.
  for (const std::string &path : outputs) {
    StringRef dir = llvm::sys::path::parent_path(path);
    if (!dir.empty() && !llvm::sys::fs::is_directory(dir)) {
      reportError("cannot write '" + path + "': no such directory '" + dir +
                  "'");
      return kError;
    }
  }

  std::unique_ptr<JitModule> jit = compileForJit(*program->module, *options);
  if (!jit)
    return kError;
  std::vector<HostTensor> results = makeResults(*sig);
  if (!callKernel(*jit, *sig, args, results, getGPUPlatform(*options)))
    return kError;

  if (outputs.empty()) {
    for (auto [param, result] : llvm::zip(sig->results, results)) {
      llvm::outs() << param.name << ": ";
      result.print(llvm::outs());
    }
    return kSuccess;
  }
  // .npy files are written by writeNpyFile, which is atomic per file.
  for (auto [i, pair] : llvm::enumerate(llvm::zip(outputs, results))) {
    auto &[path, result] = pair;
    if (llvm::Error err = writeNpyFile(path, result)) {
      reportError(std::move(err));
      for (const std::string &written :
           ArrayRef<std::string>(outputs).take_front(i))
        llvm::sys::fs::remove(written);
      return kError;
    }
  }
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// crosscheck
//===----------------------------------------------------------------------===//

static std::string formatIndex(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(index))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "]";
}

/// A value with the digits that tell floats apart.
static std::string formatValue(double value) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.9g", value);
  return s;
}

static int runCrosscheck(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::optional<PipelineOptions> options;
  std::unique_ptr<Program> program;
  if (std::optional<int> exitCode =
          startCommand(context, sourceMgr, options, program))
    return *exitCode;
  SmallVector<const KernelSignature *> selected;
  if (!functionName.empty()) {
    const KernelSignature *sig = selectFunction(*program);
    if (!sig)
      return kError;
    selected.push_back(sig);
  } else {
    for (const KernelSignature &sig : program->signatures)
      selected.push_back(&sig);
  }

  OwningOpRef<ModuleOp> referenceModule = program->module->clone();
  std::unique_ptr<JitModule> optimized =
      compileForJit(*program->module, *options);
  if (!optimized)
    return kError;
  // The reference runs on the CPU, whatever the target.
  PipelineOptions referenceOptions = *options;
  referenceOptions.target = TargetKind::CPU;
  std::unique_ptr<JitModule> reference =
      compileForJit(*referenceModule, referenceOptions, /*reference=*/true);
  if (!reference)
    return kError;

  bool allOk = true;
  std::mt19937_64 rng(seed);
  for (const KernelSignature *sig : selected) {
    std::vector<HostTensor> args = makeRandomArgs(*sig, rng);
    std::vector<HostTensor> expected = makeResults(*sig);
    std::vector<HostTensor> actual = makeResults(*sig);
    if (!callKernel(*reference, *sig, args, expected) ||
        !callKernel(*optimized, *sig, args, actual, getGPUPlatform(*options)))
      return kError;
    bool ok = true;
    double maxErr = 0;
    std::string details;
    for (auto [i, param] : llvm::enumerate(sig->results)) {
      auto [atol, rtol] = getDefaultTolerances(param.getInfo());
      if (atolOpt >= 0)
        atol = atolOpt;
      if (rtolOpt >= 0)
        rtol = rtolOpt;
      Comparison cmp = compareTensors(actual[i], expected[i], atol, rtol);
      maxErr = std::max(maxErr, cmp.maxAbsError);
      if (!cmp.ok) {
        ok = false;
        details +=
            ("\n  result #" + Twine(i) + " (" + param.getTypeString() +
             "): " + Twine(cmp.numMismatches) + " of " +
             Twine(param.getNumElements()) + " elements differ; first at " +
             formatIndex(cmp.firstMismatch, param.shape) + ": optimized " +
             formatValue(actual[i].getAsDouble(cmp.firstMismatch)) +
             ", reference " +
             formatValue(expected[i].getAsDouble(cmp.firstMismatch)))
                .str();
      }
    }
    llvm::outs() << (ok ? "PASS" : "FAIL") << " @" << sig->name << " ("
                 << sig->results.size() << " result"
                 << (sig->results.size() == 1 ? "" : "s") << ", max abs error "
                 << llvm::format("%.3g", maxErr) << ")" << details << "\n";
    allOk &= ok;
  }
  return allOk ? kSuccess : kMismatch;
}

//===----------------------------------------------------------------------===//
// bench
//===----------------------------------------------------------------------===//

/// The times of `repetitions` calls of `sig` on random arguments after one
/// warm-up call, sorted; empty after a failed call (reported).
static std::vector<double> timeKernel(JitModule &jit,
                                      const KernelSignature &sig,
                                      const PipelineOptions &options,
                                      std::vector<HostTensor> &args,
                                      std::vector<HostTensor> &results) {
  std::mt19937_64 rng(seed);
  args = makeRandomArgs(sig, rng);
  results = makeResults(sig);
  GPUPlatform gpu = getGPUPlatform(options);
  if (!callKernel(jit, sig, args, results, gpu)) // warm-up
    return {};
  // On a GPU, the buffers stay on the device and each timed call waits for
  // its kernels.
  std::optional<DeviceBuffers> device;
  SmallVector<void *> deviceArgs;
  if (gpu) {
    device.emplace(*gpu);
    if (!checkStatus(sig, device->upload(args, results), gpu))
      return {};
    deviceArgs = device->getCallArguments();
  }
  auto timedCall = [&]() {
    return gpu ? invokeKernel(jit, sig, deviceArgs, gpu)
               : callKernel(jit, sig, args, results);
  };
  std::vector<double> times;
  for (unsigned i = 0; i < std::max(1u, repetitions.getValue()); ++i) {
    auto start = std::chrono::steady_clock::now();
    if (!timedCall())
      return {};
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// bench --per-op: every op of `sig`, as the tensor part of S1 leaves it
/// (layouts chosen), as its own function, all compiled together, timed one
/// after the other, listed slowest first.
static int runPerOpBench(const Program &program, const KernelSignature &sig,
                         const PipelineOptions &options) {
  if (failed(runTensorPipeline(*program.module, options)))
    return kError;
  std::vector<OpKernel> kernels;
  FailureOr<OwningOpRef<ModuleOp>> module =
      extractOpKernels(*program.module, sig.name, kernels);
  if (failed(module))
    return kError;
  std::vector<KernelSignature> signatures = collectKernelSignatures(**module);
  auto compileStart = std::chrono::steady_clock::now();
  std::unique_ptr<JitModule> jit = compileForJit(**module, options);
  if (!jit)
    return kError;
  double compileSeconds = secondsSince(compileStart);
  struct Row {
    double median;
    const OpKernel *kernel;
  };
  std::vector<Row> rows;
  double total = 0;
  for (auto [kernel, kernelSig] : llvm::zip_equal(kernels, signatures)) {
    std::vector<HostTensor> args, results;
    std::vector<double> times =
        timeKernel(*jit, kernelSig, options, args, results);
    if (times.empty())
      return kError;
    rows.push_back({times[times.size() / 2], &kernel});
    total += rows.back().median;
  }
  llvm::stable_sort(
      rows, [](const Row &a, const Row &b) { return a.median > b.median; });
  llvm::outs() << llvm::format(
      "@%s: %zu ops, %.4f ms in all (medians of %u runs each, unfused); "
      "compiled in %.2f s\n",
      sig.name.c_str(), rows.size(), total * 1e3,
      std::max(1u, repetitions.getValue()), compileSeconds);
  llvm::outs() << "        ms      %   cum %  GFLOP/s  op\n";
  double cumulative = 0;
  for (const Row &row : rows) {
    cumulative += row.median;
    llvm::outs() << llvm::format("%10.4f %6.1f %7.1f ", row.median * 1e3,
                                 100 * row.median / total,
                                 100 * cumulative / total);
    // The op's arithmetic per second (a linalg op: its iterations times
    // the arith and math ops of its body), else "-" (none counted: a
    // transpose, a copy).
    if (row.kernel->flops && *row.kernel->flops > 0 && row.median > 0)
      llvm::outs() << llvm::format("%8.1f  ",
                                   *row.kernel->flops / row.median / 1e9);
    else
      llvm::outs() << "       -  ";
    llvm::outs() << row.kernel->opName << " -> " << row.kernel->resultTypes
                 << "  @" << row.kernel->function << "  "
                 << formatShortLocation(row.kernel->loc) << "\n";
  }
  return kSuccess;
}

static int runBench(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::optional<PipelineOptions> options;
  std::unique_ptr<Program> program;
  if (std::optional<int> exitCode =
          startCommand(context, sourceMgr, options, program))
    return *exitCode;
  const KernelSignature *sig = selectFunction(*program);
  if (!sig)
    return kError;
  if (perOp)
    return runPerOpBench(*program, *sig, *options);
  std::optional<int64_t> flops =
      countFunctionFlops(*program->module, sig->name);
  auto compileStart = std::chrono::steady_clock::now();
  std::unique_ptr<JitModule> jit = compileForJit(*program->module, *options);
  if (!jit)
    return kError;
  double compileSeconds = secondsSince(compileStart);
  std::vector<HostTensor> args, results;
  std::vector<double> times = timeKernel(*jit, *sig, *options, args, results);
  if (times.empty())
    return kError;
  double median = times[times.size() / 2];
  double bytes = 0;
  for (const HostTensor &t : args)
    bytes += t.getByteSize();
  for (const HostTensor &t : results)
    bytes += t.getByteSize();
  llvm::outs() << llvm::format(
      "@%s: median %.4f ms, min %.4f ms over %zu runs; %.2f GB/s of "
      "arguments and results; ",
      sig->name.c_str(), median * 1e3, times.front() * 1e3, times.size(),
      bytes / median / 1e9);
  // The linalg ops' arithmetic (what --per-op lists per op), and its rate at
  // the median and the minimum.
  if (flops && *flops > 0)
    llvm::outs() << llvm::format("%.4g GFLOP, %.1f GFLOP/s (best %.1f); ",
                                 *flops / 1e9, *flops / median / 1e9,
                                 *flops / times.front() / 1e9);
  llvm::outs() << llvm::format("compiled in %.2f s\n", compileSeconds);
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "pbtool (PolyBlocks) " << getPolyBlocksVersion() << "\n";
  });
  getPipelineFlags(); // registers them
  for (cl::SubCommand *sub : {&compileCmd, &runCmd, &crosscheckCmd, &benchCmd})
    cl::HideUnrelatedOptions(pbCategory, *sub);
  cl::HideUnrelatedOptions(pbCategory);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "PolyBlocks tensor compiler driver\n\n"
          "  pbtool compile IN.mlir -o OUT.o --header OUT.h\n"
          "  pbtool run IN.mlir --function=F --input=a.npy --output=o.npy\n"
          "  pbtool crosscheck IN.mlir\n"
          "  pbtool bench IN.mlir --function=F\n\n"
          "Exit codes: 0 success; 1 the program, an input or an output could "
          "not be processed;\n2 bad command line; 3 crosscheck found "
          "differing results.\n",
          &llvm::errs()))
    return kUsageError;

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  if (compileCmd)
    return runCompile(context, sourceMgr);
  if (runCmd)
    return runRun(context, sourceMgr);
  if (crosscheckCmd)
    return runCrosscheck(context, sourceMgr);
  if (benchCmd)
    return runBench(context, sourceMgr);
  reportError("no command given (expected compile, run, crosscheck or bench; "
              "see pbtool --help)");
  return kUsageError;
}
