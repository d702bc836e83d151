//===- AccessPattern.h - How affine accesses move with loops ----*- C++ -*-===//
//
// The access analysis shared by S3's loop-order and register-tiling passes.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H
#define POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace polyblocks {

/// How an affine load or store moves when one loop advances by one
/// iteration.
enum class AccessStride {
  /// The address does not depend on the loop.
  Invariant,
  /// Only the last subscript moves, by exactly one element.
  Contiguous,
  /// Anything else: another subscript moves, or the last by more than one.
  Strided,
};

/// Classifies the access of `accessOp` (an affine read or write op) with
/// respect to the induction variable `iv`.
AccessStride getAccessStride(mlir::Operation *accessOp, mlir::Value iv);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H
