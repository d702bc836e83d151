//===- Compilation.cpp - The real pipeline on a copy of a document --------===//

#include "Compilation.h"

#include "SourceLocations.h"

#include "polyblocks/Driver/Program.h"
#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Target/GPUTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace polyblocks;
namespace lsp = llvm::lsp;

namespace pblsp {

static llvm::Error makeCancelledError() {
  return llvm::make_error<lsp::LSPError>("cancelled",
                                         lsp::ErrorCode::RequestCancelled);
}

static llvm::Error makeFailedError(const llvm::Twine &message) {
  return llvm::make_error<lsp::LSPError>(message.str(),
                                         lsp::ErrorCode::RequestFailed);
}

llvm::SmallVector<const DeviceCodeKind *, 2> getDeviceAssemblyPreviews() {
  llvm::SmallVector<const DeviceCodeKind *, 2> previews;
  for (const DeviceCodeKind &kind : getDeviceCodeKinds())
    if (kind.format == "isa")
      previews.push_back(&kind);
  return previews;
}

llvm::Expected<PreviewKind> parsePreviewKind(StringRef name, StringRef target) {
  PreviewKind kind;
  kind.id = name.lower();
  if (std::optional<Stage> stage = parseStage(name)) {
    kind.kind = PreviewKind::MLIR;
    kind.stage = *stage;
    kind.extension = ".mlir";
    return kind;
  }
  if (kind.id == "llvm") {
    kind.kind = PreviewKind::LLVMIR;
    kind.extension = ".ll";
    return kind;
  }
  if (kind.id == "asm") {
    kind.kind = PreviewKind::Assembly;
    kind.extension = ".s";
    return kind;
  }
  for (const DeviceCodeKind *device : getDeviceAssemblyPreviews()) {
    if (kind.id != device->name)
      continue;
    StringRef deviceTarget = getTargetKindName(device->target);
    if (target != deviceTarget)
      return llvm::make_error<lsp::LSPError>(
          ("stage '" + device->name + "' is " + device->description +
           ", but this file compiles for target '" + target +
           "' (set --target=" + deviceTarget + " in its flags)")
              .str(),
          lsp::ErrorCode::InvalidParams);
    kind.kind = PreviewKind::DeviceAssembly;
    kind.extension = ("." + device->name).str();
    return kind;
  }
  return llvm::make_error<lsp::LSPError>(
      ("unknown stage '" + name +
       "' (expected s1, s2, s3, s4, s5, llvm, asm, ptx or amdgcn)")
          .str(),
      lsp::ErrorCode::InvalidParams);
}

namespace {
/// What happened in one run of the pipeline.
struct PipelineRun {
  std::vector<lsp::Diagnostic> diagnostics;
  /// Set when the flags could be turned into options.
  std::optional<PipelineOptions> options;
  std::string flagsError;
  /// The program parsed and passed the checks.
  bool loaded = false;
  /// Every stage up to the last one asked for ran.
  bool completed = false;
  bool cancelled = false;
  /// Set when the compiler crashed: where.
  std::string crash;
  /// The first error, as "line N: message".
  std::string firstError;
};

using AfterLoad = llvm::function_ref<void(ModuleOp)>;
using AfterStage = llvm::function_ref<LogicalResult(const StageInfo &, ModuleOp,
                                                    const PipelineOptions &)>;
} // namespace

/// What the diagnostics of a stage are attributed to.
static std::string getStageSource(Stage stage) {
  const StageInfo &info = getStageInfo(stage);
  return ("polyblocks " + info.id + " (" + info.name + ")").str();
}

/// Loads `snapshot` in a fresh context and runs S1 up to `last`, like
/// pbtool: the program checks, then the stages. `afterLoad` sees the checked
/// program, `afterStage` the module after each stage.
static PipelineRun runPipeline(const Snapshot &snapshot,
                               const DialectRegistry &registry, Stage last,
                               const std::atomic<bool> &cancelled,
                               AfterLoad afterLoad, AfterStage afterStage,
                               StringRef gpuBinaryFormat = "") {
  PipelineRun run;
  if (cancelled) {
    run.cancelled = true;
    return run;
  }
  std::string source = "polyblocks";
  auto compile = [&] {
    llvm::Expected<PipelineOptions> options =
        snapshot.flagsError.empty()
            ? resolvePipelineOptions(snapshot.flags)
            : llvm::Expected<PipelineOptions>(
                  llvm::createStringError(snapshot.flagsError));
    if (!options) {
      run.flagsError = llvm::toString(options.takeError());
      run.diagnostics.push_back(makeDocumentDiagnostic(
          lsp::DiagnosticSeverity::Error, source,
          "cannot compile with the flags from " + snapshot.flagsOrigin + ": " +
              run.flagsError));
      return;
    }
    if (!gpuBinaryFormat.empty())
      options->gpuBinaryFormat = gpuBinaryFormat.str();
    run.options = *options;

    // Its own context: MLIRContext may not be shared with the main thread.
    // Threads inside it would only compete with the editor for the cores.
    auto context = std::make_unique<MLIRContext>(
        registry, MLIRContext::Threading::DISABLED);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                     snapshot.text, snapshot.uri.file()),
                                 SMLoc());
    ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
      run.diagnostics.push_back(
          convertDiagnostic(diag, snapshot.uri, sourceMgr, source));
      const lsp::Diagnostic &converted = run.diagnostics.back();
      if (run.firstError.empty() &&
          converted.severity == lsp::DiagnosticSeverity::Error)
        run.firstError = "line " +
                         std::to_string(converted.range.start.line + 1) + ": " +
                         converted.message;
    });
    std::unique_ptr<Program> program = parseProgram(sourceMgr, *context);
    if (!program)
      return;
    run.loaded = true;
    ModuleOp module = *program->module;
    if (afterLoad)
      afterLoad(module);
    source = getStageSource(Stage::S1);
    run.completed = succeeded(runStages(
        module, last, *run.options,
        [&](const StageInfo &info, ModuleOp module) -> LogicalResult {
          if (afterStage && failed(afterStage(info, module, *run.options)))
            return failure();
          if (cancelled) {
            run.cancelled = true;
            return failure();
          }
          if (info.stage < last)
            source = getStageSource(
                static_cast<Stage>(static_cast<int>(info.stage) + 1));
          return success();
        }));
  };
  llvm::CrashRecoveryContext crashRecovery;
  if (!crashRecovery.RunSafely(compile)) {
    // What the crash left behind (the context among it) is not touched
    // again.
    run.completed = false;
    run.crash = "the compiler crashed (in " + source +
                "): this is a PolyBlocks bug, please report it with this file";
    run.diagnostics.push_back(makeDocumentDiagnostic(
        lsp::DiagnosticSeverity::Error, "polyblocks", run.crash));
  }
  return run;
}

