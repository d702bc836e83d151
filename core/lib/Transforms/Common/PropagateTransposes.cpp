//===- PropagateTransposes.cpp - Move transposes until they cancel --------===//
//
// Moves transposes of activations forward through the elementwise ops and
// pads that follow them, so that a transpose back to channels-first meets
// the transpose to channels-last of the next convolution and both fold
// away; a transpose that reaches any other linalg.generic is read through
// that op's indexing map instead of being computed.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-propagate-transposes"

namespace polyblocks {
#define GEN_PASS_DEF_PBPROPAGATETRANSPOSES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The transpose producing `value`, unless it transposes a constant or a
/// reshape of one (pb-fold-constant-transposes evaluates those).
static linalg::TransposeOp getActivationTranspose(Value value) {
  auto transpose = value.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose.hasPureTensorSemantics() ||
      polyblocks::matchConstantThroughReshape(transpose.getInput()))
    return nullptr;
  return transpose;
}

/// The map from the transpose's input dims to its result's (result dim i
/// is input dim permutation[i]), and its inverse.
static AffineMap getResultFromInputMap(ArrayRef<int64_t> permutation,
                                       MLIRContext *context) {
  return AffineMap::getPermutationMap(permutation, context);
}
static AffineMap getInputFromResultMap(ArrayRef<int64_t> permutation,
                                       MLIRContext *context) {
  return getResultFromInputMap(invertPermutationVector(permutation), context);
}

static RankedTensorType getPermutedType(RankedTensorType type,
                                        ArrayRef<int64_t> permutation) {
  return RankedTensorType::get(applyPermutation(type.getShape(), permutation),
                               type.getElementType());
}

/// elementwise(T(x), ...) -> T(elementwise'(x, ...)): the op runs in x's
/// layout (its other operands read through their maps composed with the
/// transpose's), and the transpose moves to its results.
struct SinkTransposeThroughElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops() || op.hasIndexSemantics())
      return failure();
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.getMatchingIndexingMap(&init).isIdentity() ||
          op.payloadUsesValueFromOperand(&init))
        return failure();
    // The first input that is a transpose read in its own layout.
    linalg::TransposeOp source;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto transpose = getActivationTranspose(input->get());
      if (transpose && op.getMatchingIndexingMap(input).isIdentity()) {
        source = transpose;
        break;
      }
    }
    if (!source)
      return failure();
    ArrayRef<int64_t> permutation = source.getPermutation();
    MLIRContext *context = op.getContext();
    // Iteration in the input's layout: old dim i is new dim permutation[i].
    AffineMap oldFromNew = getResultFromInputMap(permutation, context);
    SmallVector<int64_t> inverse = invertPermutationVector(permutation);
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input).compose(oldFromNew);
      Value value = input->get();
      // A transpose read through `map` is its input read through the
      // composition (for `source`, the identity).
      if (auto transpose = getActivationTranspose(value)) {
        map = getInputFromResultMap(transpose.getPermutation(), context)
                  .compose(map);
        value = transpose.getInput();
      }
      inputs.push_back(value);
      maps.push_back(map);
    }
    SmallVector<Value> inits;
    SmallVector<Type> resultTypes;
    for (Value init : op.getDpsInits()) {
      auto type =
          getPermutedType(cast<RankedTensorType>(init.getType()), inverse);
      inits.push_back(tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                              type.getElementType()));
      resultTypes.push_back(type);
      maps.push_back(
          AffineMap::getMultiDimIdentityMap(permutation.size(), context));
    }
    auto sunk =
        linalg::GenericOp::create(rewriter, loc, resultTypes, inputs, inits,
                                  maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), sunk.getRegion(),
                                sunk.getRegion().begin());
    SmallVector<Value> results;
    for (Value result : sunk.getResults())
      results.push_back(
          polyblocks::buildTranspose(rewriter, loc, result, permutation));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// generic(T(x)) -> generic(x) with the transpose in the indexing map: for
