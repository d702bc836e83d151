//===- MapContractionToTensorCores.cpp - Matmuls on matrix units ----------===//
//
// Replaces f16 (or bf16) x f16 -> f32 matrix-product nests by kernels of
// warp-level matrix operations, one warp (wavefront) per 16 x 16 tile of the
// result: NVIDIA tensor cores (WMMA), AMD matrix cores (MFMA, WMMA).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/Target/GPUTarget.h"
#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/MachineModel.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "pb-map-contraction-to-tensor-cores"

namespace polyblocks {
#define GEN_PASS_DEF_PBMAPCONTRACTIONTOTENSORCORES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The edge of the warp-level matrix tiles (m16n16k16 on every unit).
constexpr int64_t kTile = 16;

static Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

using polyblocks::MatrixUnit;

/// The chip named `chip` (NVIDIA or AMD), or the machine model's GPU (sm_80
/// when the model has none).
static const polyblocks::GPUChipModel *findChip(Operation *op, StringRef chip) {
  using polyblocks::TargetKind;
  if (chip.empty()) {
    if (const polyblocks::GPUChipModel *gpu =
            polyblocks::getMachineModel(op).gpu)
      return gpu;
    chip = polyblocks::getDefaultChip(TargetKind::NVGPU);
  }
  if (const auto *nvidia = polyblocks::lookupGPUChip(TargetKind::NVGPU, chip))
    return nvidia;
  return polyblocks::lookupGPUChip(TargetKind::AMDGPU, chip);
}

/// The operand types the unit multiplies (accumulating in f32).
static bool isOperandType(MatrixUnit unit, Type type) {
  return type.isF16() || (unit != MatrixUnit::NVIDIAWMMA && type.isBF16());
}

/// A matched `C[i, j] += ext(A[i, k]) * ext(B[k, j])` nest.
struct TensorCoreProduct {
  AffineForOp iLoop, jLoop, kLoop;
  Value a, b, c;
  int64_t m, n, k;
  Type operandType;
};

/// A zero-based unit-step loop with a constant trip count that is a
/// multiple of the tile.
static std::optional<int64_t> getTiledTripCount(AffineForOp loop) {
  std::optional<int64_t> trips = polyblocks::getZeroBasedTripCount(loop);
  if (!trips || *trips <= 0 || *trips % kTile != 0)
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

/// `value` is `arith.extf` of a load of an operand type of `unit`; returns
/// the load.
static AffineLoadOp getExtendedLoad(MatrixUnit unit, Value value) {
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  if (!ext || !isOperandType(unit, ext.getIn().getType()))
    return AffineLoadOp();
  return ext.getIn().getDefiningOp<AffineLoadOp>();
}

static std::optional<TensorCoreProduct> matchProduct(MatrixUnit unit,
                                                     AffineForOp iLoop) {
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
  AffineLoadOp aLoad = getExtendedLoad(unit, mul.getLhs());
  AffineLoadOp bLoad = getExtendedLoad(unit, mul.getRhs());
  if (aLoad && bLoad && !accessesExactly(aLoad, i, kv))
    std::swap(aLoad, bLoad);
  if (!aLoad || !bLoad || !accessesExactly(aLoad, i, kv) ||
      !accessesExactly(bLoad, kv, j) || aLoad.getType() != bLoad.getType())
    return std::nullopt;
  // Nothing else in the body (8 ops: 3 loads, 2 extensions, mul, add,
  // store, plus the yield).
  if (body->getOperations().size() != 9)
    return std::nullopt;
  // C must not be A or B (the tiles are read and written in one pass).
  if (store.getMemRef() == aLoad.getMemRef() ||
      store.getMemRef() == bLoad.getMemRef())
    return std::nullopt;
  return TensorCoreProduct{iLoop,
                           jLoop,
                           kLoop,
                           aLoad.getMemRef(),
                           bLoad.getMemRef(),
                           store.getMemRef(),
                           *m,
                           *n,
                           *k,
                           aLoad.getType()};
}

/// The loop over k in steps of one tile, carrying the accumulator `acc`.
static scf::ForOp createKStepLoop(OpBuilder &builder, Location loc,
                                  const TensorCoreProduct &p, Value acc) {
  return scf::ForOp::create(builder, loc, indexConstant(builder, loc, 0),
                            indexConstant(builder, loc, p.k),
                            indexConstant(builder, loc, kTile),
                            ValueRange{acc});
}

struct MapContractionToTensorCoresPass
    : public polyblocks::impl::PBMapContractionToTensorCoresBase<
          MapContractionToTensorCoresPass> {
  using PBMapContractionToTensorCoresBase::PBMapContractionToTensorCoresBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    const polyblocks::GPUChipModel *model = findChip(func, chip);
    if (!model || model->matrixUnit == MatrixUnit::None) {
      func.emitError() << "pb-map-contraction-to-tensor-cores: chip '" << chip
                       << "' has no known matrix instructions";
      return signalPassFailure();
    }
    if (func.isExternal())
      return;
    for (auto loop :
         llvm::make_early_inc_range(func.getBody().getOps<AffineForOp>()))
      if (std::optional<TensorCoreProduct> product =
              matchProduct(model->matrixUnit, loop))
        rewrite(*model, *product);
  }

  /// One block of one warp (wavefront) per 16 x 16 tile of C; the body
  /// computes the tile at (`row`, `col`).
  void rewrite(const polyblocks::GPUChipModel &chipModel,
               TensorCoreProduct &p) {
    MatrixUnit unit = chipModel.matrixUnit;
    OpBuilder builder(p.iLoop);
    Location loc = p.iLoop.getLoc();
    Value one = indexConstant(builder, loc, 1);
    auto launch = gpu::LaunchOp::create(
        builder, loc, indexConstant(builder, loc, p.n / kTile),
        indexConstant(builder, loc, p.m / kTile), one,
        indexConstant(builder, loc, chipModel.warpSize), one, one);
    builder.setInsertionPointToStart(&launch.getBody().front());
    Value tile = indexConstant(builder, loc, kTile);
    Value row =
        arith::MulIOp::create(builder, loc, launch.getBlockIds().y, tile);
    Value col =
        arith::MulIOp::create(builder, loc, launch.getBlockIds().x, tile);
    if (unit == MatrixUnit::NVIDIAWMMA)
      buildSubgroupMMATile(builder, loc, p, row, col);
    else
      buildAMDTile(builder, loc, unit, p, launch.getThreadIds().x, row, col);
    gpu::TerminatorOp::create(builder, loc);
    p.iLoop.erase();
  }

  /// NVIDIA: whole-tile loads, products and stores of gpu.subgroup_mma_*.
  static void buildSubgroupMMATile(OpBuilder &builder, Location loc,
                                   TensorCoreProduct &p, Value row, Value col) {
    MLIRContext *ctx = builder.getContext();
    Type f16 = builder.getF16Type(), f32 = builder.getF32Type();
    auto aType = gpu::MMAMatrixType::get({kTile, kTile}, f16, "AOp");
    auto bType = gpu::MMAMatrixType::get({kTile, kTile}, f16, "BOp");
    auto cType = gpu::MMAMatrixType::get({kTile, kTile}, f32, "COp");
    auto lead = [&](int64_t v) {
      return IntegerAttr::get(IndexType::get(ctx), v);
    };

    Value acc = gpu::SubgroupMmaLoadMatrixOp::create(
        builder, loc, cType, p.c, ValueRange{row, col}, lead(p.n),
        /*transpose=*/UnitAttr());
    scf::ForOp kLoop = createKStepLoop(builder, loc, p, acc);
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
  }

  /// AMD: each lane loads its own elements of the tiles into vectors, in
  /// the layouts of the instructions (AMD's matrix instruction calculator;
  /// r = lane % 16, g = lane / 16):
  /// - MFMA 16x16x16 (64 lanes): A: row r, k = 4g .. 4g+3; B: column r,
  ///   k = 4g .. 4g+3; C: column r, rows 4g .. 4g+3.
  /// - WMMA 16x16x16 (wave32): A: row r, k = 0 .. 15; B: column r,
  ///   k = 0 .. 15; C: column r, rows 2e + g for e = 0 .. 7.
  /// A's elements are consecutive (one vector load); B's and C's are a
  /// column each, which consecutive lanes read side by side.
  static void buildAMDTile(OpBuilder &builder, Location loc, MatrixUnit unit,
                           TensorCoreProduct &p, Value lane, Value row,
                           Value col) {
    bool mfma = unit == MatrixUnit::AMDMFMA;
    int64_t kPerLane = mfma ? 4 : 16;
    int64_t cPerLane = mfma ? 4 : 8;
    Value r = arith::RemUIOp::create(builder, loc, lane,
                                     indexConstant(builder, loc, 16));
    Value g = arith::DivUIOp::create(builder, loc, lane,
                                     indexConstant(builder, loc, 16));
    Value myRow = arith::AddIOp::create(builder, loc, row, r);
    Value myCol = arith::AddIOp::create(builder, loc, col, r);
    // The first k of this lane within a K step, and C's row of element e.
    Value kBase = mfma ? arith::MulIOp::create(builder, loc, g,
                                               indexConstant(builder, loc, 4))
                             .getResult()
                       : indexConstant(builder, loc, 0);
    auto cRow = [&](int64_t e) -> Value {
      Value offset =
          mfma ? arith::AddIOp::create(builder, loc, kBase,
                                       indexConstant(builder, loc, e))
                     .getResult()
               : arith::AddIOp::create(builder, loc, g,
                                       indexConstant(builder, loc, 2 * e))
                     .getResult();
      return arith::AddIOp::create(builder, loc, row, offset);
    };

    Type f32 = builder.getF32Type();
    auto accType = VectorType::get({cPerLane}, f32);
    auto operandType = VectorType::get({kPerLane}, p.operandType);
    SmallVector<Value> cElements;
    for (int64_t e = 0; e < cPerLane; ++e)
      cElements.push_back(memref::LoadOp::create(builder, loc, p.c,
                                                 ValueRange{cRow(e), myCol}));
    Value acc =
        vector::FromElementsOp::create(builder, loc, accType, cElements);
    scf::ForOp kLoop = createKStepLoop(builder, loc, p, acc);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(kLoop.getBody());
      Value k =
          arith::AddIOp::create(builder, loc, kLoop.getInductionVar(), kBase);
      Value a = vector::LoadOp::create(builder, loc, operandType, p.a,
                                       ValueRange{myRow, k});
      SmallVector<Value> bElements;
      for (int64_t e = 0; e < kPerLane; ++e) {
        Value ke = arith::AddIOp::create(builder, loc, k,
                                         indexConstant(builder, loc, e));
        bElements.push_back(
            memref::LoadOp::create(builder, loc, p.b, ValueRange{ke, myCol}));
      }
      Value b =
          vector::FromElementsOp::create(builder, loc, operandType, bElements);
      Value sum = kLoop.getRegionIterArgs()[0];
      Value d =
          mfma ? amdgpu::MFMAOp::create(builder, loc, accType, kTile, kTile,
                                        kTile, /*blocks=*/1, a, b, sum)
                     .getResult()
               : amdgpu::WMMAOp::create(builder, loc, accType, kTile, kTile,
                                        kTile, a, b, sum)
                     .getResult();
      scf::YieldOp::create(builder, loc, d);
    }
    for (int64_t e = 0; e < cPerLane; ++e) {
      Value element =
          vector::ExtractOp::create(builder, loc, kLoop.getResult(0), e);
      memref::StoreOp::create(builder, loc, element, p.c,
                              ValueRange{cRow(e), myCol});
    }
  }
};

} // namespace
