//===- ParallelizeOuterLoops.cpp - One parallel loop per large nest -------===//
//
// Turns the outermost dependence-free loop of each top-level nest into
// affine.parallel when the nest does enough work to be worth several
// threads.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/IR/Decisions.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-parallelize-outer-loops"

namespace polyblocks {
#define GEN_PASS_DEF_PBPARALLELIZEOUTERLOOPS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The trip count of `loop` when it is a constant; for a loop with a min
/// upper bound (a tile clipped at the end of its dimension), the full
/// tile's: the smallest constant among the candidates; for bounds that
/// depend on one enclosing loop of constant bounds (a block of tiles), the
/// mean over that loop's iterations, rounded up.
static std::optional<uint64_t> getTripCount(AffineForOp loop) {
  if (std::optional<uint64_t> trips = getConstantTripCount(loop))
    return trips;
  AffineMap map;
  SmallVector<Value> operands;
  getTripCountMapAndOperands(loop, &map, &operands);
  if (!map || map.getNumResults() == 0)
    return std::nullopt;
  if (map.getNumResults() == 1 && operands.size() == 1 &&
      map.getNumDims() == 1) {
    AffineForOp outer = getForInductionVarOwner(operands.front());
    if (outer && outer.hasConstantBounds() &&
        outer.getConstantUpperBound() - outer.getConstantLowerBound() <= 4096) {
      uint64_t total = 0, count = 0;
      for (int64_t iv = outer.getConstantLowerBound();
           iv < outer.getConstantUpperBound(); iv += outer.getStepAsInt()) {
        AffineExpr expr = map.getResult(0).replaceDims(
            {getAffineConstantExpr(iv, loop.getContext())});
        auto constant =
            dyn_cast<AffineConstantExpr>(simplifyAffineExpr(expr, 0, 0));
        if (!constant)
          return std::nullopt;
        total += std::max<int64_t>(0, constant.getValue());
        ++count;
      }
      if (count != 0)
        return llvm::divideCeil(total, count);
    }
  }
  std::optional<uint64_t> smallest;
  for (AffineExpr result : map.getResults()) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (!constant)
      continue;
    uint64_t trips = std::max<int64_t>(0, constant.getValue());
    smallest = smallest ? std::min(*smallest, trips) : trips;
  }
  return smallest;
}

/// Iterations of the innermost loops of the nest rooted at `loop`, counting
/// unknown trip counts as 1 (an underestimate keeps small nests serial). An
/// iteration of a micro-kernel's reduction loop, R vector multiply-adds,
/// counts R: the rows of a register tile, each as much work as an
/// iteration of an elementwise loop. (Counted as one, a matmul's nest
/// weighed as little as an elementwise nest over its result: once that
/// nest was fused into its tiles, a 256 x 256 x 128 matmul fell under the
/// function's threshold.)
static uint64_t countInnermostIterations(AffineForOp loop) {
  uint64_t trips = getTripCount(loop).value_or(1);
  uint64_t inner = 0;
  bool hasInner = false;
  uint64_t multiplyAdds = 0;
  for (Operation &op : *loop.getBody()) {
    if (auto child = dyn_cast<AffineForOp>(op)) {
      inner += countInnermostIterations(child);
      hasInner = true;
    } else if (isa<vector::FMAOp>(op)) {
      ++multiplyAdds;
    }
  }
  return trips * (hasInner ? inner : std::max<uint64_t>(1, multiplyAdds));
}

/// The only loop directly inside `loop`, if there is exactly one.
static AffineForOp getOnlyChildLoop(AffineForOp loop) {
  AffineForOp child;
  for (Operation &op : *loop.getBody()) {
    if (auto inner = dyn_cast<AffineForOp>(op)) {
      if (child)
        return {};
      child = inner;
    }
  }
  return child;
}

/// The loops to run in parallel in the nest at `loop`: the loop itself if it
/// can run in parallel and has at least two iterations (or its parallel
/// child, see kFewParallelIterations), else those of each nest inside it (a
/// single one, or several: a k block that packs an operand, then computes
/// with it).
static void findParallelLoops(AffineForOp loop,
                              SmallVectorImpl<AffineForOp> &found) {
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  if ((trips && *trips < 2) || !polyblocks::isParallelLoop(loop)) {
    for (AffineForOp child : loop.getBody()->getOps<AffineForOp>())
      findParallelLoops(child, found);
    return;
  }
  if (trips && *trips < polyblocks::kFewParallelIterations)
    if (AffineForOp child = getOnlyChildLoop(loop)) {
      std::optional<uint64_t> childTrips = getConstantTripCount(child);
      if (childTrips && *childTrips >= polyblocks::kFewParallelIterations &&
          polyblocks::isParallelLoop(child)) {
        found.push_back(child);
        return;
      }
    }
  found.push_back(loop);
}

