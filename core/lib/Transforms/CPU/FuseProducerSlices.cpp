//===- FuseProducerSlices.cpp - Tile a consumer, recompute its producer ---===//
//
// Slicing-based producer-consumer fusion for stencil-like consumers: the
// consumer's loop over one dimension of an intermediate buffer is tiled,
// and each tile computes the slice of the producer it reads (its rows plus
// a halo, recomputed by neighbouring tiles) into a buffer of tile size that
// stays in the L2 cache. The full-size intermediate buffer disappears.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/IR/Decisions.h"

#include "polyblocks/Target/Heuristics.h"

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-fuse-producer-slices"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSEPRODUCERSLICES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// A producer nest that writes every element of `buffer` once and a later
/// consumer nest that reads it at `dim` with constant offsets in
/// [minOffset, maxOffset] (identity subscripts elsewhere).
struct Candidate {
  memref::AllocOp buffer;
  memref::DeallocOp dealloc;
  SmallVector<AffineForOp> producerBand, consumerBand;
  SmallVector<AffineStoreOp> stores;
  SmallVector<AffineLoadOp> loads;
  /// The offset of each load along `dim`.
  SmallVector<int64_t> loadOffsets;
  unsigned dim = 0;
  int64_t minOffset = 0, maxOffset = 0;
};

/// The top-level loop (a direct child of `block`) holding `op`.
static AffineForOp getTopLevelLoop(Operation *op, Block *block) {
  Operation *ancestor = block->findAncestorOpInBlock(*op);
  return dyn_cast_or_null<AffineForOp>(ancestor);
}

/// The first `depth` loops of the perfect band at `root`, or nothing.
static SmallVector<AffineForOp> getBand(AffineForOp root, unsigned depth) {
  SmallVector<AffineForOp> band;
  getPerfectlyNestedLoops(band, root);
  if (band.size() < depth)
    return {};
  band.resize(depth);
  return band;
}

static bool hasBounds(AffineForOp loop, int64_t lb, int64_t ub) {
  return loop.hasConstantBounds() && loop.getConstantLowerBound() == lb &&
         loop.getConstantUpperBound() == ub && loop.getStepAsInt() == 1;
}

