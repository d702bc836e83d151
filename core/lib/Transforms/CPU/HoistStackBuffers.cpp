//===- HoistStackBuffers.cpp - One stack buffer per thread ----------------===//
//
// Moves static memref.alloca ops out of sequential loops, up to the innermost
// enclosing parallel loop or allocation scope, so that they are allocated
// once per thread rather than on every iteration.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-hoist-stack-buffers"

namespace polyblocks {
#define GEN_PASS_DEF_PBHOISTSTACKBUFFERS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The outermost sequential loop around `alloca` below its innermost
/// enclosing parallel loop, allocation scope or function; null if none.
static Operation *getOutermostSequentialLoop(memref::AllocaOp alloca) {
  Operation *outermost = nullptr;
  for (Operation *op = alloca->getParentOp(); op; op = op->getParentOp()) {
    if (isa<affine::AffineParallelOp, scf::ParallelOp, scf::ForallOp,
            memref::AllocaScopeOp, FunctionOpInterface>(op))
      break;
    if (isa<affine::AffineForOp, scf::ForOp, scf::WhileOp>(op))
      outermost = op;
  }
  return outermost;
}

struct HoistStackBuffersPass
    : public polyblocks::impl::PBHoistStackBuffersBase<HoistStackBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation().walk([&](memref::AllocaOp alloca) {
      if (alloca->getNumOperands() == 0 && alloca.getType().hasStaticShape())
        allocas.push_back(alloca);
    });
    for (memref::AllocaOp alloca : allocas) {
      if (Operation *loop = getOutermostSequentialLoop(alloca)) {
        LLVM_DEBUG(llvm::dbgs() << "hoisting " << alloca << "\n");
        alloca->moveBefore(loop);
      }
    }
  }
};

} // namespace
