//===- LoopNests.cpp - Finding the affine loop nests S3 works on ----------===//

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::affine;

namespace polyblocks {

SmallVector<AffineForOp> getOutermostLoops(func::FuncOp func) {
  SmallVector<AffineForOp> loops;
  func.walk<WalkOrder::PreOrder>([&](AffineForOp loop) {
    loops.push_back(loop);
    return WalkResult::skip(); // loops inside it are not outermost
  });
  return loops;
}

SmallVector<AffineForOp> getTopLevelLoops(func::FuncOp func) {
  return llvm::to_vector(func.getBody().getOps<AffineForOp>());
}

bool containsLoop(Block *block) {
  return block->walk([](AffineForOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::optional<int64_t> getZeroBasedTripCount(AffineForOp loop) {
  if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
      loop.getStepAsInt() != 1)
    return std::nullopt;
  return loop.getConstantUpperBound();
}

int64_t getLargestDivisorAtMost(int64_t n, int64_t limit) {
  int64_t divisor = std::max<int64_t>(1, std::min(limit, n));
  while (n % divisor != 0)
    --divisor;
  return divisor;
}

bool isParallelLoop(AffineForOp loop) {
  if (loop.getNumIterOperands() != 0)
    return false;
  DenseSet<Value> local;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op))
      local.insert(op->getResult(0));
  });
  SmallVector<Operation *> accesses;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (auto read = dyn_cast<AffineReadOpInterface>(op)) {
      if (!local.contains(read.getMemRef()))
        accesses.push_back(op);
      return WalkResult::advance();
    }
    if (auto write = dyn_cast<AffineWriteOpInterface>(op)) {
      if (!local.contains(write.getMemRef()))
        accesses.push_back(op);
      return WalkResult::advance();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      return local.contains(dealloc.getMemref()) ? WalkResult::advance()
                                                 : WalkResult::interrupt();
    if (isa<AffineForOp, AffineIfOp, AffineYieldOp>(op) ||
        isMemoryEffectFree(op) || hasSingleEffect<MemoryEffects::Allocate>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return false;
  unsigned depth = getNestingDepth(loop) + 1;
  for (Operation *src : accesses) {
    MemRefAccess srcAccess(src);
    for (Operation *dst : accesses) {
      MemRefAccess dstAccess(dst);
      DependenceResult result =
          checkMemrefAccessDependence(srcAccess, dstAccess, depth);
      if (result.value != DependenceResult::NoDependence)
        return false;
    }
  }
  return true;
}

} // namespace polyblocks
