//===- InitAll.h - The one PolyBlocks registry ------------------*- C++ -*-===//
//
// pbtool, pb-opt and pb-lsp all call these, so that the editor understands
// exactly what the compiler understands.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_INITALL_H
#define POLYBLOCKS_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace polyblocks {

/// Registers every dialect, interface implementation and LLVM IR translation
/// the pipeline uses.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers PolyBlocks' passes and stage pipelines with the global pass
/// registry (for textual pipelines and pb-opt flags). Registers them once
/// however often it is called.
void registerAllPasses();

} // namespace polyblocks

#endif // POLYBLOCKS_INITALL_H
