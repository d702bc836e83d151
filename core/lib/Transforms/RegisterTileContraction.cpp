//===- RegisterTileContraction.cpp - Vector micro-kernels for matmuls -----===//
//
// Rewrites perfect (i, k, j) nests computing C += X * Y into a cache-blocked
// nest whose innermost loop keeps an MR x NR block of C in vector registers
// across a block of k.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-register-tile-contraction"

namespace polyblocks {
#define GEN_PASS_DEF_PBREGISTERTILECONTRACTION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;
using polyblocks::AccessStride;
using polyblocks::getAccessStride;

namespace {

/// A matched `C[..] += X[..] * Y[..]` nest.
struct Contraction {
  AffineForOp iLoop, kLoop, jLoop;
  AffineLoadOp accLoad;   ///< C, read
  AffineStoreOp accStore; ///< C, written
  AffineLoadOp rowLoad;   ///< moves with i (and k), not with j: one scalar per row
  AffineLoadOp panelLoad; ///< moves with k and j (unit stride), not with i
  Type elementType;
};

static bool isZeroBasedUnitStep(AffineForOp loop) {
  return loop.hasConstantLowerBound() && loop.getConstantLowerBound() == 0 &&
         loop.hasConstantUpperBound() && loop.getStepAsInt() == 1;
}

/// True if `load` reads exactly what `store` writes.
static bool sameAccess(AffineLoadOp load, AffineStoreOp store) {
  return load.getMemRef() == store.getMemRef() &&
         load.getAffineMap() == store.getAffineMap() &&
         llvm::equal(load.getMapOperands(), store.getMapOperands());
}

static std::optional<Contraction> matchContraction(AffineForOp root) {
  SmallVector<AffineForOp> band;
  getPerfectlyNestedLoops(band, root);
  if (band.size() != 3 || !llvm::all_of(band, isZeroBasedUnitStep))
    return std::nullopt;
  Block *body = band[2].getBody();
  // Three loads, a multiply, an add, a store and the terminator.
  if (body->getOperations().size() != 7)
    return std::nullopt;
  auto store = dyn_cast<AffineStoreOp>(*std::prev(body->end(), 2));
  if (!store)
    return std::nullopt;
  auto add = store.getValue().getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  Type elementType = add.getType();
  if (!elementType.isF32() && !elementType.isF64())
    return std::nullopt;
  AffineLoadOp accLoad;
  arith::MulFOp mul;
  for (Value operand : add->getOperands()) {
    if (auto load = operand.getDefiningOp<AffineLoadOp>();
        load && sameAccess(load, store))
      accLoad = load;
    else
      mul = operand.getDefiningOp<arith::MulFOp>();
  }
  if (!accLoad || !mul)
    return std::nullopt;
  auto lhs = mul.getLhs().getDefiningOp<AffineLoadOp>();
  auto rhs = mul.getRhs().getDefiningOp<AffineLoadOp>();
  if (!lhs || !rhs)
    return std::nullopt;

  Value i = band[0].getInductionVar(), k = band[1].getInductionVar(),
        j = band[2].getInductionVar();
  // C: one element per (i, j), unit stride along j, the same for every k.
  if (getAccessStride(store, i) == AccessStride::Invariant ||
      getAccessStride(store, k) != AccessStride::Invariant ||
      getAccessStride(store, j) != AccessStride::Contiguous)
    return std::nullopt;
  auto isRow = [&](AffineLoadOp load) {
    return getAccessStride(load, j) == AccessStride::Invariant &&
           getAccessStride(load, i) != AccessStride::Invariant;
  };
  auto isPanel = [&](AffineLoadOp load) {
    return getAccessStride(load, i) == AccessStride::Invariant &&
           getAccessStride(load, j) == AccessStride::Contiguous;
  };
  Contraction c{band[0], band[1], band[2], accLoad, store, {}, {}, elementType};
  if (isRow(lhs) && isPanel(rhs)) {
    c.rowLoad = lhs;
    c.panelLoad = rhs;
  } else if (isRow(rhs) && isPanel(lhs)) {
    c.rowLoad = rhs;
    c.panelLoad = lhs;
  } else {
    return std::nullopt;
  }
  // The factors must not be read from the buffer being written.
  if (c.rowLoad.getMemRef() == store.getMemRef() ||
      c.panelLoad.getMemRef() == store.getMemRef())
    return std::nullopt;
  return c;
}

struct RegisterTileContractionPass
    : public polyblocks::impl::PBRegisterTileContractionBase<
          RegisterTileContractionPass> {
  using PBRegisterTileContractionBase::PBRegisterTileContractionBase;

  void runOnOperation() override {
    SmallVector<AffineForOp> roots;
    getOperation().walk([&](AffineForOp loop) {
      if (!loop->getParentOfType<AffineForOp>())
        roots.push_back(loop);
    });
    for (AffineForOp root : roots)
      if (std::optional<Contraction> c = matchContraction(root))
        rewrite(*c);
  }

  void rewrite(Contraction c) {
    int64_t m = c.iLoop.getConstantUpperBound();
    int64_t kTrips = c.kLoop.getConstantUpperBound();
    int64_t n = c.jLoop.getConstantUpperBound();
    // MR: the largest number of rows up to `rows` that divides M (a single
    // row for matrix-vector products). NR: `lanes`, or half of it when N is
    // a multiple of that only.
    int64_t mr = std::max<int64_t>(1, std::min<int64_t>(rows, m));
    while (m % mr != 0)
      --mr;
    int64_t nr = lanes;
    if (nr > 1 && n % nr != 0 && n % (nr / 2) == 0)
      nr /= 2;
    if (nr == 0 || n % nr != 0) {
      LLVM_DEBUG(llvm::dbgs() << "not tiling: " << n
                              << " columns are not a multiple of the tile\n");
      return;
    }
    // The largest k block up to `kBlock` that divides the trip count.
    int64_t kc = std::max<int64_t>(1, std::min<int64_t>(kBlock, kTrips));
    while (kTrips % kc != 0)
      --kc;

    Value oldI = c.iLoop.getInductionVar(), oldK = c.kLoop.getInductionVar(),
          oldJ = c.jLoop.getInductionVar();
    /// The operands of `access` with the old induction variables replaced.
    auto remap = [&](auto access, Value newI, Value newK, Value newJ) {
      SmallVector<Value> operands;
      for (Value operand : access.getMapOperands()) {
        if (operand == oldI)
          operand = newI;
        else if (operand == oldK)
          operand = newK;
        else if (operand == oldJ)
          operand = newJ;
        operands.push_back(operand);
      }
      return operands;
    };

    OpBuilder b(c.iLoop);
    Location loc = c.iLoop.getLoc();
    MLIRContext *ctx = b.getContext();
    auto vectorType = VectorType::get({nr}, c.elementType);
    Value accMemRef = c.accStore.getMemRef();

    // Y is packed, one k block at a time, into contiguous NR-wide panels:
    // read in place, the rows of a panel lie a whole row of Y apart and
    // collide in the same cache sets.
    auto packType = MemRefType::get({n / nr, kc, nr}, c.elementType);
    Value pack = memref::AllocOp::create(b, loc, packType, b.getI64IntegerAttr(64));
    auto kBlockLoop = AffineForOp::create(b, loc, 0, kTrips, kc);
    memref::DeallocOp::create(b, loc, pack);
    b.setInsertionPointToStart(kBlockLoop.getBody());
    Value kt = kBlockLoop.getInductionVar();
    auto jTile = AffineForOp::create(b, loc, 0, n, nr);
    b.setInsertionPointToStart(jTile.getBody());
    Value jt = jTile.getInductionVar();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
    AffineMap plusBlock = AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + kc);
    // pack[jt / NR, k - kt, 0], with operands (jt, k, kt).
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
               d2 = getAffineDimExpr(2, ctx);
    AffineMap packMap = AffineMap::get(
        3, 0, {d0.floorDiv(nr), d1 - d2, getAffineConstantExpr(0, ctx)}, ctx);
    AffineForOp::create(
        b, loc, ValueRange{kt}, identity, ValueRange{kt}, plusBlock, 1,
        ValueRange{},
        [&](OpBuilder &nested, Location nestedLoc, Value k, ValueRange) {
          Value row = AffineVectorLoadOp::create(
              nested, nestedLoc, vectorType, c.panelLoad.getMemRef(),
              c.panelLoad.getAffineMap(), remap(c.panelLoad, Value(), k, jt));
          AffineVectorStoreOp::create(nested, nestedLoc, row, pack, packMap,
                                      ValueRange{jt, k, kt});
          AffineYieldOp::create(nested, nestedLoc);
        });
    auto iTile = AffineForOp::create(b, loc, 0, m, mr);
    b.setInsertionPointToStart(iTile.getBody());

    // Row indices it + r, and the accumulators' initial values.
    SmallVector<Value> rowIvs, initial;
    for (int64_t r = 0; r < mr; ++r) {
      Value row = iTile.getInductionVar();
      if (r != 0)
        row = AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + r), row);
      rowIvs.push_back(row);
      initial.push_back(AffineVectorLoadOp::create(
          b, loc, vectorType, accMemRef, c.accLoad.getAffineMap(),
          remap(c.accLoad, row, Value(), jt)));
    }

