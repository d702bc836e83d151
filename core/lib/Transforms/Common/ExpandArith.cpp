//===- ExpandArith.cpp - Expand arith ops LLVM has no lowering for --------===//
//
// Expands bf16 conversions into integer code (no compiler-rt helper such as
// __truncsfbf2 is needed) and ceil/floor divisions into plain divisions,
// leaving min/max to LLVM's intrinsics, which its vectorizer understands.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-expand-arith"

namespace polyblocks {
#define GEN_PASS_DEF_PBEXPANDARITH
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct ExpandArithPass
    : public polyblocks::impl::PBExpandArithBase<ExpandArithPass> {
  using PBExpandArithBase::PBExpandArithBase;

  void runOnOperation() override {
    // The ops the patterns rewrite, and only those: a network's function
    // holds hundreds of thousands of ops and a handful of these, and a
    // rewrite of the whole function would fold and simplify it all again
    // (the canonicalizations after this pass do that).
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp, arith::CeilDivSIOp,
              arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
        candidates.push_back(op);
    });
    if (candidates.empty())
      return;
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(
            applyOpPatternsGreedily(candidates, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
