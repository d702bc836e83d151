//===- EmulateGPULaunches.cpp - GPU launches as loops on the CPU ----------===//
//
// A testing aid: the blocks and threads of a launch become loops, so that
// the GPU mapping runs on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "pb-emulate-gpu-launches"

namespace polyblocks {
#define GEN_PASS_DEF_PBEMULATEGPULAUNCHES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

struct EmulateGPULaunchesPass
    : public polyblocks::impl::PBEmulateGPULaunchesBase<
          EmulateGPULaunchesPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(launch)))
        return signalPassFailure();
  }

  LogicalResult emulate(gpu::LaunchOp launch) {
    if (!launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty() || launch.getAsyncToken() ||
        launch.hasClusterSize())
      return launch.emitOpError("uses memory attributions, clusters or async "
                                "tokens, which pb-emulate-gpu-launches does "
                                "not run");
    WalkResult talk = launch.getBody().walk([&](Operation *op) {
      if (isa<gpu::GPUDialect>(op->getDialect()) &&
          !isa<gpu::TerminatorOp>(op)) {
        op->emitOpError("lets threads cooperate; pb-emulate-gpu-launches runs "
                        "only launches of independent threads");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (talk.wasInterrupted())
      return failure();

    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    gpu::KernelDim3 gridSize = launch.getGridSizeOperandValues();
    gpu::KernelDim3 blockSize = launch.getBlockSizeOperandValues();
    gpu::KernelDim3 blockIds = launch.getBlockIds();
    gpu::KernelDim3 threadIds = launch.getThreadIds();
    gpu::KernelDim3 gridArgs = launch.getGridSize();
    gpu::KernelDim3 blockArgs = launch.getBlockSize();

    IRMapping mapping;
    for (auto [arg, size] : {std::pair{gridArgs.x, gridSize.x},
                             {gridArgs.y, gridSize.y},
                             {gridArgs.z, gridSize.z},
                             {blockArgs.x, blockSize.x},
                             {blockArgs.y, blockSize.y},
                             {blockArgs.z, blockSize.z}})
      mapping.map(arg, size);
    // Blocks outside threads, z outermost.
    for (auto [id, size] : {std::pair{blockIds.z, gridSize.z},
                            {blockIds.y, gridSize.y},
                            {blockIds.x, gridSize.x},
                            {threadIds.z, blockSize.z},
                            {threadIds.y, blockSize.y},
                            {threadIds.x, blockSize.x}}) {
      auto loop = scf::ForOp::create(builder, loc, zero, size, one);
      mapping.map(id, loop.getInductionVar());
      builder.setInsertionPoint(loop.getBody()->getTerminator());
    }
    for (Operation &op : launch.getBody().front().without_terminator())
      builder.clone(op, mapping);
    launch.erase();
    return success();
  }
};

} // namespace
