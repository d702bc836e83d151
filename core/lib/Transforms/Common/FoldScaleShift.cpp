//===- FoldScaleShift.cpp - Per-channel scales into convolution filters ---===//
//
// Folds elementwise multiplies by per-channel constants into the filter of
// the convolution that produces their operand, through a shift between
// them. Batch norm in inference is (x - mean) * invstd * gamma + beta on the
// convolution's result, four elementwise ops whose operands are all
// constants once pb-fold-constant-elementwise has evaluated invstd; two
// shifts remain, which pb-fuse-elementwise fuses with the activation.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

#define DEBUG_TYPE "pb-fold-scale-shift"

namespace polyblocks {
#define GEN_PASS_DEF_PBFOLDSCALESHIFT
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using llvm::APFloat;

namespace {

constexpr APFloat::roundingMode kRound = APFloat::rmNearestTiesToEven;

/// The loop of `map`'s domain that a constant read through it varies with
/// (std::nullopt: none, a scalar broadcast), or failure if it varies with
/// more than one or `map` is not a projection (constant results index
/// dimensions of size 1).
static FailureOr<std::optional<unsigned>>
getVaryingLoop(AffineMap map, ArrayRef<int64_t> shape) {
  std::optional<unsigned> loop;
  for (auto [result, size] : llvm::zip(map.getResults(), shape)) {
    if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
      if (constant.getValue() != 0 || size != 1)
        return failure();
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return failure();
    if (size == 1)
      continue;
    if (loop && *loop != dim.getPosition())
      return failure();
    loop = dim.getPosition();
  }
  return loop;
}

/// An elementwise generic computing `x op k` (or `k op x`) on its two
/// inputs, k a constant varying along one loop at most.
struct BinaryOnConstant {
  linalg::GenericOp op;
  Operation *arith;
  OpOperand *x, *k;
  bool xFirst;
  /// The loop k varies with (none: a scalar broadcast).
  std::optional<unsigned> channelDim;
  /// k's values in the order of that loop.
  SmallVector<APFloat> kValues;
};

static std::optional<BinaryOnConstant> matchBinaryOnConstant(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return std::nullopt;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  Operation &arith = body.front();
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(arith) ||
      body.getTerminator()->getOperand(0) != arith.getResult(0))
    return std::nullopt;
  auto lhs = dyn_cast<BlockArgument>(arith.getOperand(0));
  auto rhs = dyn_cast<BlockArgument>(arith.getOperand(1));
  if (!lhs || !rhs || lhs.getOwner() != &body || rhs.getOwner() != &body ||
      lhs == rhs)
    return std::nullopt;
  auto type = cast<RankedTensorType>(generic->getResult(0).getType());
  for (OpOperand *k : generic.getDpsInputOperands()) {
    ElementsAttr kAttr;
    if (!polyblocks::matchConstantThroughReshape(k->get(), &kAttr))
      continue;
    OpOperand *x = generic.getDpsInputOperand(1 - k->getOperandNumber());
    auto kType = cast<RankedTensorType>(k->get().getType());
    FailureOr<std::optional<unsigned>> channelDim =
        getVaryingLoop(generic.getMatchingIndexingMap(k), kType.getShape());
    if (failed(channelDim) || x->get().getType() != type ||
        !generic.getMatchingIndexingMap(x).isIdentity() ||
        kType.getElementType() != type.getElementType() ||
        !type.hasStaticShape())
      return std::nullopt;
    // Its size checked before its elements are read: the greedy driver
    // visits every generic, some reading large constants.
    int64_t numChannels = *channelDim ? type.getDimSize(**channelDim) : 1;
    if (kAttr.getNumElements() != numChannels)
      return std::nullopt;
    std::optional<SmallVector<APFloat>> kValues =
        polyblocks::getFloatElements(kAttr);
    if (!kValues)
      return std::nullopt;
    return BinaryOnConstant{generic,
                            &arith,
                            x,
                            k,
                            lhs.getArgNumber() == x->getOperandNumber(),
                            *channelDim,
                            std::move(*kValues)};
  }
  return std::nullopt;
}

/// Whether `op` multiplies x by a constant k or divides it by one; the
/// factors x is multiplied by, per channel, in `factors`.
static std::optional<BinaryOnConstant>
matchScale(Operation *op, SmallVectorImpl<APFloat> &factors) {
  std::optional<BinaryOnConstant> scale = matchBinaryOnConstant(op);
  if (!scale || !(isa<arith::MulFOp>(scale->arith) ||
                  (isa<arith::DivFOp>(scale->arith) && scale->xFirst)))
    return std::nullopt;
  factors.assign(scale->kValues.begin(), scale->kValues.end());
  if (isa<arith::DivFOp>(scale->arith))
    for (APFloat &factor : factors) {
      APFloat one = APFloat::getOne(factor.getSemantics());
      one.divide(factor, kRound);
      factor = one;
    }
  return scale;
}

/// Whether `value` is the only use of a convolution's result, accumulated
/// onto zeros; the convolution.
static linalg::LinalgOp matchConvOntoZeros(Value value) {
  auto conv = value.getDefiningOp<linalg::LinalgOp>();
  if (!conv || conv->getNumResults() != 1 || !value.hasOneUse() ||
      !linalg::isaConvolutionOpInterface(conv) ||
      !conv.hasPureTensorSemantics())
    return nullptr;
  auto fill = conv.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return nullptr;
  return conv;
}

/// `filter` (of `type`) with element i multiplied by scales[(i / stride) %
/// size], the factor of its channel (scales[0] for all if stride is 0), as
/// makeConstant names it; null if its elements are not at hand. f32 and f64
/// in the machine's float and double (the same rounding, without APFloat's
/// cost on millions of weights), other types in APFloat.
template <typename T>
static ElementsAttr scaleNative(ElementsAttr filter, ShapedType type,
                                int64_t stride, int64_t size,
                                ArrayRef<APFloat> scales, StringRef name) {
  std::optional<ArrayRef<char>> bytes =
      polyblocks::getConstantBytes(filter, sizeof(T));
  if (!bytes)
    return nullptr;
  SmallVector<T> factors;
  for (const APFloat &scale : scales)
    factors.push_back(static_cast<T>(scale.convertToDouble()));
  std::vector<char> scaled(bytes->begin(), bytes->end());
  int64_t n = scaled.size() / sizeof(T);
  for (int64_t i = 0; i < n; ++i) {
    T value;
    std::memcpy(&value, scaled.data() + i * sizeof(T), sizeof(T));
    value *= factors[stride ? (i / stride) % size : 0];
    std::memcpy(scaled.data() + i * sizeof(T), &value, sizeof(T));
  }
  return polyblocks::makeConstant(type, scaled, name);
}

static ElementsAttr scaleAlongDim(ElementsAttr filter, ShapedType type,
                                  int64_t stride, int64_t size,
                                  ArrayRef<APFloat> scales, StringRef name) {
  if (type.getElementType().isF32())
    return scaleNative<float>(filter, type, stride, size, scales, name);
  if (type.getElementType().isF64())
    return scaleNative<double>(filter, type, stride, size, scales, name);
  std::optional<SmallVector<APFloat>> values =
      polyblocks::getFloatElements(filter);
  if (!values)
    return nullptr;
  for (auto [i, value] : llvm::enumerate(*values))
    value.multiply(scales[stride ? (i / stride) % size : 0], kRound);
  return polyblocks::makeFloatConstant(type, *values, name);
}

struct FoldScaleIntoConv : OpRewritePattern<linalg::GenericOp> {
  FoldScaleIntoConv(MLIRContext *context, int64_t maxBytes)
      : OpRewritePattern(context), maxBytes(maxBytes) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // x * k or x / k, per channel; the last of a chain of them, whose
    // factors multiply (the filter is rewritten once).
    SmallVector<APFloat> factors;
    std::optional<BinaryOnConstant> scale = matchScale(op, factors);
    if (!scale)
      return failure();
    Value result = op->getResult(0);
    if (result.hasOneUse()) {
      SmallVector<APFloat> ignored;
      std::optional<BinaryOnConstant> next =
          matchScale(*result.getUsers().begin(), ignored);
      if (next && next->x->get() == result &&
          next->channelDim == scale->channelDim)
        return failure();
    }
    Value convResult = scale->x->get();
    while (convResult.hasOneUse()) {
      SmallVector<APFloat> more;
      std::optional<BinaryOnConstant> previous =
          matchScale(convResult.getDefiningOp(), more);
      if (!previous || previous->channelDim != scale->channelDim)
        break;
      for (auto [factor, other] : llvm::zip(factors, more))
        factor.multiply(other, kRound);
      convResult = previous->x->get();
    }
    // Infinities and NaNs would not scale a sum as they scale its terms.
    if (!llvm::all_of(factors, [](const APFloat &f) { return f.isFinite(); }))
      return failure();

