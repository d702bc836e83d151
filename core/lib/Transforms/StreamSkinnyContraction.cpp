//===- StreamSkinnyContraction.cpp - Matmuls with few rows ----------------===//
//
// A matmul with few rows (a matrix-vector product, a small batch of tokens)
// reads each element of the right-hand side for only a handful of
// multiply-adds: it is bound by memory bandwidth, and packing panels of it
// (as the register-tiled micro-kernel does) would triple the traffic. This
// pass streams it instead: column blocks on the threads, the rows of the
// right-hand side read once, contiguously, and the few rows of the result
// kept in L1 across the whole reduction.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/Contraction.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-stream-skinny-contraction"

namespace polyblocks {
#define GEN_PASS_DEF_PBSTREAMSKINNYCONTRACTION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The widest block of columns, a multiple of `lanes` dividing `n`, whose
/// `m` rows of results take at most `bytes`, with at least `minBlocks`
/// blocks; 0 if there is none.
static int64_t chooseBlock(int64_t m, int64_t n, int64_t elementBytes,
                           int64_t bytes, int64_t lanes, int64_t minBlocks) {
  for (int64_t nb = n / minBlocks; nb >= lanes; --nb)
    if (n % nb == 0 && nb % lanes == 0 && m * nb * elementBytes <= bytes)
      return nb;
  return 0;
}

struct StreamSkinnyContractionPass
    : public polyblocks::impl::PBStreamSkinnyContractionBase<
          StreamSkinnyContractionPass> {
  using PBStreamSkinnyContractionBase::PBStreamSkinnyContractionBase;

  void runOnOperation() override {
    for (AffineForOp root : polyblocks::getTopLevelLoops(getOperation())) {
      std::optional<polyblocks::Contraction> c =
          polyblocks::matchContraction(root);
      if (!c || !c->outerLoops.empty() || c->kLoops.size() != 1)
        continue;
      int64_t m = c->iLoop.getConstantUpperBound();
      int64_t n = c->jLoop.getConstantUpperBound();
      if (m > static_cast<int64_t>(maxRows))
        continue;
      int64_t elementBytes = c->elementType.getIntOrFloatBitWidth() / 8;
      // The block of results takes half of L1; the other half holds the
      // rows of the right-hand side on their way through.
      // As many blocks as threads, no more: the wider a block, the longer
      // the contiguous runs of each row of Y a thread reads, which the
      // hardware prefetchers follow better.
      int64_t nb = chooseBlock(
          m, n, elementBytes, static_cast<int64_t>(cacheKiB) * 1024 / 2,
          std::max<int64_t>(1, vectorBits / 8 / elementBytes),
          std::max<int64_t>(1, threads));
      if (nb == 0)
        continue;
      stream(*c, n / nb, nb);
    }
  }

  /// for i, k, j  ->  for jb (blocks of nb columns): copy the block of C
  /// into a buffer of its own, for k, i, j in the block: accumulate there,
  /// copy it back. (The rows of C are a power of two apart: in place, the
  /// same column of every row would fall into one set of L1.)
  void stream(polyblocks::Contraction &c, int64_t numBlocks, int64_t nb) {
    AffineForOp iLoop = c.iLoop, kLoop = c.kLoops.front(), jLoop = c.jLoop;
    int64_t m = iLoop.getConstantUpperBound();
    OpBuilder b(iLoop);
    Location loc = iLoop.getLoc();
    MLIRContext *ctx = b.getContext();
    // Unit steps everywhere: dependence analysis knows nothing of steps.
    auto blocks = AffineForOp::create(b, loc, 0, numBlocks);
    Value block = blocks.getInductionVar();
    b.setInsertionPointToStart(blocks.getBody());
    Value acc = memref::AllocOp::create(
        b, loc, MemRefType::get({m, nb}, c.elementType),
        b.getI64IntegerAttr(64));
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
               d2 = getAffineDimExpr(2, ctx);
    // C[i, b * nb + j] <-> acc[i, j]
    Value c0 = c.accStore.getMemRef();
    AffineMap cMap = AffineMap::get(3, 0, {d0, d2 * nb + d1}, ctx);
    auto copy = [&](bool in) {
      auto i = AffineForOp::create(b, loc, 0, m);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(i.getBody());
      auto j = AffineForOp::create(b, loc, 0, nb);
      b.setInsertionPointToStart(j.getBody());
      SmallVector<Value> ij{i.getInductionVar(), j.getInductionVar()};
      SmallVector<Value> ijb{i.getInductionVar(), j.getInductionVar(), block};
      if (in) {
        Value v = AffineLoadOp::create(b, loc, c0, cMap, ijb);
        AffineStoreOp::create(b, loc, v, acc, ij);
      } else {
        Value v = AffineLoadOp::create(b, loc, acc, ij);
        AffineStoreOp::create(b, loc, v, c0, cMap, ijb);
      }
    };
    copy(/*in=*/true);
    auto k = AffineForOp::create(b, loc, 0, kLoop.getConstantUpperBound());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(k.getBody());
      auto i = AffineForOp::create(b, loc, 0, m);
      b.setInsertionPointToStart(i.getBody());
      AffineExpr start = getAffineDimExpr(0, ctx) * nb;
      auto j = AffineForOp::create(b, loc, block, AffineMap::get(1, 0, start),
                                   block, AffineMap::get(1, 0, start + nb));
      IRMapping map;
      map.map(iLoop.getInductionVar(), i.getInductionVar());
      map.map(kLoop.getInductionVar(), k.getInductionVar());
      map.map(jLoop.getInductionVar(), j.getInductionVar());
      b.setInsertionPointToStart(j.getBody());
      for (Operation &op : jLoop.getBody()->without_terminator())
        b.clone(op, map);
      // The accumulator lives in acc[i, j - b * nb].
      AffineMap accMap = AffineMap::get(3, 0, {d0, d1 - d2 * nb}, ctx);
      SmallVector<Value> operands{i.getInductionVar(), j.getInductionVar(),
                                  block};
      auto load = cast<AffineLoadOp>(map.lookup(c.accLoad.getOperation()));
      auto store = cast<AffineStoreOp>(map.lookup(c.accStore.getOperation()));
      b.setInsertionPoint(load);
      Value v = AffineLoadOp::create(b, loc, acc, accMap, operands);
      load.getResult().replaceAllUsesWith(v);
      load.erase();
      b.setInsertionPoint(store);
      AffineStoreOp::create(b, loc, store.getValueToStore(), acc, accMap,
                            operands);
      store.erase();
    }
    copy(/*in=*/false);
    memref::DeallocOp::create(b, loc, acc);
    iLoop.erase();
  }
};

} // namespace
