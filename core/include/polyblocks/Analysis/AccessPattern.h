//===- AccessPattern.h - How affine accesses move with loops ----*- C++ -*-===//
//
// The access analysis shared by S3's loop-order and register-tiling passes.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H
#define POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

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

/// Classifies the access of `accessOp` by how its address moves with `iv`,
/// through the memref's strides: Contiguous when it moves by one element
/// whichever subscript carries it (`%v[%c, 0, 0]` of a memref<256x1x1xf32>
/// along `%c`), Invariant when it does not move. What the cache and LLVM's
/// vectorizer see; not a subscript an `affine.vector_load` can take.
AccessStride getAddressStride(mlir::Operation *accessOp, mlir::Value iv);

/// How many elements the address of `accessOp` moves by when `iv` advances
/// by one (0: it does not move), through the memref's strides; none when
/// that is not a constant.
std::optional<int64_t> getAddressDelta(mlir::Operation *accessOp,
                                       mlir::Value iv);

/// True if `value` is an argument of a public function: an entry point,
/// called through the C interface, whose contract is that a result buffer
/// overlaps no other argument and inputs are only read. A private
/// function's caller may pass it one buffer twice.
bool isEntryPointArgument(mlir::Value value);

/// True if `memref` is a whole buffer of its own: a memref.alloc or
/// memref.alloca result, a constant global (never written), or an argument
/// of an entry point (isEntryPointArgument). Two different such values
/// never overlap when one of them is written, so accesses to them can be
/// compared by value.
bool isDistinctBuffer(mlir::Value memref);

/// The affine loads and stores inside an op (a loop nest), by buffer.
struct BufferAccesses {
  llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Operation *>> byBuffer;
  llvm::SmallDenseSet<mlir::Value> read, written;
};

/// Collects the affine loads and stores in the regions of `root`. Fails
/// when something there touches memory in another way (a call, a view, an
/// allocation) or accesses a buffer that is not distinct (see
/// isDistinctBuffer): then accesses cannot be compared buffer by buffer.
mlir::FailureOr<BufferAccesses> collectBufferAccesses(mlir::Operation *root);

/// If the `dim`-th subscript of the affine access `accessOp` is `iv + c`
/// (c a constant, no other operand involved), returns c.
std::optional<int64_t> getSubscriptOffset(mlir::Operation *accessOp,
                                          unsigned dim, mlir::Value iv);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_ACCESSPATTERN_H