    // x: a convolution's result, or a shift of it along the same channel
    // ((c + t) * s = c * s + t * s).
    std::optional<BinaryOnConstant> shift;
    linalg::LinalgOp conv = matchConvOntoZeros(convResult);
    if (!conv && convResult.hasOneUse()) {
      shift = matchBinaryOnConstant(convResult.getDefiningOp());
      if (!shift || !shift->xFirst ||
          !isa<arith::AddFOp, arith::SubFOp>(shift->arith) ||
          shift->channelDim != scale->channelDim)
        return failure();
      convResult = shift->x->get();
      conv = matchConvOntoZeros(convResult);
    }
    if (!conv)
      return failure();
    auto type = cast<RankedTensorType>(convResult.getType());

    // The convolution's loop of the channel, and the one constant input
    // (the filter) that reads it.
    OpOperand *init = conv.getDpsInitOperand(0);
    std::optional<unsigned> convLoop;
    if (scale->channelDim) {
      auto dim = dyn_cast<AffineDimExpr>(
          conv.getMatchingIndexingMap(init).getResult(*scale->channelDim));
      if (!dim)
        return failure();
      convLoop = dim.getPosition();
    }
    OpOperand *filter = nullptr;
    for (OpOperand *input : conv.getDpsInputOperands()) {
      if (!polyblocks::matchConstantThroughReshape(input->get()))
        continue;
      if (convLoop &&
          !conv.getMatchingIndexingMap(input).isFunctionOfDim(*convLoop))
        continue;
      if (filter)
        return failure();
      filter = input;
    }
    if (!filter)
      return failure();
    ElementsAttr filterAttr;
    polyblocks::matchConstantThroughReshape(filter->get(), &filterAttr);
    auto filterType = cast<RankedTensorType>(filter->get().getType());
    int64_t elementBytes = *polyblocks::getElementBytes(type.getElementType());
    if (filterType.getElementType() != type.getElementType() ||
        !filterType.hasStaticShape() ||
        filterType.getNumElements() * elementBytes > maxBytes)
      return failure();
    // The filter's dimension of the channel: its stride and size.
    int64_t stride = 0, size = 1;
    if (convLoop) {
      unsigned position =
          *conv.getMatchingIndexingMap(filter).getResultPosition(
              getAffineDimExpr(*convLoop, getContext()));
      stride = computeStrides(filterType.getShape())[position];
      size = filterType.getDimSize(position);
      if (size != static_cast<int64_t>(factors.size()))
        return failure();
    }

