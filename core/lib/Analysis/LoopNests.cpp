//===- LoopNests.cpp - Finding the affine loop nests S3 works on ----------===//

#include "polyblocks/Analysis/LoopNests.h"

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

} // namespace polyblocks
