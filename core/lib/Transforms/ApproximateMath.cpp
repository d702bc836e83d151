//===- ApproximateMath.cpp - Inline polynomial math functions -------------===//
//
// Replaces f32 transcendental functions (exp, log, tanh, erf, ...) by
// polynomial approximations written in arith, so that loops calling them
// vectorize instead of calling libm once per element.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"

#define DEBUG_TYPE "pb-approximate-math"

namespace polyblocks {
#define GEN_PASS_DEF_PBAPPROXIMATEMATH
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The functions whose approximations pass the f32 tolerances of pbtool
/// crosscheck against libm over their whole domain
/// (tests/e2e/math-approximations.mlir).
static bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::StringSwitch<bool>(name)
      .Cases({"exp", "expm1", "exp2", "log", "log1p", "log2", "tanh", "erf"},
             true)
      .Default(false);
}

struct ApproximateMathPass
    : public polyblocks::impl::PBApproximateMathBase<ApproximateMathPass> {
  using PBApproximateMathBase::PBApproximateMathBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
