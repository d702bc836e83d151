//===- Compilation.h - The real pipeline on a copy of a document -*- C++
//-*-===//
//
// Runs what pbtool runs on a document's text: the same program checks and
// the same stages, with the options in force for the file, in a fresh
// MLIRContext on the worker thread. Gives the diagnostics of a run, what S3
// made of each function, and the IR of any stage. A run stops between
// stages once it is cancelled, and a crash inside the compiler is turned
// into an error rather than taking the server down.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_COMPILATION_H
#define POLYBLOCKS_LSP_COMPILATION_H

#include "CompilerDecisions.h"

#include "polyblocks/Driver/CompileFlags.h"
#include "polyblocks/Driver/Outputs.h"
#include "polyblocks/Target/GPUTarget.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/LSP/Protocol.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pblsp {

/// A copy of everything a compilation of one document version needs, so
/// that the worker never touches the main thread's state.
struct Snapshot {
  llvm::lsp::URIForFile uri;
  int64_t version = 0;
  std::string text;
  polyblocks::CompileFlags flags;
  /// Where the flags came from, for hovers and error messages.
  std::string flagsOrigin;
  /// Set when the flags could not be read: why.
  std::string flagsError;
};

/// What a stage preview shows: the text outputs of a compilation (a
/// stage's IR, LLVM IR, assembly, device assembly), as pbtool names them.
using PreviewKind = polyblocks::OutputKind;

/// The device-code previews (the text kinds of getDeviceCodeKinds: PTX,
/// amdgcn), one per GPU target.
llvm::SmallVector<const polyblocks::DeviceCodeKind *, 2>
getDeviceAssemblyPreviews();

/// Parses a stage name of a preview request (case-insensitive: "s1".."s5",
/// "llvm", "asm", "ptx", "amdgcn"). `flags` are those in force, for the
/// message about device code of another target.
llvm::Expected<PreviewKind>
parsePreviewKind(llvm::StringRef name, const polyblocks::CompileFlags &flags);

/// The outcome of a diagnostics run.
struct DiagnosticsRun {
  /// Diagnostics of the program checks and the stages.
  std::vector<llvm::lsp::Diagnostic> diagnostics;
  /// What S3 made of each function; set when the options could be resolved.
  std::shared_ptr<const ProgramDecisions> decisions;
  bool cancelled = false;
};

/// Runs S1 up to `last` (S5 for diagnostics, S3 for decisions only).
DiagnosticsRun runForDiagnostics(const Snapshot &snapshot,
                                 const mlir::DialectRegistry &registry,
                                 polyblocks::Stage last,
                                 const std::atomic<bool> &cancelled);

/// The IR of `kind` for the document, of the whole program or of one
/// function. Fails with a message saying why (the program does not compile,
/// no such function, cancelled, ...).
llvm::Expected<std::string>
renderStage(const Snapshot &snapshot, const mlir::DialectRegistry &registry,
            const PreviewKind &kind, const std::optional<std::string> &function,
            const std::atomic<bool> &cancelled);

} // namespace pblsp

#endif // POLYBLOCKS_LSP_COMPILATION_H
