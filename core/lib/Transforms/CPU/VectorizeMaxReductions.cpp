//===- VectorizeMaxReductions.cpp - One instruction per vector for max ----===//
//
// Rewrites innermost maximumf/minimumf reductions over a contiguous row into
// a vector loop of compare-and-select (one vmaxps/vminps on x86) that also
// notes NaNs, with the exact loop kept for the rows where the fast result
// could differ (a NaN, a zero maximum).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "polyblocks/Target/MachineModel.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-vectorize-max-reductions"

namespace polyblocks {
#define GEN_PASS_DEF_PBVECTORIZEMAXREDUCTIONS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// A matched `%m = maximumf(load(row[.., %j]), %acc)` loop.
struct MaxReduction {
  AffineLoadOp load;
  vector::CombiningKind kind; ///< MAXIMUMF or MINIMUMF
  Type elementType;
  int64_t lanes;
};

std::optional<MaxReduction> matchMaxReduction(AffineForOp loop,
                                              unsigned vectorBits) {
  if (loop.getNumResults() != 1 || !loop.hasConstantBounds() ||
      loop.getStepAsInt() != 1)
    return std::nullopt;
  Block *body = loop.getBody();
  if (body->getOperations().size() != 3)
    return std::nullopt;
  auto load = dyn_cast<AffineLoadOp>(body->front());
  Operation *reduce = body->front().getNextNode();
  auto yield = cast<AffineYieldOp>(body->getTerminator());
  if (!load || !isa<arith::MaximumFOp, arith::MinimumFOp>(reduce) ||
      yield.getOperand(0) != reduce->getResult(0))
    return std::nullopt;
  Value acc = loop.getRegionIterArgs().front();
  Value x = load.getResult();
  if (!((reduce->getOperand(0) == x && reduce->getOperand(1) == acc) ||
        (reduce->getOperand(0) == acc && reduce->getOperand(1) == x)))
    return std::nullopt;
  Type elementType = x.getType();
  if (!elementType.isF32() && !elementType.isF64())
    return std::nullopt;
  int64_t lanes = vectorBits / elementType.getIntOrFloatBitWidth();
  int64_t trips = loop.getConstantUpperBound() - loop.getConstantLowerBound();
  if (lanes < 2 || trips < lanes || trips % lanes != 0 ||
      polyblocks::getAccessStride(load, loop.getInductionVar()) !=
          polyblocks::AccessStride::Contiguous)
    return std::nullopt;
  return MaxReduction{load,
                      isa<arith::MaximumFOp>(reduce)
                          ? vector::CombiningKind::MAXIMUMF
                          : vector::CombiningKind::MINIMUMF,
                      elementType, lanes};
}

struct VectorizeMaxReductionsPass
    : public polyblocks::impl::PBVectorizeMaxReductionsBase<
          VectorizeMaxReductionsPass> {
  using PBVectorizeMaxReductionsBase::PBVectorizeMaxReductionsBase;

  void runOnOperation() override {
    unsigned bits =
        vectorBits ? vectorBits
                   : polyblocks::getMachineModel(getOperation()).cpu.vectorBits;
    SmallVector<std::pair<AffineForOp, MaxReduction>> matches;
    getOperation().walk([&](AffineForOp loop) {
      if (std::optional<MaxReduction> match = matchMaxReduction(loop, bits))
        matches.push_back({loop, *match});
    });
    for (auto [loop, match] : matches)
      rewrite(loop, match);
  }

  void rewrite(AffineForOp loop, MaxReduction match) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    int64_t lanes = match.lanes;
    bool isMax = match.kind == vector::CombiningKind::MAXIMUMF;
    auto vectorType = VectorType::get({lanes}, match.elementType);
    const llvm::fltSemantics &semantics =
        cast<FloatType>(match.elementType).getFloatSemantics();
    auto splat = [&](APFloat value) {
      return createScalarOrSplatConstant(b, loc, vectorType, value);
    };
    // Every lane starts at -inf (+inf): a row of -inf (+inf) gives it back.
    Value start = splat(APFloat::getInf(semantics, /*Negative=*/isMax));
    auto flagsType = VectorType::get({lanes}, b.getI1Type());
    Value noNaN = createScalarOrSplatConstant(b, loc, flagsType, 0);
    auto fast = AffineForOp::create(
        b, loc, loop.getLowerBoundOperands(), loop.getLowerBoundMap(),
        loop.getUpperBoundOperands(), loop.getUpperBoundMap(), lanes,
        ValueRange{start, noNaN},
        [&](OpBuilder &lb, Location ll, Value iv, ValueRange args) {
          Value x = AffineVectorLoadOp::create(
              lb, ll, vectorType, match.load.getMemRef(),
              match.load.getAffineMap(),
              polyblocks::remapOperands(match.load.getMapOperands(),
                                        {{loop.getInductionVar(), iv}}));
          // select(x > m, x, m): x86's vmaxps exactly, infinities included;
          // NaNs and the sign of zero are what it gets wrong.
          Value better = arith::CmpFOp::create(
              lb, ll,
              isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x,
              args[0]);
          Value m = arith::SelectOp::create(lb, ll, better, x, args[0]);
          // The lanes that have seen a NaN: one compare into a mask and an
          // or (AVX-512: vcmpunordps, korw), latency 1 on the carried chain.
          Value nan =
              arith::CmpFOp::create(lb, ll, arith::CmpFPredicate::UNO, x, x);
          Value flags = arith::OrIOp::create(lb, ll, args[1], nan);
          AffineYieldOp::create(lb, ll, ValueRange{m, flags});
        });
    Value lanesResult =
        vector::ReductionOp::create(b, loc, match.kind, fast.getResult(0));
    Value special = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::OR, fast.getResult(1));
    Value scalarZero = createScalarOrSplatConstant(b, loc, match.elementType,
                                                   APFloat::getZero(semantics));
    Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         lanesResult, scalarZero);
    Value exactNeeded = arith::OrIOp::create(b, loc, special, isZero);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{match.elementType},
                                  exactNeeded, /*withElseRegion=*/true);
    Value exact = loop.getResult(0);
    exact.replaceAllUsesWith(ifOp.getResult(0));
    // Then: the original loop, unchanged.
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(thenBuilder, loc, exact);
    loop->moveBefore(ifOp.thenYield());
    // Else: the lanes' result combined with the initial value.
    OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
    Value init = loop.getInits().front();
    Value combined = isMax ? Value(arith::MaximumFOp::create(elseBuilder, loc,
                                                             lanesResult, init))
                           : Value(arith::MinimumFOp::create(
                                 elseBuilder, loc, lanesResult, init));
    scf::YieldOp::create(elseBuilder, loc, combined);
    LLVM_DEBUG(llvm::dbgs()
               << "vectorized a max/min reduction of " << lanes << " lanes\n");
  }
};

} // namespace
