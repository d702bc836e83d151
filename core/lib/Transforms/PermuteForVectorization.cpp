//===- PermuteForVectorization.cpp - Unit-stride innermost loops ----------===//
//
// Permutes perfect affine loop nests so that the innermost loop is a
// parallel loop along which most accesses are contiguous.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
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

/// Scores `iv` over the affine loads and stores of `body`.
static AccessScore scoreLoop(Value iv, Block *body) {
  AccessScore score;
  body->walk([&](Operation *op) {
    if (!isa<AffineReadOpInterface, AffineWriteOpInterface>(op))
      return;
    MemRefAccess access(op);
    AffineValueMap map;
    access.getAccessMap(&map);
    unsigned pos;
    for (pos = 0; pos < map.getNumOperands(); ++pos)
      if (map.getOperand(pos) == iv)
        break;
    if (pos == map.getNumOperands()) {
      ++score.invariant;
      return;
    }
    // Coefficient of the loop's dimension in each result.
    bool onlyLastMoves = true, lastMovesByOne = false;
    unsigned numResults = map.getNumResults();
    for (unsigned r = 0; r < numResults; ++r) {
      AffineExpr expr = map.getResult(r);
      if (!expr.isFunctionOfDim(pos))
        continue;
      // Moving the loop by one changes this subscript by `delta` if linear.
      AffineExpr shifted = expr.replaceDims(
          [&] {
            SmallVector<AffineExpr> dims;
            for (unsigned d = 0; d < map.getNumDims(); ++d)
              dims.push_back(getAffineDimExpr(d, expr.getContext()) +
                             (d == pos ? 1 : 0));
            return dims;
          }());
      AffineExpr delta = simplifyAffineExpr(shifted - expr, map.getNumDims(),
                                            map.getNumSymbols());
      auto constant = dyn_cast<AffineConstantExpr>(delta);
      if (r + 1 == numResults && constant && constant.getValue() == 1)
        lastMovesByOne = true;
      else
        onlyLastMoves = false;
    }
    if (onlyLastMoves && lastMovesByOne)
      ++score.contiguous;
    else
      ++score.strided;
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
    SmallVector<AffineForOp> roots;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto loop = dyn_cast<AffineForOp>(op))
        roots.push_back(loop);
    // Nests inside affine.parallel or other regions are handled too.
    getOperation().walk([&](AffineForOp loop) {
      if (!loop->getParentOfType<AffineForOp>() &&
          loop->getParentOp() != getOperation().getOperation())
        roots.push_back(loop);
    });
    for (AffineForOp root : roots)
      permuteNest(root);
  }

  void permuteNest(AffineForOp root) {
    SmallVector<AffineForOp> band;
    getPerfectlyNestedLoops(band, root);
    if (band.size() < 2 || !llvm::all_of(band, hasConstantBounds))
      return;
    Block *body = band.back().getBody();
    // The innermost body must hold no further loops.
    if (body->walk([](AffineForOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
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
