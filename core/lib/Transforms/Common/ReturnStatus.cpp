//===- ReturnStatus.cpp - Public functions return an i32 status -----------===//
//
// Gives every public function the `-> i32` status result of the PolyBlocks C
// interface, once its results have become out-parameters.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-return-status"

namespace polyblocks {
#define GEN_PASS_DEF_PBRETURNSTATUS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct ReturnStatusPass
    : public polyblocks::impl::PBReturnStatusBase<ReturnStatusPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A call to a public function would see its type change under it.
    WalkResult calls = module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (callee && callee.isPublic()) {
        call.emitOpError() << "calls public function @" << callee.getSymName()
                           << ", which must be inlined before pb-return-status";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (calls.wasInterrupted())
      return signalPassFailure();

    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      if (func.getNumResults() != 0) {
        func.emitOpError() << "still has results; pb-return-status expects "
                              "results to be out-parameters";
        return signalPassFailure();
      }
      OpBuilder builder(func.getContext());
      auto i32 = builder.getI32Type();
      func.setFunctionType(
          builder.getFunctionType(func.getArgumentTypes(), {i32}));
      func.walk([&](func::ReturnOp ret) {
        builder.setInsertionPoint(ret);
        Value ok = arith::ConstantIntOp::create(builder, ret.getLoc(), 0, 32);
        ret.getOperandsMutable().assign(ok);
      });
    }
  }
};
} // namespace
