//===- Rewrites.cpp - Patterns applied to the ops they rewrite ------------===//

#include "polyblocks/Transforms/Utils/Rewrites.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace polyblocks {

LogicalResult applyPatternsToRootOps(Operation *root,
                                     const FrozenRewritePatternSet &patterns) {
  auto anyOpPatterns = patterns.getMatchAnyOpNativePatterns();
  bool anyOp =
      anyOpPatterns.begin() != anyOpPatterns.end() || patterns.getPDLByteCode();
  const auto &roots = patterns.getOpSpecificNativePatterns();
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op != root && (anyOp || roots.contains(op->getName())))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, patterns, config);
}

} // namespace polyblocks
