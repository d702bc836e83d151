//===- IRBuilders.h - IR the rewriting passes share -------------*- C++ -*-===//
//
// Small builders of the IR that several passes emit: the operands of a
// moved access, the vector multiply-adds of a micro-kernel's step, a
// request to LLVM to unroll a loop, a transpose of a tensor.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_UTILS_IRBUILDERS_H
#define POLYBLOCKS_TRANSFORMS_UTILS_IRBUILDERS_H

#include "polyblocks/Analysis/Contraction.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace polyblocks {

/// The map operands of an affine access with the induction variables of a
/// rewritten nest replaced through `ivMap` (old loop -> the value standing
/// for it now); other operands stay.
llvm::SmallVector<mlir::Value>
remapOperands(mlir::ValueRange mapOperands,
              const llvm::DenseMap<mlir::Value, mlir::Value> &ivMap);

/// The vector multiply-adds of the rewritten nests' innermost step: for each
/// row value `rows[r]` (standing for the row loop) and vector `panels[v]` of
/// the panel's row, `accs[r * panels.size() + v]` + broadcast(X[row r, ...])
/// * `panels[v]`, as one vector.fma; X's other induction variables come from
/// `ivMap`, whose row entry this sets.
llvm::SmallVector<mlir::Value>
buildRowMultiplyAdds(mlir::OpBuilder &builder, mlir::Location loc,
                     const Contraction &c,
                     llvm::DenseMap<mlir::Value, mlir::Value> &ivMap,
                     llvm::ArrayRef<mlir::Value> rows, mlir::ValueRange panels,
                     mlir::ValueRange accs);

/// `accs[r * panels.size() + v]` + broadcast(`scalars[r]`) * `panels[v]` for
/// each r and v, as vector.fma.
llvm::SmallVector<mlir::Value> buildMultiplyAdds(mlir::OpBuilder &builder,
                                                 mlir::Location loc,
                                                 mlir::ValueRange scalars,
                                                 mlir::ValueRange panels,
                                                 mlir::ValueRange accs);

/// Asks LLVM to unroll `loop` fully: LLVM unrolls no loop it is not asked
/// to (optimizeLLVMModule); the annotation reaches it through
/// pb-lower-affine and convert-scf-to-cf.
void requestLLVMFullUnroll(mlir::Operation *loop);

/// The tensor `value` transposed by `permutation` (result dim i is input
/// dim permutation[i]), as a linalg.transpose into a new empty tensor.
mlir::Value buildTranspose(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value,
                           llvm::ArrayRef<int64_t> permutation);

} // namespace polyblocks

#endif // POLYBLOCKS_TRANSFORMS_UTILS_IRBUILDERS_H
