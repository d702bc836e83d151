//===- BubbleUpExtractSlices.cpp - Compute only the slice that is used ----===//
//
// Moves a tensor.extract_slice above the linalg op that computes its source,
// when the slice is that result's only use: the op then computes the slice
// alone, from slices of its operands. Exporters compute a tensor for the
// largest shape a model supports and slice it to the input's: GPT-2's causal
// mask is a 1024 x 1024 buffer converted to i1 on every call, of which a
// 128-token input uses 128 x 128.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-bubble-up-extract-slices"

namespace polyblocks {
#define GEN_PASS_DEF_PBBUBBLEUPEXTRACTSLICES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct BubbleUpExtractSlicesPass
    : public polyblocks::impl::PBBubbleUpExtractSlicesBase<
          BubbleUpExtractSlicesPass> {
  using PBBubbleUpExtractSlicesBase::PBBubbleUpExtractSlicesBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateBubbleUpExtractSliceOpPatterns(patterns);
    // The slice of the result's init (a filled accumulator) is filled alone.
    linalg::populateSwapExtractSliceWithFillPatterns(patterns);
    // A slice of a slice (the mask: rows, then columns) is one slice; a
    // slice of an empty tensor is a smaller empty tensor.
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
