//===- LowerAssertions.cpp - cf.assert becomes a checked status -----------===//
//
// Run-time checks of the input program (cf.assert, as exporters write them
// for index bounds) never abort the process: a failing check skips the rest
// of the work it guards and makes the entry point return
// PB_STATUS_CHECK_FAILED.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/runtime.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-lower-assertions"

namespace polyblocks {
#define GEN_PASS_DEF_PBLOWERASSERTIONS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

/// Moves the operations after `assertion` in its block (but the terminator)
/// into an scf.if on its condition whose else branch records the failure in
/// `failureFlag`, and erases `assertion`. Values those operations define for
/// the terminator become results of the scf.if (zero when the check failed);
/// fails if one has no zero.
static LogicalResult guardRestOfBlock(cf::AssertOp assertion,
                                      Value failureFlag) {
  Block *block = assertion->getBlock();
  Operation *terminator = block->getTerminator();
  SmallVector<Operation *> rest;
  for (Operation *op = assertion->getNextNode(); op != terminator;
       op = op->getNextNode())
    rest.push_back(op);
  SmallVector<Value> escaping;
  for (Value operand : terminator->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && def->getBlock() == block && def->isBeforeInBlock(terminator) &&
        assertion->isBeforeInBlock(def) &&
        !llvm::is_contained(escaping, operand))
      escaping.push_back(operand);

  OpBuilder builder(assertion);
  Location loc = assertion.getLoc();
  SmallVector<TypedAttr> zeros;
  for (Value value : escaping) {
    auto zero =
        dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(value.getType()));
    if (!zero)
      return assertion.emitOpError()
             << "guards the computation of a value of type " << value.getType()
             << ", which has no zero to stand for it";
    zeros.push_back(zero);
  }
  auto guard = scf::IfOp::create(builder, loc, TypeRange(ValueRange(escaping)),
                                 assertion.getArg(), /*addThenBlock=*/true,
                                 /*addElseBlock=*/true);
  Block *then = guard.thenBlock();
  builder.setInsertionPointToEnd(then);
  Operation *thenYield = scf::YieldOp::create(builder, loc, escaping);
  for (Operation *op : rest)
    op->moveBefore(thenYield);
  for (auto [value, result] : llvm::zip(escaping, guard.getResults()))
    value.replaceUsesWithIf(
        result, [&](OpOperand &use) { return use.getOwner() == terminator; });

  builder.setInsertionPointToEnd(guard.elseBlock());
  Value one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  // Any thread may fail a check: the flag is set atomically.
  memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::assign, one,
                              failureFlag, ValueRange{});
  SmallVector<Value> fillers = llvm::map_to_vector(zeros, [&](TypedAttr zero) {
    return arith::ConstantOp::create(builder, loc, zero).getResult();
  });
  scf::YieldOp::create(builder, loc, fillers);
  assertion.erase();
  return success();
}

namespace {
struct LowerAssertionsPass
    : public polyblocks::impl::PBLowerAssertionsBase<LowerAssertionsPass> {
  using PBLowerAssertionsBase::PBLowerAssertionsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<cf::AssertOp> assertions;
    func.walk([&](cf::AssertOp op) { assertions.push_back(op); });
    if (mode != "guard" && mode != "drop" && mode != "reject") {
      func.emitError() << "unknown mode '" << mode
                       << "' of pb-lower-assertions (expected guard, drop or "
                          "reject)";
      return signalPassFailure();
    }
    if (assertions.empty())
      return;
    if (mode == "drop") {
      for (cf::AssertOp op : assertions)
        op.erase();
      return;
    }
    if (mode == "reject") {
      for (cf::AssertOp op : assertions)
        op.emitOpError() << "(a run-time check) is not supported for GPU "
                            "targets: compile with --drop-assertions to run "
                            "without the checks";
      return signalPassFailure();
    }
    auto i32 = IntegerType::get(&getContext(), 32);
    if (!func.isPublic() ||
        func.getFunctionType().getResults() != ArrayRef<Type>{i32}) {
      assertions.front().emitOpError()
          << "is in a function without a status result; pb-lower-assertions "
             "expects the public entry points of pb-return-status";
      return signalPassFailure();
    }

    OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    Value failureFlag =
        memref::AllocaOp::create(builder, loc, MemRefType::get({}, i32));
    Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
    memref::StoreOp::create(builder, loc, zero, failureFlag);
    // Innermost first: an assertion moved into a guard keeps its block.
    for (cf::AssertOp assertion : llvm::reverse(assertions))
      if (failed(guardRestOfBlock(assertion, failureFlag)))
        return signalPassFailure();

    func.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      Location retLoc = ret.getLoc();
      Value flag = memref::LoadOp::create(builder, retLoc, failureFlag);
      Value isFailed = arith::CmpIOp::create(
          builder, retLoc, arith::CmpIPredicate::ne, flag, zero);
      Value checkFailed = arith::ConstantIntOp::create(
          builder, retLoc, PB_STATUS_CHECK_FAILED, 32);
      Value status = arith::SelectOp::create(builder, retLoc, isFailed,
                                             checkFailed, ret.getOperand(0));
      ret.getOperandsMutable().assign(status);
    });
  }
};
} // namespace