static std::optional<Candidate> matchCandidate(memref::AllocOp alloc) {
  Candidate c;
  c.buffer = alloc;
  Block *block = alloc->getBlock();
  auto type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() == 0)
    return std::nullopt;
  unsigned rank = type.getRank();
  for (Operation *user : alloc->getUsers()) {
    if (auto store = dyn_cast<AffineStoreOp>(user))
      c.stores.push_back(store);
    else if (auto load = dyn_cast<AffineLoadOp>(user))
      c.loads.push_back(load);
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(user);
             dealloc && !c.dealloc && dealloc->getBlock() == block)
      c.dealloc = dealloc;
    else
      return std::nullopt;
  }
  if (c.stores.empty() || c.loads.empty())
    return std::nullopt;
  // All stores in one nest, all loads in a later one.
  AffineForOp producer = getTopLevelLoop(c.stores.front(), block);
  AffineForOp consumer = getTopLevelLoop(c.loads.front(), block);
  if (!producer || !consumer || producer == consumer ||
      !producer->isBeforeInBlock(consumer))
    return std::nullopt;
  if (llvm::any_of(c.stores,
                   [&](AffineStoreOp s) {
                     return getTopLevelLoop(s, block) != producer;
                   }) ||
      llvm::any_of(c.loads, [&](AffineLoadOp l) {
        return getTopLevelLoop(l, block) != consumer;
      }))
    return std::nullopt;

  // The producer walks the whole buffer, one loop per dimension, and
  // stores each element at its own indices.
  c.producerBand = getBand(producer, rank);
  c.consumerBand = getBand(consumer, rank);
  if (c.producerBand.empty() || c.consumerBand.empty())
    return std::nullopt;
  for (unsigned t = 0; t < rank; ++t)
    if (!hasBounds(c.producerBand[t], 0, type.getDimSize(t)))
      return std::nullopt;
  for (AffineStoreOp store : c.stores)
    for (unsigned t = 0; t < rank; ++t)
      if (polyblocks::getSubscriptOffset(
              store, t, c.producerBand[t].getInductionVar()) != 0)
        return std::nullopt;

  // The consumer reads at constant offsets along one dimension.
  std::optional<unsigned> dim;
  SmallVector<SmallVector<int64_t>> offsets; // per load, per dimension
  for (AffineLoadOp load : c.loads) {
    SmallVector<int64_t> &loadOffsets = offsets.emplace_back();
    for (unsigned t = 0; t < rank; ++t) {
      std::optional<int64_t> offset = polyblocks::getSubscriptOffset(
          load, t, c.consumerBand[t].getInductionVar());
      if (!offset)
        return std::nullopt;
      if (*offset != 0 && dim && *dim != t)
        return std::nullopt; // offsets along two dimensions
      if (*offset != 0)
        dim = t;
      loadOffsets.push_back(*offset);
    }
  }
  if (!dim)
    return std::nullopt; // no halo: plain fusion's business
  c.dim = *dim;
  c.minOffset = c.maxOffset = 0;
  for (ArrayRef<int64_t> loadOffsets : offsets) {
    c.loadOffsets.push_back(loadOffsets[c.dim]);
    c.minOffset = std::min(c.minOffset, loadOffsets[c.dim]);
    c.maxOffset = std::max(c.maxOffset, loadOffsets[c.dim]);
  }
  // The loops outside the tiled one are shared, so they must match.
  for (unsigned t = 0; t < c.dim; ++t)
    if (!hasBounds(c.consumerBand[t], 0, type.getDimSize(t)))
      return std::nullopt;
  AffineForOp tiled = c.consumerBand[c.dim];
  if (!tiled.hasConstantBounds() || tiled.getStepAsInt() != 1 ||
      tiled.getConstantLowerBound() >= tiled.getConstantUpperBound())
    return std::nullopt;

  // The producer writes nothing but the buffer and reads nothing the
  // consumer writes; neither touches memory in other ways.
  FailureOr<polyblocks::BufferAccesses> producerAccesses =
      polyblocks::collectBufferAccesses(producer);
  FailureOr<polyblocks::BufferAccesses> consumerAccesses =
      polyblocks::collectBufferAccesses(consumer);
  if (failed(producerAccesses) || failed(consumerAccesses))
    return std::nullopt;
  const auto &producerReads = producerAccesses->read;
  if (producerAccesses->written.size() != 1 || producerReads.contains(alloc) ||
      llvm::any_of(consumerAccesses->written, [&](Value v) {
        return producerReads.contains(v) || v == alloc.getResult();
      }))
    return std::nullopt;
  // What lies between the nests must be free to move above the producer.
  for (Operation *op = producer->getNextNode(); op != consumer;
       op = op->getNextNode())
    if (!isPure(op) && !isa<memref::AllocOp, memref::AllocaOp>(op))
      return std::nullopt;
  return c;
}

/// Fuses the producer's and the consumer's loops outside the tiled
/// dimension (same bounds, consecutive at each level): the consumer's
/// disappear into the producer's.
static void fusePrefix(Candidate &c) {
  for (unsigned t = 0; t < c.dim; ++t) {
    AffineForOp into = c.producerBand[t], from = c.consumerBand[t];
    from.getInductionVar().replaceAllUsesWith(into.getInductionVar());
    Block *intoBody = into.getBody(), *fromBody = from.getBody();
    intoBody->getOperations().splice(
        intoBody->getTerminator()->getIterator(), fromBody->getOperations(),
        fromBody->begin(), std::prev(fromBody->end()));
    from.erase();
  }
}

