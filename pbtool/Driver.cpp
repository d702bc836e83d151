//===- Driver.cpp - Shared pieces of the pbtool commands ------------------===//

#include "Driver.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;

namespace pbtool {

const polyblocks::KernelSignature *Program::lookup(StringRef name) const {
  for (const polyblocks::KernelSignature &sig : signatures)
    if (sig.name == name)
      return &sig;
  return nullptr;
}

std::unique_ptr<Program> loadProgram(StringRef path, MLIRContext &context,
                                     llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    reportError(error);
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());

  auto program = std::make_unique<Program>();
  {
    // The parser's advice to pass -allow-unregistered-dialect does not apply
    // to a compiler: say what is accepted instead.
    ScopedDiagnosticHandler unregistered(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          !StringRef(diag.str()).contains("-allow-unregistered-dialect"))
        return failure();
      emitError(diag.getLocation())
          << "operation from an unregistered dialect: PolyBlocks accepts ops "
             "from the builtin, func, linalg, tensor, arith, math and tosa "
             "dialects";
      return success();
    });
    program->module =
        polyblocks::parseKernelSource(sourceMgr, context, &program->asmState);
  }
  if (!program->module)
    return nullptr;
  ModuleOp module = *program->module;
  if (failed(verify(module)) || failed(polyblocks::checkInputProgram(module)))
    return nullptr;
  program->signatures =
      polyblocks::collectKernelSignatures(module, &program->asmState);
  return program;
}

void reportError(const llvm::Twine &message) {
  llvm::WithColor::error() << message << "\n";
}

void reportError(llvm::Error error) {
  reportError(llvm::toString(std::move(error)));
}

bool writeOutputs(llvm::ArrayRef<PendingOutput> outputs) {
  for (auto [i, output] : llvm::enumerate(outputs)) {
    llvm::Error err = llvm::writeToOutput(output.path, output.write);
    if (!err)
      continue;
    reportError("cannot write '" + output.path +
                "': " + llvm::errorToErrorCode(std::move(err)).message());
    for (const PendingOutput &written : outputs.take_front(i))
      if (written.path != "-")
        llvm::sys::fs::remove(written.path);
    return false;
  }
  return true;
}

} // namespace pbtool
