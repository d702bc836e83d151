//===- LowerAffine.cpp - Affine to scf, keeping loop annotations ----------===//
//
// Upstream's lower-affine drops the attributes of the loops it rewrites; an
// affine.for carrying LLVM-dialect attributes (a loop_annotation asking
// LLVM to unroll it) is lowered here with them kept on its scf.for, which
// convert-scf-to-cf forwards to the loop's back edge.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Transforms/DialectConversion.h"

namespace polyblocks {
#define GEN_PASS_DEF_PBLOWERAFFINE
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The attributes of `op` whose values belong to the LLVM dialect.
static SmallVector<NamedAttribute> getLLVMAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  llvm::copy_if(op->getDiscardableAttrs(), std::back_inserter(attrs),
                [](NamedAttribute attr) {
                  return isa<LLVM::LLVMDialect>(attr.getValue().getDialect());
                });
  return attrs;
}

/// affine.for with LLVM attributes -> scf.for with them; before upstream's
/// pattern, which drops them.
struct AnnotatedForLowering : OpRewritePattern<AffineForOp> {
  AnnotatedForLowering(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(AffineForOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<NamedAttribute> attrs = getLLVMAttrs(op);
    if (attrs.empty())
      return failure();
    Location loc = op.getLoc();
    Value lower = lowerAffineLowerBound(op, rewriter);
    Value upper = lowerAffineUpperBound(op, rewriter);
    Value step =
        arith::ConstantIndexOp::create(rewriter, loc, op.getStepAsInt());
    auto loop =
        scf::ForOp::create(rewriter, loc, lower, upper, step, op.getInits());
    rewriter.eraseBlock(loop.getBody());
    rewriter.inlineRegionBefore(op.getRegion(), loop.getRegion(),
                                loop.getRegion().end());
    for (NamedAttribute attr : attrs)
      loop->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct PBLowerAffinePass
    : polyblocks::impl::PBLowerAffineBase<PBLowerAffinePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<AnnotatedForLowering>(context);
    populateAffineToStdConversionPatterns(patterns);
    populateAffineToVectorConversionPatterns(patterns);
    populateAffineExpandIndexOpsPatterns(patterns);
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
