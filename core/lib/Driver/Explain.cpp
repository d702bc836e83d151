//===- Explain.cpp - Why each nest got its tiles, fusion and threads ------===//

#include "polyblocks/Driver/Explain.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace polyblocks {

/// The trip counts of the loops down the first path of the nest at `root`.
static std::string describeIterations(Operation *root) {
  std::string text;
  for (Operation *op = root; op;) {
    std::string trips = "?";
    if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
      if (std::optional<uint64_t> n = affine::getConstantTripCount(loop))
        trips = std::to_string(*n);
    } else if (auto parallel = dyn_cast<affine::AffineParallelOp>(op)) {
      if (auto ranges = parallel.getConstantRanges()) {
        trips.clear();
        for (auto [i, range] : llvm::enumerate(*ranges))
          trips += (i ? " x " : "") + std::to_string(range);
      }
    } else if (!isa<LoopLikeOpInterface>(op)) {
      break;
    }
    text += (text.empty() ? "" : " x ") + trips;
    Operation *next = nullptr;
    for (Region &region : op->getRegions())
      for (Operation &inner : region.getOps())
        if (isa<LoopLikeOpInterface>(inner)) {
          next = &inner;
          break;
        }
    op = next;
  }
  return text;
}

std::vector<NestExplanation> explainFunction(Operation *func) {
  std::vector<NestExplanation> nests;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func || !isa<LoopLikeOpInterface>(op))
      return WalkResult::advance();
    nests.push_back({op, describeIterations(op), getDecisions(op)});
    return WalkResult::skip();
  });
  return nests;
}

void emitExplanationRemarks(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    for (auto [i, nest] : llvm::enumerate(explainFunction(func))) {
      std::string where = "@" + func.getSymName().str() + ", nest " +
                          std::to_string(i + 1) + " (" + nest.iterations +
                          " iterations)";
      if (nest.decisions.empty()) {
        emitRemark(nest.root->getLoc())
            << where << ": no pass shaped it (loops as S2 wrote them)";
        continue;
      }
      for (const Decision &decision : nest.decisions)
        emitRemark(nest.root->getLoc())
            << where << ": " << decision.pass << ": " << decision.summary;
    }
  }
}

} // namespace polyblocks
