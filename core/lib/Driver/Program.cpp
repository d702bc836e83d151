//===- Program.cpp - A parsed and checked input program -------------------===//

#include "polyblocks/Driver/Program.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace polyblocks {

const KernelSignature *Program::lookup(StringRef name) const {
  for (const KernelSignature &sig : signatures)
    if (sig.name == name)
      return &sig;
  return nullptr;
}

std::unique_ptr<Program> parseProgram(const llvm::SourceMgr &sourceMgr,
                                      MLIRContext &context) {
  auto program = std::make_unique<Program>();
  program->module = parseKernelSource(sourceMgr, context, &program->asmState);
  if (!program->module)
    return nullptr;
  ModuleOp module = *program->module;
  if (failed(verify(module)) || failed(checkInputProgram(module)))
    return nullptr;
  program->signatures = collectKernelSignatures(module, &program->asmState);
  return program;
}

} // namespace polyblocks
