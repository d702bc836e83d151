//===- Contraction.h - Matching matmul-like loop nests ----------*- C++ -*-===//
//
// Recognises perfect affine nests that compute C += X * Y in the order
// pb-permute-for-vectorization gives them: parallel loops, the row loop i,
// reduction loops, the unit-stride column loop j.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_ANALYSIS_CONTRACTION_H
#define POLYBLOCKS_ANALYSIS_CONTRACTION_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace polyblocks {

/// A matched `C[..] += X[..] * Y[..]` nest.
struct Contraction {
  /// Parallel loops around the row loop (batch, output rows of a
  /// convolution), outermost first; empty for a matmul.
  llvm::SmallVector<mlir::affine::AffineForOp> outerLoops;
  mlir::affine::AffineForOp iLoop;
  /// The reduction loops, outermost first (k of a matmul; kh, kw, c of a
  /// convolution).
  llvm::SmallVector<mlir::affine::AffineForOp> kLoops;
  mlir::affine::AffineForOp jLoop;
  mlir::affine::AffineLoadOp accLoad;   ///< C, read
  mlir::affine::AffineStoreOp accStore; ///< C, written
  mlir::affine::AffineLoadOp
      rowLoad; ///< moves with i (and k), not with j: one scalar per row
  mlir::affine::AffineLoadOp
      panelLoad; ///< moves with k and j (unit stride), not with i
  mlir::Type elementType;
};

/// Matches the perfect nest rooted at `root`: zero-based unit-step loops
/// whose innermost body is `C[..] = C[..] + X[..] * Y[..]` on f32 or f64,
/// where C moves with the parallel loops and j (unit stride) but not with
/// the reduction loops, X is a scalar per row (moves with i, not j) and Y
/// a panel (moves with j at unit stride, with none of the parallel loops).
std::optional<Contraction> matchContraction(mlir::affine::AffineForOp root);

/// The vector multiply-adds of the rewritten nests' innermost step: for each
/// row value `rows[r]` (standing for the row loop), `accs[r]` +
/// broadcast(X[row r, ...]) * `panel`, as one vector.fma; X's other
/// induction variables come from `ivMap`, whose row entry this sets.
llvm::SmallVector<mlir::Value> buildRowMultiplyAdds(
    mlir::OpBuilder &builder, mlir::Location loc, const Contraction &c,
    llvm::DenseMap<mlir::Value, mlir::Value> &ivMap,
    llvm::ArrayRef<mlir::Value> rows, mlir::Value panel, mlir::ValueRange accs);

/// `accs[r]` + broadcast(`scalars[r]`) * `panel` for each r, as vector.fma.
llvm::SmallVector<mlir::Value> buildMultiplyAdds(mlir::OpBuilder &builder,
                                                 mlir::Location loc,
                                                 mlir::ValueRange scalars,
                                                 mlir::Value panel,
                                                 mlir::ValueRange accs);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_CONTRACTION_H
