//===- UnrollShortLoops.cpp - Fully unroll short innermost loops ----------===//
//
// Fully unrolls innermost affine.for loops whose constant trip count is at
// most `max-trip-count`, so that scalar replacement can keep accumulators in
// registers and the enclosing loop becomes the innermost one.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-unroll-short-loops"

namespace polyblocks {
#define GEN_PASS_DEF_PBUNROLLSHORTLOOPS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;
using polyblocks::AccessStride;
using polyblocks::getAccessStride;

namespace {

/// True if `loop` is a reduction loop of a matmul-like nest: the stored
/// value does not move with it, and some load moves with it, at unit stride
/// with a loop the store also moves with at unit stride (the columns), and
/// not at all with another loop the store moves with (so it is reused
/// across rows, like a matmul's right-hand side or a convolution's filter).
/// Such a loop is left for pb-register-tile-contraction: unrolled, it would
/// hide the contraction (the 3 channels of an RGB convolution).
static bool isContractionReduction(AffineForOp loop) {
  SmallVector<AffineForOp> enclosing;
  getAffineForIVs(*loop, &enclosing);
  Block *body = loop.getBody();
  SmallVector<AffineStoreOp> stores(body->getOps<AffineStoreOp>());
  if (stores.size() != 1)
    return false;
  AffineStoreOp store = stores.front();
  Value k = loop.getInductionVar();
  if (getAccessStride(store, k) != AccessStride::Invariant)
    return false;
  return llvm::any_of(body->getOps<AffineLoadOp>(), [&](AffineLoadOp load) {
    if (load.getMemRef() == store.getMemRef() ||
        getAccessStride(load, k) == AccessStride::Invariant)
      return false;
    bool sharedColumns = false, reusedAcrossRows = false;
    for (AffineForOp outer : enclosing) {
      Value iv = outer.getInductionVar();
      AccessStride storeStride = getAccessStride(store, iv);
      AccessStride loadStride = getAccessStride(load, iv);
      if (storeStride == AccessStride::Contiguous &&
          loadStride == AccessStride::Contiguous)
        sharedColumns = true;
      if (storeStride != AccessStride::Invariant &&
          loadStride == AccessStride::Invariant &&
          getConstantTripCount(outer).value_or(0) > 1)
        reusedAcrossRows = true;
    }
    return sharedColumns && reusedAcrossRows;
  });
}

/// True if the body of `loop` computes on vectors: a pass before this one
/// built it vectorized (the channel loop of a Winograd transform, 36 vector
/// loads per iteration), and unrolling it would only copy that body.
static bool computesOnVectors(AffineForOp loop) {
  return llvm::any_of(loop.getBody()->getOperations(), [](Operation &op) {
    return llvm::any_of(op.getResultTypes(), llvm::IsaPred<VectorType>);
  });
}

struct UnrollShortLoopsPass
    : public polyblocks::impl::PBUnrollShortLoopsBase<UnrollShortLoopsPass> {
  using PBUnrollShortLoopsBase::PBUnrollShortLoopsBase;

  void runOnOperation() override {
    SmallVector<AffineForOp> candidates;
    getOperation().walk([&](AffineForOp loop) {
      std::optional<uint64_t> trips = getConstantTripCount(loop);
      if (trips && *trips <= maxTripCount &&
          !polyblocks::containsLoop(loop.getBody()) &&
          !isContractionReduction(loop) && !computesOnVectors(loop))
        candidates.push_back(loop);
    });
    for (AffineForOp loop : candidates) {
      if (failed(loopUnrollFull(loop)))
        LLVM_DEBUG(llvm::dbgs() << "not unrolling: " << loop << "\n");
    }
  }
};

} // namespace