DiagnosticsRun runForDiagnostics(const Snapshot &snapshot,
                                 const DialectRegistry &registry, Stage last,
                                 const std::atomic<bool> &cancelled) {
  auto decisions = std::make_shared<ProgramDecisions>();
  decisions->flagsOrigin = snapshot.flagsOrigin;
  SourceOps sourceOps;
  bool reachedS3 = false;
  PipelineRun run = runPipeline(
      snapshot, registry, last, cancelled,
      [&](ModuleOp module) {
        sourceOps = collectSourceOps(module, snapshot.uri.file());
      },
      [&](const StageInfo &info, ModuleOp module, const PipelineOptions &) {
        if (info.stage == Stage::S2)
          recordAfterS2(module, *decisions);
        if (info.stage == Stage::S3) {
          recordAfterS3(module, snapshot.uri.file(), sourceOps, *decisions);
          reachedS3 = true;
        }
        return success();
      });

  DiagnosticsRun result;
  result.diagnostics = std::move(run.diagnostics);
  result.cancelled = run.cancelled;
  if (run.options)
    decisions->options = *run.options;
  decisions->flagsError = run.flagsError;
  if (!reachedS3 && run.flagsError.empty())
    decisions->failure = !run.crash.empty()        ? run.crash
                         : !run.firstError.empty() ? run.firstError
                                                   : "it was cancelled";
  result.decisions = std::move(decisions);
  return result;
}

