//===- FuseElementwise.cpp - Chains of elementwise ops as one -------------===//
//
// Fuses an elementwise linalg.generic into the elementwise linalg.generic
// that reads its result, when nothing else reads it and the consumer reads
// it one element per iteration: exporters spell batch norm, activations and
// residual adds as one op each, every one a pass over memory.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-fuse-elementwise"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSEELEMENTWISE
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// A generic on tensors whose loops are all parallel.
static bool isElementwiseGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() &&
         generic.getNumLoops() == generic.getNumParallelLoops();
}

/// Whether to fuse the producer of `operand` into its owner: both
/// elementwise, the producer's result read by the owner alone, once per
/// iteration (a permutation map: a broadcast read would recompute the
/// producer for every element it is broadcast to), and the producer's
/// result map a permutation as well.
static bool shouldFuse(OpOperand *operand) {
  Operation *consumer = operand->getOwner();
  auto result = dyn_cast<OpResult>(operand->get());
  if (!result || !isElementwiseGeneric(consumer) ||
      !isElementwiseGeneric(result.getOwner()))
    return false;
  auto producer = cast<linalg::GenericOp>(result.getOwner());
  auto consumerOp = cast<linalg::GenericOp>(consumer);
  if (!result.hasOneUse() || !consumerOp.isDpsInput(operand) ||
      !consumerOp.getMatchingIndexingMap(operand).isPermutation() ||
      !producer.getIndexingMapMatchingResult(result).isPermutation())
    return false;
  return linalg::areElementwiseOpsFusable(operand);
}

struct FuseElementwisePass
    : public polyblocks::impl::PBFuseElementwiseBase<FuseElementwisePass> {
  using PBFuseElementwiseBase::PBFuseElementwiseBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