/// the linalg.generic ops the transpose cannot move through (reductions,
/// ops that read their index).
struct FoldTransposeIntoGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    bool changed = false;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (auto transpose = getActivationTranspose(value)) {
        unsigned index = input->getOperandNumber();
        maps[index] =
            getInputFromResultMap(transpose.getPermutation(), op.getContext())
                .compose(maps[index]);
        value = transpose.getInput();
        changed = true;
      }
      inputs.push_back(value);
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getInputsMutable().assign(inputs);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// If `op` transposes its one operand (a linalg.transpose, or a
/// linalg.generic that only yields its input, read through a permutation
/// and written in place), the map from its result's dims to its input's;
/// else null.
static AffineMap getTransposeReadMap(Operation *op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.hasPureTensorSemantics()
               ? getInputFromResultMap(transpose.getPermutation(),
                                       op->getContext())
               : AffineMap();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return {};
  OpOperand *input = generic.getDpsInputOperand(0);
  AffineMap read = generic.getMatchingIndexingMap(input);
  if (!generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      !read.isPermutation())
    return {};
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 ||
      yield.getValues().front() != body.getArgument(0))
    return {};
  return read;
}

/// T(reduce(...)) -> reduce'(...): a reduction (a contraction) whose only
/// reader transposes its result computes in the transposed layout instead,
/// the transpose folded into its output map, accumulating onto the same
/// fill in that layout. (Flax's attention computes softmax(QK^T) . V as
/// [b, h, d, q], then transposes it to [b, q, h, d]: in the layout it is
/// read in, the product has V's unit-stride d as its columns.)
struct FoldTransposeIntoReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
        op.getNumDpsInits() != 1 || !op->getResult(0).hasOneUse())
      return failure();
    Operation *reader = *op->getResult(0).getUsers().begin();
    AffineMap readMap = getTransposeReadMap(reader);
    auto fill = op.getDpsInits().front().getDefiningOp<linalg::FillOp>();
    if (!readMap || !fill)
      return failure();
    auto type = cast<RankedTensorType>(reader->getResult(0).getType());
    Location loc = op.getLoc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value init = linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
                     .getResult(0);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.back() = inversePermutation(readMap).compose(maps.back());
    auto folded = linalg::GenericOp::create(rewriter, loc, TypeRange{type},
                                            op.getInputs(), ValueRange{init},
                                            maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), folded.getRegion(),
                                folded.getRegion().begin());
    rewriter.replaceOp(reader, folded.getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

/// pad(T(x)) -> T(pad'(x)), the pad amounts permuted; the padding value
/// must not depend on the position.
struct SinkTransposeThroughPad : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    auto source = getActivationTranspose(op.getSource());
    Value padding = op.getConstantPaddingValue();
    if (!source || !padding || !op.getResultType().hasStaticShape())
      return failure();
    ArrayRef<int64_t> permutation = source.getPermutation();
    // Result dim i is input dim permutation[i]: its pads move there.
    SmallVector<OpFoldResult> oldLow = op.getMixedLowPad();
    SmallVector<OpFoldResult> oldHigh = op.getMixedHighPad();
    SmallVector<OpFoldResult> low(oldLow.size()), high(oldHigh.size());
    for (auto [i, d] : llvm::enumerate(permutation)) {
      low[d] = oldLow[i];
      high[d] = oldHigh[i];
    }
    SmallVector<int64_t> inverse = invertPermutationVector(permutation);
    RankedTensorType type = getPermutedType(op.getResultType(), inverse);
    auto padded =
        tensor::PadOp::create(rewriter, op.getLoc(), type, source.getInput(),
                              low, high, padding, op.getNofold());
    rewriter.replaceOp(op, polyblocks::buildTranspose(rewriter, op.getLoc(),
                                                      padded.getResult(),
                                                      permutation));
    return success();
  }
};

struct PropagateTransposesPass
    : public polyblocks::impl::PBPropagateTransposesBase<
          PropagateTransposesPass> {
  using PBPropagateTransposesBase::PBPropagateTransposesBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<SinkTransposeThroughElementwise>(context, /*benefit=*/2);
    patterns.add<FoldTransposeIntoGeneric, FoldTransposeIntoReduction,
                 SinkTransposeThroughPad>(context);
    // transpose(transpose(x)) -> x.
    linalg::TransposeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
