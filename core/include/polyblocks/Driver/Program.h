//===- Program.h - A parsed and checked input program -----------*- C++ -*-===//
//
// The start of every compilation: the source is parsed, verified and checked
// against what PolyBlocks accepts, and the C signatures of its entry points
// are collected. pbtool and pb-lsp both start here, so that the editor
// rejects exactly what the compiler rejects.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_PROGRAM_H
#define POLYBLOCKS_DRIVER_PROGRAM_H

#include "polyblocks/Interface/KernelInterface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace polyblocks {

/// A parsed, checked input program with the signatures of its entry points.
struct Program {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<KernelSignature> signatures;

  const KernelSignature *lookup(llvm::StringRef name) const;
};

/// Parses the last buffer of `sourceMgr` (parseKernelSource; the builtin
/// resources that end it, a network's weights, through
/// decodeBuiltinResources when it reads them), verifies it and checks it
/// (checkInputProgram). Diagnostics go to the context's handlers; on
/// failure nothing is returned.
std::unique_ptr<Program> parseProgram(const llvm::SourceMgr &sourceMgr,
                                      mlir::MLIRContext &context);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_PROGRAM_H