/// The functions defined in `module`, for messages: "@f, @g".
static std::string listFunctions(ModuleOp module) {
  std::string names;
  for (auto function : module.getOps<FunctionOpInterface>())
    if (!function.isExternal())
      names += (names.empty() ? "@" : ", @") + function.getName().str();
  return names.empty() ? "none" : names;
}

llvm::Expected<std::string>
renderStage(const Snapshot &snapshot, const DialectRegistry &registry,
            const PreviewKind &kind, const std::optional<std::string> &function,
            const std::atomic<bool> &cancelled) {
  std::string ir;
  std::string failureMessage;
  bool translationFailed = false;
  PipelineRun run = runPipeline(
      snapshot, registry, kind.stage, cancelled, nullptr,
      [&](const StageInfo &info, ModuleOp module,
          const PipelineOptions &options) -> LogicalResult {
        if (info.stage != kind.stage)
          return success();
        Operation *symbol = nullptr;
        if (function) {
          symbol = SymbolTable::lookupSymbolIn(module, *function);
          if (!symbol || !isa<FunctionOpInterface>(symbol)) {
            failureMessage = "no function @" + *function + " in the IR after " +
                             info.id.str() + " (it has " +
                             listFunctions(module) + ")";
            return failure();
          }
        }
        if (kind.kind == PreviewKind::DeviceAssembly) {
          // The whole device module: kernels are not per function.
          llvm::Expected<std::string> image = getEmbeddedDeviceImage(module);
          if (!image) {
            failureMessage = llvm::toString(image.takeError());
            return failure();
          }
          ir = StringRef(*image).rtrim('\0').str();
          return success();
        }
        if (kind.kind == PreviewKind::MLIR) {
          llvm::raw_string_ostream os(ir);
          if (symbol)
            symbol->print(os);
          else
            module.print(os);
          if (!StringRef(ir).ends_with("\n"))
            os << "\n";
          return success();
        }
        auto tm = createCPUTargetMachine(options);
        if (!tm) {
          failureMessage = llvm::toString(tm.takeError());
          return failure();
        }
        // The function and the parallel regions OpenMP outlines from it
        // (named `<function>..omp_par...`).
        std::string prefix = function ? *function + "." : "";
        auto keep = [&](StringRef name) {
          return name == *function || name.starts_with(prefix);
        };
        SmallVector<char, 0> out;
        if (llvm::Error err =
                emitCode(module, **tm,
                         kind.kind == PreviewKind::LLVMIR ? CodeKind::LLVMIR
                                                          : CodeKind::Assembly,
                         out,
                         function ? llvm::function_ref<bool(StringRef)>(keep)
                                  : nullptr)) {
          // What went wrong was reported as diagnostics (firstError).
          failureMessage = llvm::toString(std::move(err));
          translationFailed = true;
          return failure();
        }
        ir.assign(out.begin(), out.end());
        return success();
      },
      kind.kind == PreviewKind::DeviceAssembly ? "isa" : "");
  if (run.cancelled)
    return makeCancelledError();
  if (!run.crash.empty())
    return makeFailedError(run.crash);
  if (!run.options)
    return makeFailedError("cannot compile with the flags from " +
                           snapshot.flagsOrigin + ": " + run.flagsError);
  if (translationFailed && !run.firstError.empty())
    failureMessage += ": " + run.firstError;
  if (!failureMessage.empty())
    return makeFailedError(failureMessage);
  if (!run.completed)
    return makeFailedError(
        "the program does not compile, so there is no " + kind.id + " IR: " +
        (run.firstError.empty() ? "the pipeline failed" : run.firstError));
  return ir;
}

} // namespace pblsp
