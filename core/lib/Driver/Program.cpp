//===- Program.cpp - A parsed and checked input program -------------------===//

#include "polyblocks/Driver/Program.h"

#include "polyblocks/Driver/ResourceSection.h"

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

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
  // The weights' section, when it is in the form torch-mlir and jaxlib
  // write, is decoded here, and the parser reads a copy of the IR before it
  // (same name and lines: diagnostics point into the file as they would).
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getNumBuffers());
  std::optional<BuiltinResources> resources =
      decodeBuiltinResources(buffer->getBuffer(), &context);
  llvm::SourceMgr irOnly;
  if (resources)
    irOnly.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            buffer->getBuffer().take_front(resources->irSize),
            buffer->getBufferIdentifier()),
        llvm::SMLoc());
  AsmParserState asmState;
  program->module =
      parseKernelSource(resources ? irOnly : sourceMgr, context, &asmState);
  if (!program->module)
    return nullptr;
  if (resources)
    attachBuiltinResources(context, *resources);
  ModuleOp module = *program->module;
  if (failed(verify(module)) || failed(checkInputProgram(module)))
    return nullptr;
  program->signatures = collectKernelSignatures(module, &asmState);
  return program;
}

} // namespace polyblocks
