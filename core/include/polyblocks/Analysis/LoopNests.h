//===- LoopNests.h - Finding the affine loop nests S3 works on --*- C++ -*-===//

#ifndef POLYBLOCKS_ANALYSIS_LOOPNESTS_H
#define POLYBLOCKS_ANALYSIS_LOOPNESTS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace polyblocks {

/// The affine.for loops of `func` that no other affine.for encloses (also
/// those inside affine.parallel or other regions), in program order.
llvm::SmallVector<mlir::affine::AffineForOp>
getOutermostLoops(mlir::func::FuncOp func);

/// The affine.for loops of `func` that only sequential loops (scf.for,
/// scf.while) enclose, if anything: those directly in its body and those
/// of loops over them (pb-tile-batch's loop over the images), in program
/// order.
llvm::SmallVector<mlir::affine::AffineForOp>
getSequentialRootLoops(mlir::func::FuncOp func);

/// The affine.for loops directly in the body of `func`, in program order.
llvm::SmallVector<mlir::affine::AffineForOp>
getTopLevelLoops(mlir::func::FuncOp func);

/// True if `block` contains an affine.for at any depth.
bool containsLoop(mlir::Block *block);

/// The trip count of `for %i = 0 to C` (constant C, unit step); none for
/// other bounds or steps.
std::optional<int64_t> getZeroBasedTripCount(mlir::affine::AffineForOp loop);

/// The largest divisor of `n` that is at most `limit` (at least 1): the
/// block of a loop of `n` iterations that cuts it into whole blocks.
int64_t getLargestDivisorAtMost(int64_t n, int64_t limit);

/// A parallel loop with fewer iterations than this leaves threads idle (3
/// channels on 2 threads: one thread does two): the parallelizer takes its
/// parallel child instead, and fusion only fuses it together with its
/// child.
inline constexpr uint64_t kFewParallelIterations = 8;

/// True if the iterations of `loop` are independent: no loop-carried value
/// and no dependence through memory between two iterations. Like upstream
/// isLoopParallel, but a buffer allocated in the loop body and freed there
/// (a tile buffer) belongs to one iteration and is not looked at.
bool isParallelLoop(mlir::affine::AffineForOp loop);

/// The perfect band at `root` if it walks the whole of a memref of `shape`:
/// one zero-based unit-step loop per dimension, as many iterations as the
/// dimension has elements (in any order); empty otherwise.
llvm::SmallVector<mlir::affine::AffineForOp>
getFullBand(mlir::affine::AffineForOp root, llvm::ArrayRef<int64_t> shape);

/// The affine map and its operands that `access` (an affine read or write)
/// addresses its buffer with.
std::pair<mlir::AffineMap, mlir::ValueRange>
getAccessMap(mlir::Operation *access);

/// The buffer `memref` is a view of (through reshapes, subviews, views),
/// or `memref` itself.
mlir::Value getBaseBuffer(mlir::Value memref);

/// True if `op`, or an op inside it, has an operand that is `base` or a
/// view of it (`base` as getBaseBuffer returns it).
bool touchesBuffer(mlir::Operation *op, mlir::Value base);

/// True if `map` with `operands` indexes each dimension d of `shape` by
/// exactly one loop of `band` whose trip count is the size of d, every loop
/// used once.
bool indexesOneToOne(mlir::AffineMap map, mlir::ValueRange operands,
                     llvm::ArrayRef<mlir::affine::AffineForOp> band,
                     llvm::ArrayRef<int64_t> shape);

/// A nest that stores one value, defined outside it, into every element of
/// a statically shaped buffer: `for %i, %j, .. { store %v, %buffer[%i, %j,
/// ..] }` (linalg.fill, bufferized).
struct BufferFill {
  mlir::affine::AffineStoreOp store;
  mlir::Value buffer;
  mlir::Value value;
};
std::optional<BufferFill> matchBufferFill(mlir::affine::AffineForOp root);

/// The fill the accumulators of a nest at `root` could start from instead
/// of reading C, C being what `accStore` writes: the nest reads C only at
/// the element it writes (`accLoad`, the same map and operands), writes
/// every element of C once (the loops of `band` index it one to one), no
/// buffer of `reads` (the nest's factors) is a view of C, and the last op
/// before `root` that touches C or a view of it (touchesBuffer) is a fill
/// of C itself. None otherwise. (pb-register-tile-contraction and
/// pb-register-tile-depthwise fold that fill into their accumulators.)
std::optional<std::pair<mlir::affine::AffineForOp, BufferFill>>
findAccumulatorFill(mlir::Operation *root, mlir::affine::AffineLoadOp accLoad,
                    mlir::affine::AffineStoreOp accStore,
                    llvm::ArrayRef<mlir::affine::AffineForOp> band,
                    mlir::ValueRange reads);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_LOOPNESTS_H
