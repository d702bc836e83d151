//===- ApproximateMath.cpp - Inline polynomial math functions -------------===//
//
// Replaces f32 transcendental functions (exp, log, tanh, erf, ...) by
// polynomial approximations written in arith, so that loops calling them
// vectorize instead of calling libm once per element.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/Rewrites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

#define DEBUG_TYPE "pb-approximate-math"

namespace polyblocks {
#define GEN_PASS_DEF_PBAPPROXIMATEMATH
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

/// The functions whose approximations pass the f32 tolerances of pbtool
/// crosscheck against libm over their whole domain
/// (tests/e2e/math-approximations.mlir).
bool polyblocks::isApproximatedMathOp(StringRef name) {
  name.consume_front("math.");
  return llvm::StringSwitch<bool>(name)
      .Cases({"exp", "expm1", "exp2", "log", "log1p", "log2", "tanh", "erf"},
             true)
      .Default(false);
}

namespace {

/// floor(x) = -ceil(-x), exactly; math's expansions then write ceil in
/// arith.
struct FloorViaCeil : public OpRewritePattern<math::FloorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FloorOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value negated = arith::NegFOp::create(rewriter, loc, op.getOperand());
    Value ceil = math::CeilOp::create(rewriter, loc, negated);
    rewriter.replaceOpWithNewOp<arith::NegFOp>(op, ceil);
    return success();
  }
};

/// exp on f64 (MLIR's approximations are f32 only): k = round(x / ln 2),
/// r = x - k ln 2 (ln 2 in two parts, so r is exact), exp(r) by its Taylor
/// series to degree 13 (|r| <= ln(2) / 2: truncation below 1e-17), times
/// 2^k built in the exponent bits, in two factors so that results near the
/// ends of the range (subnormal ones included) are not lost. Above 709.78
/// it is +inf, below -745.13 zero, NaN stays NaN.
struct ExpF64Approximation : public OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF64())
      return failure();
    Location loc = op.getLoc();
    Type f64 = rewriter.getF64Type(), i64 = rewriter.getI64Type();
    auto f = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF64FloatAttr(v));
    };
    auto i = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(v));
    };
    Value x = op.getOperand();
    // Round to nearest by adding and subtracting 1.5 * 2^52.
    Value shifter = f(6755399441055744.0);
    Value scaled =
        arith::MulFOp::create(rewriter, loc, x, f(1.4426950408889634));
    Value kf = arith::SubFOp::create(
        rewriter, loc, arith::AddFOp::create(rewriter, loc, scaled, shifter),
        shifter);
    // r = x - k ln2_hi - k ln2_lo (ln2_hi has 32 significant bits).
    Value r = arith::SubFOp::create(
        rewriter, loc, x,
        arith::MulFOp::create(rewriter, loc, kf,
                              f(6.93147180369123816490e-01)));
    r = arith::SubFOp::create(
        rewriter, loc, r,
        arith::MulFOp::create(rewriter, loc, kf,
                              f(1.90821492927058770002e-10)));
    // Horner: sum of r^n / n! for n = 0 .. 13.
    double coefficient = 1.0;
    SmallVector<double> coefficients;
    for (int n = 0; n <= 13; ++n) {
      coefficients.push_back(coefficient);
      coefficient /= n + 1;
    }
    Value poly = f(coefficients.back());
    for (int n = 12; n >= 0; --n)
      poly = math::FmaOp::create(rewriter, loc, poly, r, f(coefficients[n]));
    // 2^k = 2^k1 * 2^k2, k1 = k >> 1, each factor a normal number.
    Value k = arith::FPToSIOp::create(
        rewriter, loc, i64,
        arith::MaximumFOp::create(
            rewriter, loc,
            arith::MinimumFOp::create(rewriter, loc, kf, f(2000.0)),
            f(-2000.0)));
    Value k1 = arith::ShRSIOp::create(rewriter, loc, k, i(1));
    Value k2 = arith::SubIOp::create(rewriter, loc, k, k1);
    auto power = [&](Value e) -> Value {
      Value bits = arith::ShLIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, e, i(1023)),
          i(52));
      return arith::BitcastOp::create(rewriter, loc, f64, bits);
    };
    Value result = arith::MulFOp::create(
        rewriter, loc, arith::MulFOp::create(rewriter, loc, poly, power(k1)),
        power(k2));
    auto select = [&](arith::CmpFPredicate predicate, double bound, Value v,
                      Value otherwise) -> Value {
      Value cond = arith::CmpFOp::create(rewriter, loc, predicate, x, f(bound));
      return arith::SelectOp::create(rewriter, loc, cond, v, otherwise);
    };
    result = select(arith::CmpFPredicate::OGT, 709.782712893384,
                    f(std::numeric_limits<double>::infinity()), result);
    result =
        select(arith::CmpFPredicate::OLT, -745.1332191019412, f(0.0), result);
    Value isNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, result);
    return success();
  }
};

