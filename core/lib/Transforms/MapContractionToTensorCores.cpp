//===- MapContractionToTensorCores.cpp - f16 matmuls on tensor cores ------===//
//
// Replaces f16 x f16 -> f32 matrix-product nests by kernels of warp-level
// matrix operations, one warp per 16 x 16 tile of the result.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "pb-map-contraction-to-tensor-cores"

namespace polyblocks {
#define GEN_PASS_DEF_PBMAPCONTRACTIONTOTENSORCORES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The edge of the warp-level matrix tiles (WMMA m16n16k16).
constexpr int64_t kTile = 16;
constexpr int64_t kWarpSize = 32;

/// A matched `C[i, j] += ext(A[i, k]) * ext(B[k, j])` nest.
struct TensorCoreProduct {
  AffineForOp iLoop, jLoop, kLoop;
  Value a, b, c;
  int64_t m, n, k;
};

/// A zero-based unit-step loop with a constant trip count that is a
/// multiple of the tile.
static std::optional<int64_t> getTiledTripCount(AffineForOp loop) {
  if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
      loop.getStepAsInt() != 1)
    return std::nullopt;
  int64_t trips = loop.getConstantUpperBound();
  if (trips <= 0 || trips % kTile != 0)
    return std::nullopt;
  return trips;
}

/// The loop's only child loop, when the body holds nothing else.
static AffineForOp getOnlyChild(AffineForOp loop) {
  Block *body = loop.getBody();
  if (body->getOperations().size() != 2)
    return AffineForOp();
  return dyn_cast<AffineForOp>(body->front());
}

/// True if `access` reads or writes `memref[d0, d1]` of a row-major 2-D
/// buffer with exactly the loop indices (d0, d1).
template <typename Access>
static bool accessesExactly(Access access, Value d0, Value d1) {
  auto type = dyn_cast<MemRefType>(access.getMemRef().getType());
  if (!type || type.getRank() != 2 || !type.getLayout().isIdentity() ||
      !type.hasStaticShape())
    return false;
  AffineMap map = access.getAffineMap();
  if (map != AffineMap::getMultiDimIdentityMap(2, access.getContext()))
    return false;
  ValueRange indices = access.getMapOperands();
  return indices.size() == 2 && indices[0] == d0 && indices[1] == d1;
}

/// `value` is `arith.extf` of an f16 load; returns the load.
static AffineLoadOp getExtendedF16Load(Value value) {
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  if (!ext || !ext.getIn().getType().isF16())
    return AffineLoadOp();
  return ext.getIn().getDefiningOp<AffineLoadOp>();
}

static std::optional<TensorCoreProduct> matchProduct(AffineForOp iLoop) {
  AffineForOp jLoop = getOnlyChild(iLoop);
  AffineForOp kLoop = jLoop ? getOnlyChild(jLoop) : AffineForOp();
  if (!kLoop || kLoop.getNumIterOperands() != 0)
    return std::nullopt;
  std::optional<int64_t> m = getTiledTripCount(iLoop),
                         n = getTiledTripCount(jLoop),
                         k = getTiledTripCount(kLoop);
  if (!m || !n || !k)
    return std::nullopt;
  Value i = iLoop.getInductionVar(), j = jLoop.getInductionVar(),
        kv = kLoop.getInductionVar();

  // The body: loads, two extensions, a product and a sum, the store.
  Block *body = kLoop.getBody();
  auto store = dyn_cast<AffineStoreOp>(body->getTerminator()->getPrevNode());
  if (!store || !store.getValueToStore().getType().isF32() ||
      !accessesExactly(store, i, j))
    return std::nullopt;
  auto add = store.getValueToStore().getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  auto accLoad = add.getLhs().getDefiningOp<AffineLoadOp>();
  auto mul = add.getRhs().getDefiningOp<arith::MulFOp>();
  if (!accLoad || !mul) {
    accLoad = add.getRhs().getDefiningOp<AffineLoadOp>();
    mul = add.getLhs().getDefiningOp<arith::MulFOp>();
  }
  if (!accLoad || !mul || accLoad.getMemRef() != store.getMemRef() ||
      !accessesExactly(accLoad, i, j))
    return std::nullopt;
  AffineLoadOp aLoad = getExtendedF16Load(mul.getLhs());
  AffineLoadOp bLoad = getExtendedF16Load(mul.getRhs());
  if (aLoad && bLoad && !accessesExactly(aLoad, i, kv))
    std::swap(aLoad, bLoad);
  if (!aLoad || !bLoad || !accessesExactly(aLoad, i, kv) ||
      !accessesExactly(bLoad, kv, j))
    return std::nullopt;
  // Nothing else in the body (8 ops: 3 loads, 2 extensions, mul, add,
  // store, plus the yield).
  if (body->getOperations().size() != 9)
    return std::nullopt;
  // C must not be A or B (the tiles are read and written in one pass).
  if (store.getMemRef() == aLoad.getMemRef() ||
      store.getMemRef() == bLoad.getMemRef())
    return std::nullopt;
  return TensorCoreProduct{iLoop, jLoop, kLoop, aLoad.getMemRef(),
                           bLoad.getMemRef(), store.getMemRef(), *m, *n, *k};
}

