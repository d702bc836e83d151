//===- Driver.cpp - Shared pieces of the pbtool commands ------------------===//

#include "Driver.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;

namespace pbtool {

std::unique_ptr<polyblocks::Program>
loadProgram(StringRef path, MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    reportError(error);
    return nullptr;
  }
  if (path == "-") {
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    return polyblocks::parseProgram(sourceMgr, context);
  }
  // A file is parsed from a source manager of its own, freed once it is
  // parsed: the program's text (twice its weights' size, 205 MB for
  // ResNet-50) would otherwise stay in memory through the whole
  // compilation. The diagnostics' handler, on `sourceMgr`, reads the file
  // again when a diagnostic points into it.
  llvm::SourceMgr parsing;
  parsing.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return polyblocks::parseProgram(parsing, context);
}

void reportError(const llvm::Twine &message) {
  llvm::WithColor::error() << message << "\n";
}

void reportError(llvm::Error error) {
  reportError(llvm::toString(std::move(error)));
}

bool writeOutputs(llvm::ArrayRef<PendingOutput> outputs) {
  for (auto [i, output] : llvm::enumerate(outputs)) {
    std::error_code ec =
        output.produced.empty()
            ? llvm::errorToErrorCode(
                  llvm::writeToOutput(output.path, output.write))
            : llvm::sys::fs::rename(output.produced, output.path);
    if (!ec) {
      if (!output.produced.empty())
        llvm::sys::DontRemoveFileOnSignal(output.produced);
      continue;
    }
    reportError("cannot write '" + output.path + "': " + ec.message());
    for (const PendingOutput &written : outputs.take_front(i))
      if (written.path != "-")
        llvm::sys::fs::remove(written.path);
    return false;
  }
  return true;
}

} // namespace pbtool
