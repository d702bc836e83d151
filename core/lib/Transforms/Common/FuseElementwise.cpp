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
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// Whether to collapse the elementwise generic that owns `operand`, an
/// expand_shape's result, to the shape of the expand_shape's source (the
/// generic then reads that source): the source is an elementwise generic's
/// result that only the expand_shape reads, so the two generics then fuse,
/// and the generic's result is only collapsed back the same way, so nothing
/// else is left in the other shape. (torch's Linear then GELU: a bias add on
/// the rows of a matmul, the activation on them reshaped to batch x rows,
/// its result reshaped back for the next matmul.) Nests of several shapes
/// would not fuse as loops (a layer norm's reductions stay batch x rows).
static bool shouldCollapseReshape(OpOperand *operand) {
  auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
  Operation *consumer = operand->getOwner();
  if (!expand || !isElementwiseGeneric(consumer) ||
      consumer->getNumResults() != 1)
    return false;
  auto source = dyn_cast<OpResult>(expand.getSrc());
  if (!source || !source.hasOneUse() ||
      !isElementwiseGeneric(source.getOwner()))
    return false;
  Value result = consumer->getResult(0);
  return !result.use_empty() &&
         llvm::all_of(result.getUsers(), [&](Operation *user) {
           auto collapse = dyn_cast<tensor::CollapseShapeOp>(user);
           return collapse && collapse.getReassociationIndices() ==
                                  expand.getReassociationIndices();
         });
}

struct FuseElementwisePass
    : public polyblocks::impl::PBFuseElementwiseBase<FuseElementwisePass> {
  using PBFuseElementwiseBase::PBFuseElementwiseBase;

  void runOnOperation() override {
    // The chains first, each into one generic; then a chain whose input is
    // reshaped from an elementwise generic's result is collapsed to that
    // shape (collapse_shape(expand_shape(x)) back to x) and fused with it.
    // Together, the collapse would take the first op of a chain apart from
    // the rest, its input then read twice.
    RewritePatternSet chains(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(chains, shouldFuse);
    FrozenRewritePatternSet frozenChains(std::move(chains));
    if (failed(applyPatternsGreedily(getOperation(), frozenChains)))
      return signalPassFailure();
    RewritePatternSet reshapes(&getContext());
    linalg::populateFoldReshapeOpsByCollapsingPatterns(reshapes,
                                                       shouldCollapseReshape);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(reshapes,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(reshapes))) ||
        failed(applyPatternsGreedily(getOperation(), frozenChains)))
      return signalPassFailure();
  }
};

} // namespace
