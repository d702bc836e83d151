//===- ExpandArith.cpp - Expand arith ops LLVM has no lowering for --------===//
//
// Expands bf16 conversions into integer code (no compiler-rt helper such as
// __truncsfbf2 is needed) and ceil/floor divisions into plain divisions,
// leaving min/max to LLVM's intrinsics, which its vectorizer understands.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Transforms/Utils/Rewrites.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"

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
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    // The ops the patterns rewrite, and only those: the canonicalizations
    // after this pass fold and simplify the rest.
    if (failed(polyblocks::applyPatternsToRootOps(getOperation(),
                                                  std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
