//===- ForwardFills.cpp - Fold buffer fills into their first reader -------===//
//
// Removes a nest that fills a buffer with one value when the next nest to
// touch the buffer reads every element once before rewriting it: the read
// becomes the fill value.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-forward-fills"

namespace polyblocks {
#define GEN_PASS_DEF_PBFORWARDFILLS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The perfect band at `root` if it walks the whole of a memref of `shape`:
/// one loop per dimension, from 0 to the dimension's size, step 1.
static SmallVector<AffineForOp> getFullBand(AffineForOp root,
                                            ArrayRef<int64_t> shape) {
  SmallVector<AffineForOp> band;
  getPerfectlyNestedLoops(band, root);
  if (band.size() != shape.size())
    return {};
  SmallVector<int64_t> trips;
  for (AffineForOp loop : band) {
    if (!loop.hasConstantLowerBound() || loop.getConstantLowerBound() != 0 ||
        !loop.hasConstantUpperBound() || loop.getStepAsInt() != 1)
      return {};
    trips.push_back(loop.getConstantUpperBound());
  }
  // Each dimension must be walked by one loop of the same size; the access
  // check below pins which loop indexes which dimension.
  SmallVector<int64_t> sortedTrips(trips), sortedShape(shape);
  llvm::sort(sortedTrips);
  llvm::sort(sortedShape);
  if (sortedTrips != sortedShape)
    return {};
  return band;
}

/// True if `map` with `operands` indexes dimension d by exactly one loop of
/// `band` whose trip count is the size of d, every loop used once.
static bool indexesOneToOne(AffineMap map, ValueRange operands,
                            ArrayRef<AffineForOp> band,
                            ArrayRef<int64_t> shape) {
  if (map.getNumResults() != shape.size())
    return false;
  llvm::SmallPtrSet<Operation *, 4> used;
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    Value iv = operands[dim.getPosition()];
    AffineForOp loop = getForInductionVarOwner(iv);
    if (!loop || !llvm::is_contained(band, loop) ||
        loop.getConstantUpperBound() != shape[d] ||
        !used.insert(loop.getOperation()).second)
      return false;
  }
  return true;
}

struct ForwardFillsPass
    : public polyblocks::impl::PBForwardFillsBase<ForwardFillsPass> {
  void runOnOperation() override {
    for (AffineForOp fill : polyblocks::getTopLevelLoops(getOperation()))
      tryForward(fill);
  }

  void tryForward(AffineForOp fillRoot) {
    // The fill: a full band whose body only stores one outside value.
    SmallVector<AffineForOp> probe;
    getPerfectlyNestedLoops(probe, fillRoot);
    Block *fillBody = probe.back().getBody();
    if (fillBody->getOperations().size() != 2)
      return;
    auto fillStore = dyn_cast<AffineStoreOp>(fillBody->front());
    if (!fillStore)
      return;
    Value buffer = fillStore.getMemRef();
    Value fillValue = fillStore.getValue();
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
        fillRoot->isAncestor(fillValue.getParentBlock()->getParentOp()))
      return;
    SmallVector<AffineForOp> fillBand = getFullBand(fillRoot, type.getShape());
    if (fillBand.empty() ||
        !indexesOneToOne(fillStore.getAffineMap(), fillStore.getMapOperands(),
                         fillBand, type.getShape()))
      return;

    // The next op that touches the buffer.
    Operation *next = fillRoot->getNextNode();
    for (; next; next = next->getNextNode()) {
      bool uses = false;
      next->walk([&](Operation *op) {
        uses |= llvm::is_contained(op->getOperands(), buffer);
      });
      if (uses)
        break;
    }
    auto readerRoot = dyn_cast_or_null<AffineForOp>(next);
    if (!readerRoot)
      return;
    SmallVector<AffineForOp> band = getFullBand(readerRoot, type.getShape());
    if (band.empty())
      return;
    Block *body = band.back().getBody();
    // Straight-line body; every access to the buffer is one-to-one, all the
    // same element; the first one is a read and a write follows.
    AffineLoadOp firstRead;
    bool sawAccess = false, sawWrite = false;
    AffineMap accessMap;
    SmallVector<Value> accessOperands;
    for (Operation &op : body->without_terminator()) {
      if (op.getNumRegions() != 0)
        return;
      if (!llvm::is_contained(op.getOperands(), buffer))
        continue;
      AffineMap map;
      ValueRange operands;
      if (auto load = dyn_cast<AffineLoadOp>(op)) {
        map = load.getAffineMap();
        operands = load.getMapOperands();
        if (!sawAccess)
          firstRead = load;
      } else if (auto store = dyn_cast<AffineStoreOp>(op)) {
        if (store.getValue() == buffer)
          return;
        map = store.getAffineMap();
        operands = store.getMapOperands();
        sawWrite = true;
      } else {
        return;
      }
      if (!sawAccess) {
        if (!indexesOneToOne(map, operands, band, type.getShape()))
          return;
        accessMap = map;
        accessOperands.assign(operands.begin(), operands.end());
      } else if (map != accessMap || !llvm::equal(operands, accessOperands)) {
        return;
      }
      sawAccess = true;
    }
    if (!firstRead || !sawWrite)
      return;
    LLVM_DEBUG(llvm::dbgs() << "forwarding fill of " << buffer << "\n");
    firstRead.getResult().replaceAllUsesWith(fillValue);
    firstRead.erase();
    fillRoot.erase();
  }
};

} // namespace
