//===- UnrollShortLoops.cpp - Fully unroll short innermost loops ----------===//
//
// Fully unrolls innermost affine.for loops whose constant trip count is at
// most `max-trip-count`, so that scalar replacement can keep accumulators in
// registers and the enclosing loop becomes the innermost one.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-unroll-short-loops"

namespace polyblocks {
#define GEN_PASS_DEF_PBUNROLLSHORTLOOPS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

struct UnrollShortLoopsPass
    : public polyblocks::impl::PBUnrollShortLoopsBase<UnrollShortLoopsPass> {
  using PBUnrollShortLoopsBase::PBUnrollShortLoopsBase;

  void runOnOperation() override {
    SmallVector<AffineForOp> candidates;
    getOperation().walk([&](AffineForOp loop) {
      std::optional<uint64_t> trips = getConstantTripCount(loop);
      if (trips && *trips <= maxTripCount &&
          !polyblocks::containsLoop(loop.getBody()))
        candidates.push_back(loop);
    });
    for (AffineForOp loop : candidates) {
      if (failed(loopUnrollFull(loop)))
        LLVM_DEBUG(llvm::dbgs() << "not unrolling: " << loop << "\n");
    }
  }
};

} // namespace