/// Rewrites an access to the full buffer at (band ivs from `dim` on, with
/// `offset` at `dim`) into one to the tile buffer, whose first row is row
/// `tile * tileSize + firstRow` of the full buffer.
static void redirect(Operation *access, Value tileBuffer, unsigned dim,
                     MutableArrayRef<AffineForOp> band, int64_t offset,
                     Value tile, int64_t tileSize, int64_t firstRow) {
  OpBuilder b(access);
  MLIRContext *ctx = b.getContext();
  unsigned n = band.size() - dim;
  SmallVector<Value> operands;
  for (unsigned t = dim; t < band.size(); ++t)
    operands.push_back(band[t].getInductionVar());
  operands.push_back(tile);
  SmallVector<AffineExpr> results;
  results.push_back(getAffineDimExpr(0, ctx) + offset -
                    getAffineDimExpr(n, ctx) * tileSize - firstRow);
  for (unsigned t = 1; t < n; ++t)
    results.push_back(getAffineDimExpr(t, ctx));
  AffineMap map = AffineMap::get(n + 1, 0, results, ctx);
  if (auto store = dyn_cast<AffineStoreOp>(access)) {
    AffineStoreOp::create(b, store.getLoc(), store.getValueToStore(),
                          tileBuffer, map, operands);
  } else {
    auto load = cast<AffineLoadOp>(access);
    auto replacement =
        AffineLoadOp::create(b, load.getLoc(), tileBuffer, map, operands);
    load.getResult().replaceAllUsesWith(replacement.getResult());
  }
  access->erase();
}

/// Fuses as described above; returns the loop over the tiles.
static AffineForOp fuse(Candidate &c, int64_t tileSize) {
  MemRefType type = c.buffer.getType();
  AffineForOp producer = c.producerBand.front();
  AffineForOp consumer = c.consumerBand.front();
  for (Operation *op = producer->getNextNode(); op != consumer;) {
    Operation *next = op->getNextNode();
    op->moveBefore(producer);
    op = next;
  }
  fusePrefix(c);

  AffineForOp producerLoop = c.producerBand[c.dim];
  AffineForOp consumerLoop = c.consumerBand[c.dim];
  int64_t extent = type.getDimSize(c.dim);
  int64_t consumerBegin = consumerLoop.getConstantLowerBound();
  int64_t consumerEnd = consumerLoop.getConstantUpperBound();
  int64_t halo = c.maxOffset - c.minOffset;

  // The tile loop counts tiles with a unit step (dependence analysis knows
  // nothing of steps), so that it is seen to be parallel.
  OpBuilder b(producerLoop);
  MLIRContext *ctx = b.getContext();
  Location loc = consumerLoop.getLoc();
  int64_t numTiles = llvm::divideCeil(consumerEnd - consumerBegin, tileSize);
  auto tileLoop = AffineForOp::create(b, loc, 0, numTiles);
  Value tile = tileLoop.getInductionVar();
  b.setInsertionPointToStart(tileLoop.getBody());
  SmallVector<int64_t> tileShape{tileSize + halo};
  llvm::append_range(tileShape, type.getShape().drop_front(c.dim + 1));
  auto tileType = MemRefType::get(tileShape, type.getElementType());
  Value tileBuffer = memref::AllocOp::create(b, c.buffer.getLoc(), tileType,
                                             b.getI64IntegerAttr(64));
  producerLoop->moveBefore(tileLoop.getBody()->getTerminator());
  consumerLoop->moveBefore(tileLoop.getBody()->getTerminator());
  b.setInsertionPoint(tileLoop.getBody()->getTerminator());
  memref::DeallocOp::create(b, loc, tileBuffer);

  // The producer computes rows [start + min, start + tile + max), clipped
  // to the buffer; the consumer its tile [start, start + tile).
  AffineExpr start = getAffineDimExpr(0, ctx) * tileSize + consumerBegin;
  producerLoop.setLowerBound(
      tile,
      AffineMap::get(1, 0, {start + c.minOffset, getAffineConstantExpr(0, ctx)},
                     ctx));
  producerLoop.setUpperBound(
      tile, AffineMap::get(1, 0,
                           {start + tileSize + c.maxOffset,
                            getAffineConstantExpr(extent, ctx)},
                           ctx));
  consumerLoop.setLowerBound(tile, AffineMap::get(1, 0, start));
  consumerLoop.setUpperBound(
      tile,
      AffineMap::get(
          1, 0, {start + tileSize, getAffineConstantExpr(consumerEnd, ctx)},
          ctx));

  for (AffineStoreOp store : c.stores)
    redirect(store, tileBuffer, c.dim, c.producerBand, 0, tile, tileSize,
             consumerBegin + c.minOffset);
  for (auto [load, offset] : llvm::zip_equal(c.loads, c.loadOffsets))
    redirect(load, tileBuffer, c.dim, c.consumerBand, offset, tile, tileSize,
             consumerBegin + c.minOffset);
  if (c.dealloc)
    c.dealloc->erase();
  c.buffer->erase();
  return tileLoop;
}

