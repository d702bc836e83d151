//===- FoldConstantTransposes.cpp - Transposed weights at compile time ----===//
//
// Evaluates linalg.transpose of constants: PyTorch's Linear layers multiply
// by the transpose of their weight, and channels-last convolutions read
// their filters transposed; computed at run time, each call would transpose
// every weight of the network before using it.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

#define DEBUG_TYPE "pb-fold-constant-transposes"

namespace polyblocks {
#define GEN_PASS_DEF_PBFOLDCONSTANTTRANSPOSES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct FoldConstantTranspose : OpRewritePattern<linalg::TransposeOp> {
  FoldConstantTranspose(MLIRContext *context, int64_t maxBytes)
      : OpRewritePattern(context), maxBytes(maxBytes) {}

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr input;
    if (!op.hasPureTensorSemantics() ||
        !polyblocks::matchConstantThroughReshape(op.getInput(), &input))
      return failure();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!type.hasStaticShape())
      return failure();
    std::optional<int64_t> elementBytes =
        polyblocks::getElementBytes(type.getElementType());
    if (!elementBytes)
      return rewriter.notifyMatchFailure(op, "elements are not whole bytes");
    Attribute folded;
    if (auto splat = dyn_cast<SplatElementsAttr>(input)) {
      folded = SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
    } else {
      if (type.getNumElements() * *elementBytes > maxBytes)
        return rewriter.notifyMatchFailure(op, "constant over the size budget");
      std::optional<ArrayRef<char>> bytes =
          polyblocks::getConstantBytes(input, *elementBytes);
      if (!bytes)
        return rewriter.notifyMatchFailure(op, "constant data not at hand");
      std::vector<char> out(bytes->size());
      polyblocks::transposeElements(*bytes, out,
                                    op.getInput().getType().getShape(),
                                    op.getPermutation(), *elementBytes);
      std::string name;
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(input))
        name = (resource.getRawHandle().getKey() + "_transposed").str();
      folded = polyblocks::makeConstant(type, out, name);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(folded));
    return success();
  }

private:
  int64_t maxBytes;
};

struct FoldConstantTransposesPass
    : public polyblocks::impl::PBFoldConstantTransposesBase<
          FoldConstantTransposesPass> {
  using PBFoldConstantTransposesBase::PBFoldConstantTransposesBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConstantTranspose>(&getContext(), maxBytes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