struct MapContractionToTensorCoresPass
    : public polyblocks::impl::PBMapContractionToTensorCoresBase<
          MapContractionToTensorCoresPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    for (auto loop : llvm::make_early_inc_range(func.getBody().getOps<AffineForOp>()))
      if (std::optional<TensorCoreProduct> product = matchProduct(loop))
        rewrite(*product);
  }

  void rewrite(TensorCoreProduct &p) {
    OpBuilder builder(p.iLoop);
    Location loc = p.iLoop.getLoc();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value one = constant(1);
    auto launch = gpu::LaunchOp::create(builder, loc, constant(p.n / kTile),
                                        constant(p.m / kTile), one,
                                        constant(kWarpSize), one, one);
    builder.setInsertionPointToStart(&launch.getBody().front());
    Value tile = constant(kTile);
    Value row = arith::MulIOp::create(builder, loc, launch.getBlockIds().y, tile);
    Value col = arith::MulIOp::create(builder, loc, launch.getBlockIds().x, tile);

    MLIRContext *ctx = builder.getContext();
    Type f16 = builder.getF16Type(), f32 = builder.getF32Type();
    auto aType = gpu::MMAMatrixType::get({kTile, kTile}, f16, "AOp");
    auto bType = gpu::MMAMatrixType::get({kTile, kTile}, f16, "BOp");
    auto cType = gpu::MMAMatrixType::get({kTile, kTile}, f32, "COp");
    auto lead = [&](int64_t v) { return IntegerAttr::get(IndexType::get(ctx), v); };

    Value acc = gpu::SubgroupMmaLoadMatrixOp::create(
        builder, loc, cType, p.c, ValueRange{row, col}, lead(p.n),
        /*transpose=*/UnitAttr());
    auto kLoop = scf::ForOp::create(builder, loc, constant(0), constant(p.k),
                                    tile, ValueRange{acc});
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(kLoop.getBody());
      Value k = kLoop.getInductionVar();
      Value a = gpu::SubgroupMmaLoadMatrixOp::create(
          builder, loc, aType, p.a, ValueRange{row, k}, lead(p.k), UnitAttr());
      Value b = gpu::SubgroupMmaLoadMatrixOp::create(
          builder, loc, bType, p.b, ValueRange{k, col}, lead(p.n), UnitAttr());
      Value d = gpu::SubgroupMmaComputeOp::create(
          builder, loc, cType, a, b, kLoop.getRegionIterArgs()[0],
          /*a_transpose=*/UnitAttr(), /*b_transpose=*/UnitAttr());
      scf::YieldOp::create(builder, loc, d);
    }
    gpu::SubgroupMmaStoreMatrixOp::create(builder, loc, kLoop.getResult(0), p.c,
                                          ValueRange{row, col}, lead(p.n),
                                          UnitAttr());
    gpu::TerminatorOp::create(builder, loc);
    p.iLoop.erase();
  }
};

} // namespace