    auto kLoop = AffineForOp::create(
        b, loc, ValueRange{kt}, identity, ValueRange{kt}, plusBlock, 1, initial,
        [&](OpBuilder &nested, Location nestedLoc, Value k, ValueRange accs) {
          Value panel = AffineVectorLoadOp::create(
              nested, nestedLoc, vectorType, pack, packMap,
              ValueRange{jt, k, kt});
          SmallVector<Value> next;
          for (int64_t r = 0; r < mr; ++r) {
            Value scalar = AffineLoadOp::create(
                nested, nestedLoc, c.rowLoad.getMemRef(),
                c.rowLoad.getAffineMap(), remap(c.rowLoad, rowIvs[r], k, Value()));
            Value splat =
                vector::BroadcastOp::create(nested, nestedLoc, vectorType, scalar);
            next.push_back(
                vector::FMAOp::create(nested, nestedLoc, splat, panel, accs[r]));
          }
          AffineYieldOp::create(nested, nestedLoc, next);
        });
    for (int64_t r = 0; r < mr; ++r)
      AffineVectorStoreOp::create(b, loc, kLoop.getResult(r), accMemRef,
                                  c.accStore.getAffineMap(),
                                  remap(c.accStore, rowIvs[r], Value(), jt));
    c.iLoop.erase();
  }
};

} // namespace
