//===- HoistReciprocals.cpp - Divide by a loop invariant once -------------===//
//
// A floating-point division by a value that does not change in the loop
// becomes a multiplication by its reciprocal, computed once before the
// loop: a vector division costs several times a multiplication (the last
// pass of a softmax divides every element by the row's sum).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-hoist-reciprocals"

namespace polyblocks {
#define GEN_PASS_DEF_PBHOISTRECIPROCALS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

struct HoistReciprocalsPass
    : public polyblocks::impl::PBHoistReciprocalsBase<HoistReciprocalsPass> {
  using PBHoistReciprocalsBase::PBHoistReciprocalsBase;

  void runOnOperation() override {
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](arith::DivFOp div) {
      auto loop = dyn_cast<AffineForOp>(div->getParentOp());
      // Only innermost loops with enough iterations to pay for the one
      // division kept.
      if (loop && loop.isDefinedOutsideOfLoop(div.getRhs()) &&
          isa<FloatType>(div.getType()) &&
          !polyblocks::containsLoop(loop.getBody()))
        divisions.push_back(div);
    });
    DenseMap<std::pair<Operation *, Value>, Value> reciprocals;
    for (arith::DivFOp div : divisions) {
      auto loop = cast<AffineForOp>(div->getParentOp());
      Value &reciprocal = reciprocals[{loop, div.getRhs()}];
      if (!reciprocal) {
        OpBuilder b(loop);
        Value one = arith::ConstantOp::create(
            b, div.getLoc(), FloatAttr::get(div.getType(), 1.0));
        reciprocal = arith::DivFOp::create(b, div.getLoc(), one, div.getRhs());
      }
      OpBuilder b(div);
      Value product =
          arith::MulFOp::create(b, div.getLoc(), div.getLhs(), reciprocal);
      div.getResult().replaceAllUsesWith(product);
      div.erase();
    }
  }
};

} // namespace