struct FuseProducerSlicesPass
    : public polyblocks::impl::PBFuseProducerSlicesBase<
          FuseProducerSlicesPass> {
  using PBFuseProducerSlicesBase::PBFuseProducerSlicesBase;

  void runOnOperation() override {
    // The machine model's budget; the option overrides it.
    int64_t cacheBytes =
        static_cast<int64_t>(
            cacheKiB ? cacheKiB
                     : polyblocks::chooseFusionCacheKiB(
                           polyblocks::getMachineModel(getOperation()).cpu)) *
        1024;
    SmallVector<memref::AllocOp> allocs;
    for (Block &block : getOperation().getBody())
      for (auto alloc : block.getOps<memref::AllocOp>())
        allocs.push_back(alloc);
    for (memref::AllocOp alloc : allocs) {
      std::optional<Candidate> c = matchCandidate(alloc);
      if (!c)
        continue;
      MemRefType type = alloc.getType();
      int64_t rowBytes = type.getElementTypeBitWidth() / 8;
      for (int64_t size : type.getShape().drop_front(c->dim + 1))
        rowBytes *= size;
      int64_t halo = c->maxOffset - c->minOffset;
      AffineForOp tiled = c->consumerBand[c->dim];
      int64_t extent =
          tiled.getConstantUpperBound() - tiled.getConstantLowerBound();
      std::optional<int64_t> tileRows = polyblocks::chooseProducerSliceRows(
          rowBytes, halo, extent, cacheBytes, maxRecomputePercent);
      if (!tileRows) {
        LLVM_DEBUG(llvm::dbgs() << "not fusing: tiles small enough for the "
                                   "cache recompute too much\n");
        continue;
      }
      int64_t tileSize = *tileRows;
      MemRefType bufferType = c->buffer.getType();
      AffineForOp tileLoop = fuse(*c, tileSize);
      // Recorded on the outermost loop of the fused nest.
      Operation *nestRoot = tileLoop;
      while (isa<AffineForOp, AffineParallelOp>(nestRoot->getParentOp()))
        nestRoot = nestRoot->getParentOp();
      Builder b(nestRoot->getContext());
      std::string summary;
      llvm::raw_string_ostream os(summary);
      os << "producer of a " << bufferType
         << " intermediate fused into the consumer's tiles of " << tileSize
         << " rows along dimension " << c->dim << ": a buffer of "
         << (tileSize + halo) * rowBytes / 1024 << " KiB per tile ("
         << cacheBytes / 1024 << " KiB cache) instead of "
         << bufferType.getNumElements() *
                (bufferType.getElementTypeBitWidth() / 8) / 1024
         << " KiB, " << halo << " rows recomputed per tile";
      polyblocks::recordDecision(nestRoot, DEBUG_TYPE, summary,
                                 {{"tile_rows", b.getI64IntegerAttr(tileSize)},
                                  {"halo_rows", b.getI64IntegerAttr(halo)}});
    }
  }
};

} // namespace
