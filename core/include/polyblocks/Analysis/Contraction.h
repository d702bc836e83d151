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

/// A perfect band of zero-based unit-step loops whose innermost body is
/// `C[..] = C[..] + X[..] * Y[..]` on f32 or f64, neither factor read from C:
/// the shape shared by contractions and depthwise convolutions.
struct MultiplyAccumulateNest {
  llvm::SmallVector<mlir::affine::AffineForOp> band;
  mlir::affine::AffineLoadOp accLoad;
  mlir::affine::AffineStoreOp accStore;
  /// The factors, in the multiplication's order.
  mlir::affine::AffineLoadOp lhs, rhs;
  mlir::Type elementType;
};

/// Matches the perfect nest rooted at `root` (at least `minLoops` loops).
std::optional<MultiplyAccumulateNest>
matchMultiplyAccumulateNest(mlir::affine::AffineForOp root, unsigned minLoops);

/// Whether C's subscripts move with `loop`. The access analysis folds the
/// induction variable of a single-iteration loop to a constant: such a loop
/// moves C when C's indices use it (a batch of 1), not otherwise (the 1 x 1
/// window of a pointwise convolution).
bool movesAccumulator(const MultiplyAccumulateNest &nest,
                      mlir::affine::AffineForOp loop);

/// The band but its innermost loop is the loops C moves with (parallel),
/// then at least one it does not move with (reductions): the number of
/// parallel loops, or nullopt when the band is not in that order.
std::optional<unsigned> countParallelLoops(const MultiplyAccumulateNest &nest);

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
  /// How many of the outer loops, outermost first, the panel moves with
  /// (the batch of a batched matmul: each batch has panels of its own);
  /// it moves with none of the others.
  unsigned numPanelBatchLoops = 0;
};

/// Matches the perfect nest rooted at `root`: zero-based unit-step loops
/// whose innermost body is `C[..] = C[..] + X[..] * Y[..]` on f32 or f64,
/// where C moves with the parallel loops and j (unit stride) but not with
/// the reduction loops, X is a scalar per row (moves with i, not j) and Y
/// a panel (moves with j at unit stride, not with i, and with none of the
/// outer loops but a leading few: a batch).
std::optional<Contraction> matchContraction(mlir::affine::AffineForOp root);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_CONTRACTION_H
