//===- YieldIntoIterArgs.cpp - Loops carry their tensors in place ---------===//
//
// Before bufferization: a tensor that a loop (scf.for, scf.while) carries
// from one iteration to the next is written back into the buffer of the
// iteration argument, so that one-shot bufferization keeps one buffer per
// carried tensor instead of a new allocation every iteration.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-yield-into-iter-args"

namespace polyblocks {
#define GEN_PASS_DEF_PBYIELDINTOITERARGS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

/// Makes each tensor among `operands` (of a loop's terminator) that is
/// computed in the loop be materialized in the buffer of the iteration
/// argument at the same position in `args`, the one bufferization requires
/// it to be equivalent to. Values that are block arguments already (carried
/// unchanged or swapped) are left alone, and so are iteration arguments that
/// the terminator passes on themselves: their buffer still holds a value to
/// be read.
static void materializeIntoIterArgs(Operation *terminator,
                                    MutableArrayRef<OpOperand> operands,
                                    ValueRange args) {
  if (operands.size() != args.size())
    return;
  OpBuilder builder(terminator);
  for (auto [operand, arg] : llvm::zip(operands, args)) {
    Value value = operand.get();
    if (!isa<RankedTensorType>(value.getType()) ||
        value.getType() != arg.getType() || isa<BlockArgument>(value) ||
        llvm::is_contained(terminator->getOperands(), arg))
      continue;
    auto materialize = bufferization::MaterializeInDestinationOp::create(
        builder, terminator->getLoc(), value, arg);
    operand.set(materialize.getResult());
  }
}

namespace {
struct YieldIntoIterArgsPass
    : public polyblocks::impl::PBYieldIntoIterArgsBase<YieldIntoIterArgsPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        Operation *yield = loop.getBody()->getTerminator();
        materializeIntoIterArgs(yield, yield->getOpOperands(),
                                loop.getRegionIterArgs());
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        // scf.condition forwards to the after region and scf.yield to the
        // before region; bufferization wants each equivalent to the
        // arguments of its own block, position by position.
        scf::ConditionOp condition = loop.getConditionOp();
        materializeIntoIterArgs(condition, condition.getArgsMutable(),
                                loop.getBeforeArguments());
        scf::YieldOp yield = loop.getYieldOp();
        materializeIntoIterArgs(yield, yield->getOpOperands(),
                                loop.getAfterArguments());
      }
    });
  }
};
} // namespace
