//===- DecomposeAggregateOps.cpp - Split linalg.softmax and friends -------===//
//
// Replaces linalg ops that stand for a whole computation (linalg.softmax,
// the Winograd transforms: every op implementing AggregatedOpInterface) by
// the linalg ops they are made of, so that the rest of the pipeline, which
// lowers structured ops to loops, sees only those.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "pb-decompose-aggregate-ops"

namespace polyblocks {
#define GEN_PASS_DEF_PBDECOMPOSEAGGREGATEOPS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct DecomposeAggregateOpsPass
    : public polyblocks::impl::PBDecomposeAggregateOpsBase<
          DecomposeAggregateOpsPass> {
  using PBDecomposeAggregateOpsBase::PBDecomposeAggregateOpsBase;

  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
      if (failed(values)) {
        op->emitError("cannot decompose '")
            << op->getName() << "' into simpler linalg ops";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *values);
    }
  }
};

} // namespace
