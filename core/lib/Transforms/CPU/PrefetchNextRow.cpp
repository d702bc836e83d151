//===- PrefetchNextRow.cpp - Fetch the next row during this row's work ----===//
//
// A row-wise kernel (softmax, layernorm) runs several passes over each row:
// the first reads the row from memory, the others reread it from L1 and
// compute. While they compute, memory sits idle and the hardware
// prefetchers, which follow demand misses, do not run ahead into the next
// row. This pass spreads software prefetches of the next row over the
// heaviest of the later passes, a few cache lines at a time.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/MachineModel.h"

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-prefetch-next-row"

namespace polyblocks {
#define GEN_PASS_DEF_PBPREFETCHNEXTROW
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// Operations in the body of `loop`, nested ones included.
static int64_t countOps(AffineForOp loop) {
  int64_t count = 0;
  loop.getBody()->walk([&](Operation *) { ++count; });
  return count;
}

/// True if `map` with `operands` is `[c..., row, j]`: constants, then the
/// row induction variable, then `j`.
static bool isRowAccess(AffineMap map, ValueRange operands, Value row,
                        Value j) {
  unsigned rank = map.getNumResults();
  if (rank < 2)
    return false;
  auto isOperand = [&](AffineExpr e, Value v) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    return dim && operands[dim.getPosition()] == v;
  };
  for (unsigned r = 0; r + 2 < rank; ++r)
    if (!isa<AffineConstantExpr>(map.getResult(r)))
      return false;
  return isOperand(map.getResult(rank - 2), row) &&
         isOperand(map.getResult(rank - 1), j);
}

/// True if `type`'s last dimension is contiguous (stride 1), so that a row
/// is one run of memory.
static bool hasContiguousRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !strides.empty() && strides.back() == 1;
}

