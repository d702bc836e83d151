//===- Driver.h - Shared pieces of the pbtool commands ----------*- C++ -*-===//

#ifndef POLYBLOCKS_PBTOOL_DRIVER_H
#define POLYBLOCKS_PBTOOL_DRIVER_H

#include "polyblocks/Driver/Program.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>
#include <memory>

namespace pbtool {

/// pbtool's documented exit codes.
enum ExitCode : int {
  kSuccess = 0,
  /// The program, an input or an output could not be processed; a
  /// diagnostic says why.
  kError = 1,
  /// The command line was wrong.
  kUsageError = 2,
  /// crosscheck: optimized and reference results differ.
  kMismatch = 3,
};

/// Reads `path` ("-" = stdin) into `sourceMgr`, then parses and checks it
/// (polyblocks::parseProgram). Diagnostics go to the context's handler; on
/// failure nothing is returned.
std::unique_ptr<polyblocks::Program> loadProgram(llvm::StringRef path,
                                                 mlir::MLIRContext &context,
                                                 llvm::SourceMgr &sourceMgr);

/// Prints "error: <message>" for an error without a source location.
void reportError(const llvm::Twine &message);
/// Same, consuming an llvm::Error.
void reportError(llvm::Error error);

/// Writes the outputs atomically: each goes to a temporary file first and is
/// renamed into place; if any fails, those already written are removed, so
/// that no partial output is ever left behind.
struct PendingOutput {
  std::string path;
  std::function<llvm::Error(llvm::raw_ostream &)> write;
  /// Or a file written already (in the same directory), renamed to `path`.
  std::string produced = {};
};
bool writeOutputs(llvm::ArrayRef<PendingOutput> outputs);

} // namespace pbtool

#endif // POLYBLOCKS_PBTOOL_DRIVER_H
