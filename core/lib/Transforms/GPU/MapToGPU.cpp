//===- MapToGPU.cpp - Loop nests of an entry point become GPU kernels -----===//
//
// Every piece of work in a function body becomes a gpu.launch: parallel
// bands with one thread per iteration, the rest on a single thread. What is
// left outside the launches is buffer allocation.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "pb-map-to-gpu"

namespace polyblocks {
#define GEN_PASS_DEF_PBMAPTOGPU
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The largest grid the x dimension of a launch may have.
constexpr uint64_t kMaxGridSize = (1ull << 31) - 1;

/// The loops of the band at the top of `loop`: `loop` and its perfectly
/// nested children as long as each is dependence-free and has constant
/// bounds. Empty when `loop` itself does not qualify.
static SmallVector<AffineForOp> getParallelBand(AffineForOp loop) {
  SmallVector<AffineForOp> band;
  for (AffineForOp current = loop; current;) {
    if (!current.hasConstantBounds() || !getConstantTripCount(current) ||
        !polyblocks::isParallelLoop(current))
      break;
    band.push_back(current);
    Block *body = current.getBody();
    current = body->getOperations().size() == 2
                  ? dyn_cast<AffineForOp>(body->front())
                  : AffineForOp();
  }
  return band;
}

/// Operations that stay on the host: buffer (de)allocation and pure
/// operations that only depend on the function's arguments or other host
/// operations (they are copied into the launches that use them).
static bool isHostOp(Operation *op, const DenseSet<Operation *> &device) {
  if (isa<memref::AllocOp, memref::DeallocOp>(op))
    return true;
  if (op->getNumRegions() != 0 || !isPure(op))
    return false;
  return llvm::none_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && device.contains(def);
  });
}

/// Pure operations worth recomputing in a kernel instead of passing their
/// results: constants, address computations, views and globals.
static bool isSinkable(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         (isa<memref::GetGlobalOp, AffineApplyOp, ViewLikeOpInterface>(op) ||
          op->hasTrait<OpTrait::ConstantLike>() ||
          llvm::all_of(op->getResultTypes(),
                       [](Type t) { return t.isIntOrIndexOrFloat(); }));
}