struct PrefetchNextRowPass
    : public polyblocks::impl::PBPrefetchNextRowBase<PrefetchNextRowPass> {
  using PBPrefetchNextRowBase::PBPrefetchNextRowBase;

  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Value>> rowLoops;
    getOperation().walk([&](Operation *op) {
      if (auto parallel = dyn_cast<AffineParallelOp>(op)) {
        if (parallel.getNumDims() == 1 && parallel.getResults().empty())
          rowLoops.push_back({op, parallel.getIVs()[0]});
      } else if (auto loop = dyn_cast<AffineForOp>(op)) {
        if (loop.getNumIterOperands() == 0)
          rowLoops.push_back({op, loop.getInductionVar()});
      }
    });
    for (auto [op, row] : rowLoops)
      rewrite(op, row);
  }

  /// The number of rows of the loop `op` over `row`, if its bounds are
  /// 0 .. R with a unit step.
  static std::optional<int64_t> getRowCount(Operation *op) {
    if (auto loop = dyn_cast<AffineForOp>(op))
      return polyblocks::getZeroBasedTripCount(loop);
    if (auto parallel = dyn_cast<AffineParallelOp>(op)) {
      std::optional<SmallVector<int64_t>> trips = parallel.getConstantRanges();
      SmallVector<int64_t> steps = parallel.getSteps();
      if (trips && steps[0] == 1 &&
          parallel.getLowerBoundsMap().isSingleConstant() &&
          parallel.getLowerBoundsMap().getSingleConstantResult() == 0)
        return (*trips)[0];
    }
    return std::nullopt;
  }

  void rewrite(Operation *op, Value row) {
    std::optional<int64_t> rows = getRowCount(op);
    if (!rows || *rows < 2)
      return;
    Block &body = op->getRegion(0).front();
    SmallVector<AffineForOp> passes(body.getOps<AffineForOp>());
    if (passes.size() < 2)
      return;
    // The first pass streams the rows from memory: its loads of whole rows
    // of buffers the nest does not write.
    AffineForOp first = passes.front();
    std::optional<int64_t> length = polyblocks::getZeroBasedTripCount(first);
    if (!length || *length == 0)
      return;
    DenseSet<Value> written;
    op->walk([&](MemoryEffectOpInterface effects) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects<MemoryEffects::Write>(instances);
      for (const MemoryEffects::EffectInstance &instance : instances)
        written.insert(instance.getValue());
    });
    SmallVector<AffineLoadOp> streamed;
    DenseSet<Value> seen;
    for (auto load : first.getBody()->getOps<AffineLoadOp>()) {
      Value memref = load.getMemRef();
      MemRefType type = load.getMemRefType();
      if (isRowAccess(load.getAffineMap(), load.getMapOperands(), row,
                      first.getInductionVar()) &&
          hasContiguousRows(type) &&
          type.getDimSize(type.getRank() - 1) == *length &&
          !written.contains(memref) && seen.insert(memref).second)
        streamed.push_back(load);
    }
    if (streamed.empty())
      return;
    // The heaviest later pass over the same columns, where memory is idle.
    AffineForOp target;
    int64_t targetOps = 0;
    for (AffineForOp pass : ArrayRef(passes).drop_front()) {
      if (polyblocks::getZeroBasedTripCount(pass) != length ||
          isa<AffineForOp>(pass.getBody()->front()))
        continue;
      int64_t ops = countOps(pass);
      if (!target || ops >= targetOps) {
        target = pass;
        targetOps = ops;
      }
    }
    if (!target)
      return;
    int64_t elementBytes = streamed.front()
                               .getMemRefType()
                               .getElementType()
                               .getIntOrFloatBitWidth() /
                           8;
    int64_t bytesPerLine =
        lineBytes
            ? lineBytes
            : polyblocks::getMachineModel(getOperation()).cpu.cacheLineBytes;
    int64_t perLine =
        std::max<int64_t>(1, bytesPerLine / std::max<int64_t>(1, elementBytes));
    // Chunks of up to `linesPerChunk` whole lines that divide the row, at
    // least two of them.
    if (*length % perLine != 0)
      return;
    int64_t chunk = perLine * polyblocks::getLargestDivisorAtMost(
                                  *length / perLine, linesPerChunk);
    if (*length == chunk)
      return;
    stripMineAndPrefetch(target, first, row, *rows, chunk, perLine, streamed);
  }

  /// for %j = 0 to C { body }  ->
  /// for %jj = 0 to C step CH { for %l = %jj to %jj + CH step L {
  ///                              prefetch row + 1 (mod R) at %l }
  ///                            for %j = %jj to %jj + CH { body } }
  /// The compute loop keeps enough iterations to be vectorized as before;
  /// the prefetches go out a chunk at a time, ahead of the next row.
  void stripMineAndPrefetch(AffineForOp target, AffineForOp first, Value row,
                            int64_t rows, int64_t chunk, int64_t perLine,
                            ArrayRef<AffineLoadOp> streamed) {
    OpBuilder b(target);
    Location loc = target.getLoc();
    MLIRContext *ctx = b.getContext();
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    auto chunks = AffineForOp::create(b, loc, 0, target.getConstantUpperBound(),
                                      chunk, target.getInits());
    b.setInsertionPointToStart(chunks.getBody());
    Value jj = chunks.getInductionVar();
    auto lines = AffineForOp::create(b, loc, ValueRange{jj},
                                     AffineMap::get(1, 0, d0), ValueRange{jj},
                                     AffineMap::get(1, 0, d0 + chunk), perLine);
    b.setInsertionPointToStart(lines.getBody());
    Value line = lines.getInductionVar();
    for (AffineLoadOp load : streamed) {
      // The same access with the next row, (%row + 1) mod R (the last row
      // prefetches the first: no address beyond the buffer), at line %l.
      AffineMap map = load.getAffineMap();
      SmallVector<Value> operands(load.getMapOperands());
      for (unsigned d = 0; d < map.getNumDims(); ++d) {
        AffineExpr dim = getAffineDimExpr(d, ctx);
        if (operands[d] == row)
          map = map.replace(dim, (dim + 1) % rows, map.getNumDims(),
                            map.getNumSymbols());
        else if (operands[d] == first.getInductionVar())
          operands[d] = line;
      }
      AffinePrefetchOp::create(b, loc, load.getMemRef(), map, operands,
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
    }
    target->replaceAllUsesWith(chunks.getResults());
    if (chunks.getNumIterOperands() == 0) {
      target->moveBefore(chunks.getBody()->getTerminator());
    } else {
      target->moveBefore(chunks.getBody(), chunks.getBody()->end());
      b.setInsertionPointToEnd(chunks.getBody());
      AffineYieldOp::create(b, loc, target.getResults());
    }
    target.setLowerBound(ValueRange{jj}, AffineMap::get(1, 0, d0));
    target.setUpperBound(ValueRange{jj}, AffineMap::get(1, 0, d0 + chunk));
    for (auto [init, iterArg] :
         llvm::zip(target.getInitsMutable(), chunks.getRegionIterArgs()))
      init.set(iterArg);
  }
};

} // namespace
