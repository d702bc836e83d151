//===- PromoteAccumulators.cpp - Keep memory accumulators in registers ----===//
//
// Turns an accumulator that a loop loads and stores at a loop-invariant
// address on every iteration into a loop-carried value (iter_args), loaded
// before the loop and stored after it. Reductions then run in registers,
// and their add/mul is marked reassociable so they can be vectorized.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "pb-promote-accumulators"

namespace polyblocks {
#define GEN_PASS_DEF_PBPROMOTEACCUMULATORS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// A load and a store of the same loop-invariant element, the only
/// accesses to their buffer in the loop.
struct Accumulator {
  AffineLoadOp load;
  AffineStoreOp store;
};

/// True if the address `access` reads or writes does not change in `loop`.
static bool isInvariantIn(Operation *access, AffineForOp loop) {
  MemRefAccess ref(access);
  return loop.isDefinedOutsideOfLoop(ref.memref) &&
         llvm::all_of(ref.indices,
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); });
}

/// Finds one accumulator of `loop`, if any.
static std::optional<Accumulator> findAccumulator(AffineForOp loop) {
  FailureOr<polyblocks::BufferAccesses> accessesOfLoop =
      polyblocks::collectBufferAccesses(loop);
  if (failed(accessesOfLoop))
    return std::nullopt;
  for (auto &[memref, accesses] : accessesOfLoop->byBuffer) {
    if (accesses.size() != 2)
      continue;
    auto load = dyn_cast<AffineLoadOp>(accesses[0]);
    auto store = dyn_cast<AffineStoreOp>(accesses[1]);
    if (!load || !store || load->getBlock() != loop.getBody() ||
        store->getBlock() != loop.getBody() || !load->isBeforeInBlock(store) ||
        !isInvariantIn(load, loop) || !isInvariantIn(store, loop) ||
        MemRefAccess(load) != MemRefAccess(store))
      continue;
    return Accumulator{load, store};
  }
  return std::nullopt;
}

/// Marks `acc op x` reassociable when `op` is a floating-point add or
/// multiply of the accumulator.
static void markReassociable(Value newValue, Value acc) {
  Operation *def = newValue.getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::MulFOp>(def) ||
      !llvm::is_contained(def->getOperands(), acc))
    return;
  auto fmf = cast<arith::ArithFastMathInterface>(def);
  arith::FastMathFlags flags =
      fmf.getFastMathFlagsAttr().getValue() | arith::FastMathFlags::reassoc;
  def->setAttr(fmf.getFastMathAttrName(),
               arith::FastMathFlagsAttr::get(def->getContext(), flags));
}

/// Rewrites `loop` to carry `accumulator`; returns the new loop.
static AffineForOp promote(AffineForOp loop, Accumulator accumulator) {
  IRRewriter rewriter(loop->getContext());
  rewriter.setInsertionPoint(loop);
  auto init = cast<AffineLoadOp>(rewriter.clone(*accumulator.load));
  Value stored = accumulator.store.getValueToStore();
  auto yieldNew = [&](OpBuilder &, Location,
                      ArrayRef<BlockArgument> newArgs) -> SmallVector<Value> {
    rewriter.replaceAllUsesWith(accumulator.load.getResult(), newArgs[0]);
    markReassociable(stored, newArgs[0]);
    return {stored};
  };
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, init.getResult(),
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       yieldNew);
  // affine.for always accepts new iter_args.
  auto newLoop = cast<AffineForOp>(replaced->getOperation());
  rewriter.eraseOp(accumulator.store);
  rewriter.eraseOp(accumulator.load);
  rewriter.setInsertionPointAfter(newLoop);
  AffineStoreOp::create(rewriter, init.getLoc(), newLoop.getResults().back(),
                        init.getMemRef(), init.getAffineMap(),
                        init.getMapOperands());
  return newLoop;
}

struct PromoteAccumulatorsPass
    : public polyblocks::impl::PBPromoteAccumulatorsBase<
          PromoteAccumulatorsPass> {
  using PBPromoteAccumulatorsBase::PBPromoteAccumulatorsBase;

  void runOnOperation() override {
    // Post-order: inner loops first, so an accumulator promoted out of an
    // inner loop can be promoted again out of the enclosing one. Promoting
    // replaces a loop, never the loops around it.
    SmallVector<AffineForOp> loops;
    getOperation().walk([&](AffineForOp loop) { loops.push_back(loop); });
    for (AffineForOp loop : loops) {
      while (std::optional<Accumulator> acc = findAccumulator(loop))
        loop = promote(loop, *acc);
    }
  }
};

} // namespace