/// True if every loop around `loop`, up to `root`, has a single iteration.
/// (A nest in a loop over images, pb-tile-batch's, counts as entered once:
/// each entry does one image's work, as at batch 1.)
static bool isEnteredOnce(AffineForOp loop, AffineForOp root) {
  for (AffineForOp outer = loop; outer != root;) {
    outer = outer->getParentOfType<AffineForOp>();
    std::optional<uint64_t> trips = getConstantTripCount(outer);
    if (!trips || *trips != 1)
      return false;
  }
  return true;
}

struct ParallelizeOuterLoopsPass
    : public polyblocks::impl::PBParallelizeOuterLoopsBase<
          ParallelizeOuterLoopsPass> {
  using PBParallelizeOuterLoopsBase::PBParallelizeOuterLoopsBase;

  void runOnOperation() override {
    // A function whose nests all together do less work than waking the
    // threads is worth runs on the calling thread.
    SmallVector<AffineForOp> roots =
        polyblocks::getSequentialRootLoops(getOperation());
    uint64_t total = 0;
    for (AffineForOp root : roots)
      total += countInnermostIterations(root);
    if (total < minFunctionIterations) {
      Builder b(&getContext());
      for (AffineForOp root : roots)
        polyblocks::recordDecision(
            root, DEBUG_TYPE,
            "sequential: the function does " + std::to_string(total) +
                " innermost iterations in all, fewer than the " +
                std::to_string(minFunctionIterations) +
                " worth waking the threads for",
            {{"work", b.getI64IntegerAttr(total)}});
      return;
    }
    for (AffineForOp root : roots) {
      SmallVector<AffineForOp> loops;
      findParallelLoops(root, loops);
      if (loops.empty())
        polyblocks::recordDecision(root, DEBUG_TYPE,
                                   "sequential: every loop carries a "
                                   "dependence, or has a single iteration");
      Operation *nestRoot = root;
      for (AffineForOp loop : loops) {
        // Each entry into a parallel loop wakes the threads: it must do
        // enough work on its own.
        uint64_t work = countInnermostIterations(loop);
        bool once = isEnteredOnce(loop, root);
        uint64_t threshold = once ? minIterations : minIterationsNested;
        std::optional<uint64_t> trips = getTripCount(loop);
        Builder b(loop.getContext());
        if (work < threshold) {
          LLVM_DEBUG(llvm::dbgs() << "not parallelizing: " << work
                                  << " iterations are too few\n");
          polyblocks::recordDecision(
              nestRoot, DEBUG_TYPE,
              "sequential: the parallel loop does " + std::to_string(work) +
                  " innermost iterations per entry, fewer than the " +
                  std::to_string(threshold) + " worth waking the threads" +
                  (once ? "" : " for a loop entered repeatedly"),
              {{"work", b.getI64IntegerAttr(work)}});
          continue;
        }
        bool isRoot = loop == root;
        std::string summary =
            "parallel over the threads: a loop of " +
            (trips ? std::to_string(*trips) : std::string("?")) +
            " iterations" + (isRoot ? "" : " inside the nest") + ", " +
            std::to_string(work) + " innermost iterations of work";
        // The decisions on the loop outlive it.
        Attribute decisions = loop->getAttr(polyblocks::kDecisionsAttrName);
        AffineParallelOp parallel;
        if (failed(affineParallelize(loop, {}, &parallel))) {
          LLVM_DEBUG(llvm::dbgs() << "affineParallelize failed\n");
          continue;
        }
        if (isRoot) {
          if (decisions)
            parallel->setAttr(polyblocks::kDecisionsAttrName, decisions);
          nestRoot = parallel;
        }
        polyblocks::recordDecision(nestRoot, DEBUG_TYPE, summary,
                                   {{"work", b.getI64IntegerAttr(work)}});
      }
    }
  }
};

} // namespace
