//===- PermuteForVectorization.cpp - Unit-stride innermost loops ----------===//
//
// Permutes perfect affine loop nests so that the innermost loop is a
// parallel loop along which most accesses are contiguous.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-permute-for-vectorization"

namespace polyblocks {
#define GEN_PASS_DEF_PBPERMUTEFORVECTORIZATION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// How the iterations of one loop touch memory.
struct AccessScore {
  unsigned contiguous = 0;
  unsigned invariant = 0;
  unsigned strided = 0;

  /// Better for the innermost position: fewer strided accesses (each one
  /// touches a new cache line per iteration), then more contiguous ones.
  bool betterThan(const AccessScore &other) const {
    if (strided != other.strided)
      return strided < other.strided;
    return contiguous > other.contiguous;
  }
};

/// Scores `iv` over the affine loads and stores of `body`, by how their
/// addresses move: a per-channel vector read as `%v[%c, 0, 0]` is as
/// contiguous along `%c` as `%x[.., %c]`.
static AccessScore scoreLoop(Value iv, Block *body) {
  AccessScore score;
  body->walk([&](Operation *op) {
    if (!isa<AffineReadOpInterface, AffineWriteOpInterface>(op))
      return;
    switch (polyblocks::getAddressStride(op, iv)) {
    case polyblocks::AccessStride::Invariant:
      ++score.invariant;
      break;
    case polyblocks::AccessStride::Contiguous:
      ++score.contiguous;
      break;
    case polyblocks::AccessStride::Strided:
      ++score.strided;
      break;
    }
  });
  return score;
}

static bool hasConstantBounds(AffineForOp loop) {
  return loop.hasConstantLowerBound() && loop.hasConstantUpperBound();
}

struct PermuteForVectorizationPass
    : public polyblocks::impl::PBPermuteForVectorizationBase<
          PermuteForVectorizationPass> {
  void runOnOperation() override {
    for (AffineForOp root : polyblocks::getOutermostLoops(getOperation()))
      permuteNest(root);
  }

  void permuteNest(AffineForOp root) {
    SmallVector<AffineForOp> band;
    getPerfectlyNestedLoops(band, root);
    if (band.size() < 2 || !llvm::all_of(band, hasConstantBounds))
      return;
    Block *body = band.back().getBody();
    // The innermost body must hold no further loops.
    if (polyblocks::containsLoop(body))
      return;

    unsigned innermost = band.size() - 1;
    unsigned best = innermost;
    AccessScore bestScore = scoreLoop(band[innermost].getInductionVar(), body);
    for (unsigned d = 0; d < innermost; ++d) {
      AccessScore score = scoreLoop(band[d].getInductionVar(), body);
      if (score.betterThan(bestScore) && isLoopParallel(band[d])) {
        best = d;
        bestScore = score;
      }
    }
    if (best == innermost)
      return;

    // Loop `best` goes innermost; the others keep their order.
    SmallVector<unsigned> permutation(band.size());
    for (unsigned d = 0; d < band.size(); ++d)
      permutation[d] = d < best ? d : d - 1;
    permutation[best] = innermost;
    if (!isValidLoopInterchangePermutation(band, permutation)) {
      LLVM_DEBUG(llvm::dbgs() << "not permuting: dependences forbid it\n");
      return;
    }
    permuteLoops(band, permutation);
  }
};

} // namespace