/// exp on f32 (scalars or vectors): MLIR's approximation (its clamping of
/// x from below at -87.8 and of k to at most 127, two-part ln 2 and
/// polynomial) in 15 operations per element (a compare-and-select counted
/// as the one vmaxps/vminps it becomes; `pb-opt -pb-approximate-math` on a
/// math.exp), 3 fewer than this pattern's earlier version, as it is the
/// inner loop of a softmax:
/// - k = round(x log2(e)) by adding 1.5 * 2^23 + 127 in a fused
///   multiply-add (no floor, no conversion to an integer; k <= 127 is a
///   clamp of that sum), and 2^k from the bits of the sum shifted into the
///   exponent field: its low bits hold k + 127, the rest fall off the top
///   (no integer add of the bias);
/// - no clamp of x from above: beyond 88.8, where MLIR's clamp gave +inf
///   already, k = 127 and the polynomial of r = x - 127 ln 2 > 0.77 only
///   grows, so the result is still +inf (+inf for +inf);
/// - exp(r) = 1 + r (1 + r p(r)) in two fused multiply-adds instead of
///   r^2, r^2 p + r and + 1: one operation fewer, and more accurate (at
///   most 0.875 ulp over [-87.3, 88.3] against libm's double-precision exp,
///   0.998 before: tests/Transforms/Common/approximate-math-accuracy.mlir).
/// Below -87.3, k = -127 gives 0, as before. NaN stays NaN.
struct ExpF32Approximation : public OpRewritePattern<math::ExpOp> {
  ExpF32Approximation(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    Type intType = rewriter.getI32Type();
    if (auto vectorType = dyn_cast<VectorType>(type))
      intType = vectorType.clone(intType);
    auto fc = [&](float v) {
      return createScalarOrSplatConstant(rewriter, loc, type, APFloat(v));
    };
    // Bounds as compare-and-select, as MLIR's approximation does: NaN
    // passes through.
    auto bound = [&](Value v, arith::CmpFPredicate keep, float limit) {
      Value l = fc(limit);
      Value kept = arith::CmpFOp::create(rewriter, loc, keep, v, l);
      return arith::SelectOp::create(rewriter, loc, kept, v, l);
    };
    Value x = bound(op.getOperand(), arith::CmpFPredicate::UGE, -87.8f);
    // 1.5 * 2^23 + 127: k + 127 in the low mantissa bits (1.5 * 2^23 has
    // an ulp of 1, and k + 127 in [0, 254] stays below its 2^22 bit).
    const float shift = 12582912.0f + 127;
    Value shifter = fc(shift);
    // k <= 127, as in MLIR's version: 2^128 is not a float, while
    // exp(88.7) = 0.98 * 2^128 is.
    Value sum =
        bound(math::FmaOp::create(rewriter, loc, x, fc(1.44269502f), shifter),
              arith::CmpFPredicate::ULE, shift + 127);
    Value k = arith::SubFOp::create(rewriter, loc, sum, shifter);
    Value r = math::FmaOp::create(rewriter, loc, fc(-0.693359375f), k, x);
    r = math::FmaOp::create(rewriter, loc, fc(2.12194442e-4f), k, r);
    Value p = math::FmaOp::create(rewriter, loc, r, fc(1.98756912e-4f),
                                  fc(1.39819994e-3f));
    for (float c : {8.33345205e-3f, 4.16657962e-2f, 1.66666657e-1f, 0.5f})
      p = math::FmaOp::create(rewriter, loc, p, r, fc(c));
    Value expR = math::FmaOp::create(
        rewriter, loc, math::FmaOp::create(rewriter, loc, p, r, fc(1.0f)), r,
        fc(1.0f));
    Value bits = arith::BitcastOp::create(rewriter, loc, intType, sum);
    Value power = arith::BitcastOp::create(
        rewriter, loc, type,
        arith::ShLIOp::create(
            rewriter, loc, bits,
            createScalarOrSplatConstant(rewriter, loc, intType, 23)));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, expR, power);
    return success();
  }
};

/// The math ops that lower to instructions on every GPU, with no library:
/// what `complete` may leave.
static bool hasInstructionLowering(Operation *op) {
  return isa<math::AbsFOp, math::AbsIOp, math::SqrtOp, math::FmaOp,
             math::CopySignOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::CtPopOp>(op);
}

struct ApproximateMathPass
    : public polyblocks::impl::PBApproximateMathBase<ApproximateMathPass> {
  using PBApproximateMathBase::PBApproximateMathBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (complete) {
      // Every function with an approximation or an expansion (sin, cos,
      // rsqrt, floor, ...), for code that has no math library to call.
      populateMathPolynomialApproximationPatterns(
          patterns, [](StringRef) { return true; });
      // (Not fma or ctlz: those are instructions.)
      math::populateExpansionPatterns(
          patterns,
          {"ceil", "sinh", "cosh", "tan", "tanh", "asinh", "acosh", "atanh",
           "exp2", "powf", "fpowi", "round", "roundeven", "rsqrt"});
      patterns.add<FloorViaCeil, ExpF64Approximation>(&getContext());
    } else {
      populateMathPolynomialApproximationPatterns(
          patterns, polyblocks::isApproximatedMathOp);
    }
    patterns.add<ExpF32Approximation>(&getContext());
    // The math ops and what they expand into, not the program's other ops.
    if (failed(polyblocks::applyPatternsToRootOps(getOperation(),
                                                  std::move(patterns))))
      return signalPassFailure();
    if (!complete)
      return;
    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<math::MathDialect>(op->getDialect()) ||
          hasInstructionLowering(op))
        return WalkResult::advance();
      op->emitOpError() << "on " << op->getResultTypes().front()
                        << " has no implementation in device code without "
                           "a math library (PolyBlocks links none for this "
                           "target)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
