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

llvm::Expected<PreviewKind> parsePreviewKind(StringRef name,
                                             const CompileFlags &flags) {
  // Only the target matters for the kind: the flags need not resolve.
  PipelineOptions options;
  options.target = parseTargetKind(flags.target).value_or(TargetKind::CPU);
  options.emulateGPU = flags.emulateGPU;
  llvm::Expected<OutputKind> kind =
      parseOutputKind(name, options, "stage", /*withStages=*/true,
                      /*textOnly=*/true);
  if (!kind)
    return llvm::make_error<lsp::LSPError>(llvm::toString(kind.takeError()),
                                           lsp::ErrorCode::InvalidParams);
  return *kind;
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
                               std::optional<OutputKind> output = {}) {
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
    if (output)
      configurePipelineFor(*output, *options);
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
        SmallVector<char, 0> out;
        std::optional<StringRef> only;
        if (function)
          only = *function;
        if (llvm::Error err = renderOutput(module, kind, options, out, only)) {
          // What went wrong in a translation was reported as diagnostics
          // too (firstError).
          failureMessage = llvm::toString(std::move(err));
          translationFailed = kind.kind != OutputKind::StageIR;
          return failure();
        }
        ir.assign(out.begin(), out.end());
        return success();
      },
      kind);
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
