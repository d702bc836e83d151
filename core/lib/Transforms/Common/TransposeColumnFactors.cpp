//===- TransposeColumnFactors.cpp - Column factors with unit-stride columns
//===//
//
// Gives a contraction whose column factor (the operand that moves with the
// result's innermost dimension) is laid out with a reduction dimension
// innermost a transposed copy of it, the columns innermost: the form the
// register-tiled micro-kernel streams. JAX's attention scores,
// einsum('bqhd,bkhd->bhqk'), read the keys as [b, k, h, d]: d, the
// reduction, is their unit stride, and the product fell off the
// micro-kernel. The copy is one pass over the keys.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-transpose-column-factors"

namespace polyblocks {
#define GEN_PASS_DEF_PBTRANSPOSECOLUMNFACTORS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct TransposeColumnFactor : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumDpsInputs() != 2 || op.hasDynamicShape() ||
        !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a static contraction");
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (outMap.getNumResults() == 0)
      return failure();
    auto j = dyn_cast<AffineDimExpr>(outMap.getResults().back());
    if (!j)
      return failure();
    // The column factor: the one input that moves with j.
    OpOperand *column = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!op.getMatchingIndexingMap(input).isFunctionOfDim(j.getPosition()))
        continue;
      if (column)
        return rewriter.notifyMatchFailure(op, "both factors move with j");
      column = input;
    }
    if (!column)
      return failure();
    AffineMap map = op.getMatchingIndexingMap(column);
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || innermost == j ||
        op.getIteratorTypesArray()[innermost.getPosition()] !=
            utils::IteratorType::reduction)
      return rewriter.notifyMatchFailure(
          op, "the column factor's innermost dimension is no reduction");
    // j moves to the end; the other dimensions keep their order.
    int64_t rank = map.getNumResults();
    int64_t jPosition = *map.getResultPosition(j);
    SmallVector<int64_t> permutation;
    for (int64_t d = 0; d < rank; ++d)
      if (d != jPosition)
        permutation.push_back(d);
    permutation.push_back(jPosition);

    Value transposed = polyblocks::buildTranspose(rewriter, op.getLoc(),
                                                  column->get(), permutation);
    SmallVector<AffineExpr> results(map.getResults());
    applyPermutationToVector(results, permutation);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[column->getOperandNumber()] = AffineMap::get(
        map.getNumDims(), map.getNumSymbols(), results, op.getContext());
    rewriter.modifyOpInPlace(op, [&] {
      column->set(transposed);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

struct TransposeColumnFactorsPass
    : public polyblocks::impl::PBTransposeColumnFactorsBase<
          TransposeColumnFactorsPass> {
  using PBTransposeColumnFactorsBase::PBTransposeColumnFactorsBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeColumnFactor>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
