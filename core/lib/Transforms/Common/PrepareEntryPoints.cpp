//===- PrepareEntryPoints.cpp - Inputs read-only, results distinct --------===//
//
// Before bufferization: the arguments of public functions are marked not
// writable, and a value returned twice is copied (bufferization.alloc_tensor
// with a copy), so that bufferization
// produces exactly the C interface's contract (const inputs, one written
// buffer per result).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

#define DEBUG_TYPE "pb-prepare-entry-points"

namespace polyblocks {
#define GEN_PASS_DEF_PBPREPAREENTRYPOINTS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct PrepareEntryPointsPass
    : public polyblocks::impl::PBPrepareEntryPointsBase<
          PrepareEntryPointsPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      for (BlockArgument arg : func.getArguments())
        if (isa<TensorType>(arg.getType()))
          func.setArgAttr(
              arg.getArgNumber(),
              bufferization::BufferizationDialect::kWritableAttrName,
              builder.getBoolAttr(false));
      func.walk([&](func::ReturnOp ret) {
        llvm::SmallPtrSet<Value, 4> returned;
        for (OpOperand &operand : ret->getOpOperands()) {
          Value value = operand.get();
          auto type = dyn_cast<RankedTensorType>(value.getType());
          if (!type || returned.insert(value).second)
            continue;
          // An explicit copy: empty-tensor elimination would fold a copy
          // into a tensor.empty back onto the value itself.
          builder.setInsertionPoint(ret);
          auto copy = bufferization::AllocTensorOp::create(
              builder, ret.getLoc(), type, ValueRange{}, value);
          operand.set(copy.getResult());
        }
      });
    }
  }
};
} // namespace