    // The shift's constant scaled too.
    SmallVector<APFloat> shifted;
    if (shift) {
      shifted = shift->kValues;
      for (auto [value, factor] : llvm::zip(shifted, factors))
        value.multiply(factor, kRound);
      if (!llvm::all_of(shifted, [](const APFloat &f) { return f.isFinite(); }))
        return failure();
    }

    std::string name;
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(filterAttr))
      name = (resource.getRawHandle().getKey() + "_scaled").str();
    ElementsAttr scaled =
        scaleAlongDim(filterAttr, filterType, stride, size, factors, name);
    if (!scaled)
      return failure();
    rewriter.setInsertionPoint(conv);
    Value newFilter = arith::ConstantOp::create(
        rewriter, op.getLoc(), filterType, cast<TypedAttr>(scaled));
    rewriter.modifyOpInPlace(conv, [&] { filter->set(newFilter); });

    if (!shift) {
      rewriter.replaceOp(op, conv->getResult(0));
      return success();
    }
    // In the shape the shift read it.
    auto kType = cast<RankedTensorType>(shift->k->get().getType());
    rewriter.setInsertionPoint(shift->op);
    Value newShift = arith::ConstantOp::create(
        rewriter, op.getLoc(), kType,
        cast<TypedAttr>(DenseElementsAttr::get(kType, shifted)));
    rewriter.modifyOpInPlace(shift->op, [&] { shift->k->set(newShift); });
    rewriter.replaceOp(op, shift->op->getResult(0));
    return success();
  }

private:
  int64_t maxBytes;
};

struct FoldScaleShiftPass
    : public polyblocks::impl::PBFoldScaleShiftBase<FoldScaleShiftPass> {
  using PBFoldScaleShiftBase::PBFoldScaleShiftBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldScaleIntoConv>(&getContext(), maxBytes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
