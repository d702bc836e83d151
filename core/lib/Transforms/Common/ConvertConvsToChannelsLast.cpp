//===- ConvertConvsToChannelsLast.cpp - NCHW convolutions as NHWC --------===//
//
// Rewrites the channels-first convolutions and poolings of PyTorch programs
// into their channels-last forms between transposes:
//
//   conv_2d_nchw_fchw(x, w)  ->  T(conv_2d_nhwc_hwcf(T(x), T(w)))
//
// A grouped convolution (NGCHW, PyTorch's with `groups` > 1) becomes
// `conv_2d_nhwgc_gfhwc`; its image and result are the NCHW tensors
// torch-mlir splits into groups by a reshape, so they are transposed as
// 4-D tensors, NCHW <-> NHWC, and split after (joined before), where the
// transposes meet those of the convolutions around it:
//
//   conv_2d_ngchw_gfchw(expand(x), w)
//     ->  expand(T(collapse(conv_2d_nhwgc_gfhwc(expand(T(x)), T(w)))))
//
// Channels-last is what the CPU's micro-kernels want: the channels are the
// unit-stride vector dimension of the output and of the filter (a matmul
// panel), whatever the image size (NCHW vectorizes along the output width,
// 7 to 14 at the end of most networks). The transposes of the filters are
// of constants (pb-fold-constant-transposes evaluates them); those of the
// activations meet their inverses once pb-propagate-transposes has moved
// them through the elementwise ops between convolutions, and cancel.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-convert-convs-to-channels-last"

namespace polyblocks {
#define GEN_PASS_DEF_PBCONVERTCONVSTOCHANNELSLAST
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// NCHW -> NHWC and back.
constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

/// The channels-last init of an op whose channels-first init is `init`
/// (`permutation` from the one to the other): a fill of an empty tensor is
/// filled anew, anything else transposed.
static Value transposeInit(OpBuilder &b, Location loc, Value init,
                           ArrayRef<int64_t> permutation = kToChannelsLast) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
      auto type = cast<RankedTensorType>(init.getType());
      Value empty = tensor::EmptyOp::create(
          b, loc, applyPermutation(type.getShape(), permutation),
          type.getElementType());
      return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
          .getResult(0);
    }
  return polyblocks::buildTranspose(b, loc, init, permutation);
}

/// Rewrites `SourceOp` (image, filter or window; channels first) into
/// `TargetOp` (channels last), transposing the filter by
/// `filterPermutation` (none for a pooling's window, which is only a
/// shape).
template <typename SourceOp, typename TargetOp>
struct ToChannelsLast : OpRewritePattern<SourceOp> {
  ToChannelsLast(MLIRContext *context, ArrayRef<int64_t> filterPermutation)
      : OpRewritePattern<SourceOp>(context),
        filterPermutation(filterPermutation) {}

  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Location loc = op.getLoc();
    Value image = polyblocks::buildTranspose(rewriter, loc, op.getInputs()[0],
                                             kToChannelsLast);
    Value filter = op.getInputs()[1];
    if (!filterPermutation.empty())
      filter =
          polyblocks::buildTranspose(rewriter, loc, filter, filterPermutation);
    Value init = transposeInit(rewriter, loc, op.getOutputs()[0]);
    auto converted = TargetOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{image, filter},
        ValueRange{init}, op.getStrides(), op.getDilations());
    rewriter.replaceOp(op, polyblocks::buildTranspose(rewriter, loc,
                                                      converted->getResult(0),
                                                      kToChannelsFirst));
    return success();
  }

  SmallVector<int64_t> filterPermutation;
};

/// NGCHW <-> NHWGC (the permutation is its own inverse).
constexpr int64_t kGroupedSwap[] = {0, 3, 4, 1, 2};

/// The reassociations that split NCHW's channels into groups ([N, G, C, H,
/// W]) and NHWC's ([N, H, W, G, C]).
static SmallVector<ReassociationIndices> channelsFirstGroups() {
  return {{0}, {1, 2}, {3}, {4}};
}
static SmallVector<ReassociationIndices> channelsLastGroups() {
  return {{0}, {1}, {2}, {3, 4}};
}

/// `value` ([N, G, C, H, W]) as [N, H, W, G, C]: when it splits a 4-D NCHW
/// tensor into groups, that tensor transposed to NHWC and split (the
/// transpose can then meet its inverse); otherwise as transposeInit makes
/// it (a fill of an empty tensor, an init, filled anew).
static Value groupedToChannelsLast(OpBuilder &b, Location loc, Value value) {
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    if (expand.getSrcType().getRank() == 4 &&
        expand.getReassociationIndices() == channelsFirstGroups()) {
      auto type = cast<RankedTensorType>(value.getType());
      auto lastType = RankedTensorType::get(
          applyPermutation(type.getShape(), ArrayRef<int64_t>(kGroupedSwap)),
          type.getElementType());
      Value nhwc =
          polyblocks::buildTranspose(b, loc, expand.getSrc(), kToChannelsLast);
      return tensor::ExpandShapeOp::create(b, loc, lastType, nhwc,
                                           channelsLastGroups());
    }
  return transposeInit(b, loc, value, kGroupedSwap);
}

/// `conv_2d_ngchw_gfchw` -> `conv_2d_nhwgc_gfhwc`, its result joined into
/// NHWC channels, transposed to NCHW and split into groups again.
struct GroupedToChannelsLast : OpRewritePattern<linalg::Conv2DNgchwGfchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNgchwGfchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Location loc = op.getLoc();
    Value image = groupedToChannelsLast(rewriter, loc, op.getInputs()[0]);
    // [G, F, C, KH, KW] -> [G, F, KH, KW, C]
    Value filter = polyblocks::buildTranspose(rewriter, loc, op.getInputs()[1],
                                              ArrayRef<int64_t>{0, 1, 3, 4, 2});
    Value init = groupedToChannelsLast(rewriter, loc, op.getOutputs()[0]);
    auto converted = linalg::Conv2DNhwgcGfhwcOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{image, filter},
        ValueRange{init}, op.getStrides(), op.getDilations());
    Value nhwc = tensor::CollapseShapeOp::create(
        rewriter, loc, converted->getResult(0), channelsLastGroups());
    Value nchw =
        polyblocks::buildTranspose(rewriter, loc, nhwc, kToChannelsFirst);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, resultType, nchw,
                                                       channelsFirstGroups());
    return success();
  }
};

struct ConvertConvsToChannelsLastPass
    : public polyblocks::impl::PBConvertConvsToChannelsLastBase<
          ConvertConvsToChannelsLastPass> {
  using PBConvertConvsToChannelsLastBase::PBConvertConvsToChannelsLastBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // fchw -> hwcf; chw -> hwc.
    patterns.add<
        ToChannelsLast<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>>(
        context, ArrayRef<int64_t>{2, 3, 1, 0});
    patterns.add<ToChannelsLast<linalg::DepthwiseConv2DNchwChwOp,
                                linalg::DepthwiseConv2DNhwcHwcOp>>(
        context, ArrayRef<int64_t>{1, 2, 0});
    patterns.add<GroupedToChannelsLast>(context);
    patterns.add<
        ToChannelsLast<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
        ToChannelsLast<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>>(
        context, ArrayRef<int64_t>{});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
