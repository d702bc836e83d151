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

struct ForwardFillsPass
    : public polyblocks::impl::PBForwardFillsBase<ForwardFillsPass> {
  void runOnOperation() override {
    for (AffineForOp fill : polyblocks::getTopLevelLoops(getOperation()))
      tryForward(fill);
  }

  void tryForward(AffineForOp fillRoot) {
    std::optional<polyblocks::BufferFill> fill =
        polyblocks::matchBufferFill(fillRoot);
    if (!fill)
      return;
    Value buffer = fill->buffer;
    Value fillValue = fill->value;
    auto type = cast<MemRefType>(buffer.getType());

    // The next op that touches the buffer or a view of it (made before the
    // fill or not).
    Value base = polyblocks::getBaseBuffer(buffer);
    Operation *next = fillRoot->getNextNode();
    while (next && !polyblocks::touchesBuffer(next, base))
      next = next->getNextNode();
    auto readerRoot = dyn_cast_or_null<AffineForOp>(next);
    if (!readerRoot)
      return;
    SmallVector<AffineForOp> band =
        polyblocks::getFullBand(readerRoot, type.getShape());
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
      if (!polyblocks::touchesBuffer(&op, base))
        continue;
      // Through a view: another element than the one the nest updates.
      if (!llvm::is_contained(op.getOperands(), buffer))
        return;
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
        if (!polyblocks::indexesOneToOne(map, operands, band, type.getShape()))
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