/// Creates a gpu.launch at the builder's insertion point with `grid` x 1 x 1
/// blocks of `threads` x 1 x 1 threads and returns it; its body holds only
/// the terminator.
static gpu::LaunchOp createLaunch(OpBuilder &builder, Location loc,
                                  uint64_t grid, uint64_t threads) {
  auto constant = [&](uint64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(builder, loc, constant(grid), one, one,
                                      constant(threads), one, one);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(builder, loc);
  return launch;
}

struct MapToGPUPass : public polyblocks::impl::PBMapToGPUBase<MapToGPUPass> {
  using PBMapToGPUBase::PBMapToGPUBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitOpError("has several blocks; pb-map-to-gpu expects the "
                       "structured control flow S3 leaves");
      return signalPassFailure();
    }
    Block &body = func.getBody().front();
    if (failed(checkMappable(body)))
      return signalPassFailure();
    moveAllocasToDevice(body);

    SmallVector<gpu::LaunchOp> launches;
    DenseSet<Operation *> device; // ops already given to the device
    SmallVector<Operation *> sequential;
    auto flushSequential = [&] {
      if (sequential.empty())
        return;
      launches.push_back(wrapSequential(sequential));
      sequential.clear();
    };
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      if (isHostOp(&op, device))
        continue;
      // Kernels S3 already made (tensor cores) stay as they are.
      if (isa<gpu::LaunchOp>(op)) {
        flushSequential();
        launches.push_back(cast<gpu::LaunchOp>(op));
        continue;
      }
      device.insert(&op);
      auto loop = dyn_cast<AffineForOp>(op);
      SmallVector<AffineForOp> band;
      if (loop)
        band = getParallelBand(loop);
      // Values the pending sequential work computes for later work keep
      // that later work on the same thread.
      auto feedsLater = [&] {
        return llvm::any_of(sequential, [&](Operation *prev) {
          return llvm::any_of(prev->getUsers(), [&](Operation *user) {
            return !llvm::is_contained(sequential, user);
          });
        });
      };
      if (band.empty() || feedsLater()) {
        sequential.push_back(&op);
        continue;
      }
      flushSequential();
      if (std::optional<gpu::LaunchOp> launch = mapBand(band))
        launches.push_back(*launch);
      else
        sequential.push_back(&op);
    }
    flushSequential();

    for (gpu::LaunchOp launch : launches)
      sinkIntoLaunch(launch);
    // Host copies of sunk operations that nothing uses any more.
    SmallVector<Operation *> hostOps = llvm::map_to_vector(
        body.without_terminator(), [](Operation &op) { return &op; });
    for (Operation *op : llvm::reverse(hostOps))
      if (op->use_empty() && isPure(op))
        op->erase();
  }

  /// The chip of the machine model (sm_80 when it names none).
  const polyblocks::GPUChipModel &getChip() {
    using polyblocks::TargetKind;
    if (const polyblocks::GPUChipModel *gpu =
            polyblocks::getMachineModel(getOperation()).gpu)
      return *gpu;
    return *polyblocks::lookupGPUChip(
        TargetKind::NVGPU, polyblocks::getDefaultChip(TargetKind::NVGPU));
  }

  /// Buffers are allocated and chosen by the host, which cannot read device
  /// memory: control flow that allocates, frees or yields buffers (a loop
  /// carrying a tensor it cannot update in place, an scf.if choosing a
  /// tensor) cannot become a kernel.
  LogicalResult checkMappable(Block &body) {
    for (Operation &op : body.without_terminator()) {
      if (op.getNumRegions() == 0)
        continue;
      bool yieldsBuffer = llvm::any_of(
          op.getResultTypes(), [](Type t) { return isa<BaseMemRefType>(t); });
      WalkResult allocates = op.walk([](Operation *inner) {
        return isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (yieldsBuffer || allocates.wasInterrupted())
        return op.emitOpError()
               << "cannot run on a GPU target: control flow that "
               << (yieldsBuffer ? "chooses between buffers"
                                : "allocates or frees buffers")
               << " would run on the device, but buffers are managed by the "
                  "host (compile it for the CPU)";
    }
    return success();
  }

  /// Copies the sinkable operations whose results `launch` uses into it,
  /// transitively, so that the kernel captures only buffers (a view of a
  /// buffer is recomputed from the buffer). (Upstream
  /// sinkOperationsIntoLaunchOp sinks a view only when the kernel already
  /// uses its source.)
  void sinkIntoLaunch(gpu::LaunchOp launch) {
    Region &region = launch.getBody();
    for (bool changed = true; changed;) {
      changed = false;
      // Each round's copies go before the previous round's, their users.
      OpBuilder builder = OpBuilder::atBlockBegin(&region.front());
      SetVector<Value> captured;
      getUsedValuesDefinedAbove(region, captured);
      for (Value value : captured) {
        Operation *def = value.getDefiningOp();
        if (!def || !isSinkable(def))
          continue;
        Operation *copy = builder.clone(*def);
        replaceAllUsesInRegionWith(
            value, copy->getResult(cast<OpResult>(value).getResultNumber()),
            region);
        changed = true;
      }
    }
  }

  /// Top-level allocas are host stack memory, which kernels cannot reach:
  /// they become device allocations, freed before every return.
  void moveAllocasToDevice(Block &body) {
    for (auto alloca :
         llvm::make_early_inc_range(body.getOps<memref::AllocaOp>())) {
      OpBuilder builder(alloca);
      auto alloc = memref::AllocOp::create(
          builder, alloca.getLoc(), alloca.getType(), alloca.getDynamicSizes(),
          alloca.getSymbolOperands(), alloca.getAlignmentAttr());
      alloca.replaceAllUsesWith(alloc.getResult());
      alloca.erase();
      builder.setInsertionPoint(body.getTerminator());
      memref::DeallocOp::create(builder, alloc.getLoc(), alloc);
    }
  }

  /// Moves `ops` (in order; host operations such as allocations may lie
  /// between them) into a launch with one thread, placed at the last of
  /// them, where the host values they use are all defined.
  gpu::LaunchOp wrapSequential(ArrayRef<Operation *> ops) {
    OpBuilder builder(ops.back());
    gpu::LaunchOp launch = createLaunch(builder, ops.front()->getLoc(), 1, 1);
    Operation *terminator = launch.getBody().front().getTerminator();
    for (Operation *op : ops)
      op->moveBefore(terminator);
    return launch;
  }

  /// Replaces the nest rooted at band[0] by a launch with one thread per
  /// iteration of `band`. Fails (leaving the nest) when the band has more
  /// iterations than a grid can hold.
  std::optional<gpu::LaunchOp> mapBand(MutableArrayRef<AffineForOp> band) {
    SmallVector<uint64_t> trips;
    uint64_t total = 1;
    for (AffineForOp loop : band) {
      trips.push_back(*getConstantTripCount(loop));
      if (trips.back() != 0 && total > UINT64_MAX / trips.back())
        return std::nullopt;
      total *= trips.back();
    }
    AffineForOp outer = band.front();
    if (total == 0)
      return std::nullopt; // runs sequentially (and does nothing)
    // Whole warps (wavefronts of 64 on CDNA), at most `blockSize` threads.
    uint64_t threads =
        polyblocks::chooseThreadsPerBlock(getChip(), total, blockSize);
    uint64_t grid = llvm::divideCeil(total, threads);
    if (grid > kMaxGridSize)
      return std::nullopt;

    OpBuilder builder(outer);
    Location loc = outer.getLoc();
    gpu::LaunchOp launch = createLaunch(builder, loc, grid, threads);
    builder.setInsertionPoint(launch.getBody().front().getTerminator());
    MLIRContext *ctx = builder.getContext();
    // Unsigned arithmetic on the thread's number: division by the constant
    // strides becomes a multiplication. (Values defined at the top of the
    // launch, an affine scope, are valid affine symbols.)
    auto constant = [&](uint64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto noWrap =
        arith::IntegerOverflowFlags::nuw | arith::IntegerOverflowFlags::nsw;
    Value linear = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, launch.getBlockIds().x,
                              constant(threads), noWrap),
        launch.getThreadIds().x, noWrap);

    // The loop indices, innermost fastest.
    IRMapping mapping;
    uint64_t stride = total;
    for (auto [k, loop] : llvm::enumerate(band)) {
      uint64_t trip = trips[k];
      stride /= trip;
      Value index = linear;
      if (stride != 1)
        index = arith::DivUIOp::create(builder, loc, index, constant(stride));
      if (k != 0)
        index = arith::RemUIOp::create(builder, loc, index, constant(trip));
      if (loop.getStepAsInt() != 1)
        index = arith::MulIOp::create(builder, loc, index,
                                      constant(loop.getStepAsInt()), noWrap);
      // (A lower bound may be negative: no unsigned no-wrap here.)
      if (loop.getConstantLowerBound() != 0)
        index = arith::AddIOp::create(builder, loc, index,
                                      constant(loop.getConstantLowerBound()),
                                      arith::IntegerOverflowFlags::nsw);
      mapping.map(loop.getInductionVar(), index);
    }
    AffineExpr s0 = getAffineSymbolExpr(0, ctx);

    // The excess threads of the last block do nothing.
    if (total % threads != 0) {
      IntegerSet inRange = IntegerSet::get(
          0, 1, {getAffineConstantExpr(total - 1, ctx) - s0}, {false});
      auto guard = AffineIfOp::create(builder, loc, inRange, ValueRange{linear},
                                      /*withElseRegion=*/false);
      builder.setInsertionPoint(guard.getThenBlock()->getTerminator());
    }
    for (Operation &op : band.back().getBody()->without_terminator())
      builder.clone(op, mapping);
    outer.erase();
    return launch;
  }
};

} // namespace
