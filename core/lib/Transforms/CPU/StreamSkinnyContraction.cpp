//===- StreamSkinnyContraction.cpp - Matmuls with few rows ----------------===//
//
// A matmul with few rows (a matrix-vector product, a small batch of tokens)
// reads each element of the right-hand side for only a handful of
// multiply-adds: it is bound by memory bandwidth, and packing panels of it
// (as the register-tiled micro-kernel does) would triple the traffic. This
// pass streams it instead: column blocks on the threads, the rows of the
// right-hand side read once, contiguously, a few at a time, with the few
// rows of the result in vector registers across them and in cache across
// the whole reduction. Each block starts from the fill of the result before
// it, when there is one, and is stored back once, as vectors, so that
// pb-fuse-epilogues computes a bias or an activation after it there.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "polyblocks/Analysis/Contraction.h"
#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-stream-skinny-contraction"

namespace polyblocks {
#define GEN_PASS_DEF_PBSTREAMSKINNYCONTRACTION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

struct StreamSkinnyContractionPass
    : public polyblocks::impl::PBStreamSkinnyContractionBase<
          StreamSkinnyContractionPass> {
  using PBStreamSkinnyContractionBase::PBStreamSkinnyContractionBase;

  void runOnOperation() override {
    // The machine model's choice; the options override its parameters.
    polyblocks::CPUModel cpu = polyblocks::getMachineModel(getOperation()).cpu;
    polyblocks::StreamedMatmul model = polyblocks::chooseStreamedMatmul(cpu);
    polyblocks::RegisterTile tile = polyblocks::chooseRegisterTile(cpu);
    int64_t rowLimit = maxRows ? maxRows : model.maxRows;
    int64_t constantRowLimit =
        maxRowsByConstant ? maxRowsByConstant : model.maxRowsByConstant;
    int64_t blockCacheKiB = cacheKiB ? cacheKiB : model.cacheKiB;
    int64_t numThreads = threads ? threads : model.threads;
    int64_t bits = vectorBits ? vectorBits : model.vectorBits;
    for (AffineForOp root : polyblocks::getTopLevelLoops(getOperation())) {
      std::optional<polyblocks::Contraction> c =
          polyblocks::matchContraction(root);
      if (!c || !c->outerLoops.empty() || c->kLoops.size() != 1)
        continue;
      int64_t m = c->iLoop.getConstantUpperBound();
      int64_t n = c->jLoop.getConstantUpperBound();
      if (m > rowLimit)
        continue;
      int64_t elementBytes = c->elementType.getIntOrFloatBitWidth() / 8;
      // A constant Y (a layer's weights) with more rows: left to
      // pb-register-tile-contraction (which packs its panels at compile
      // time) when that tiles the columns at least two vectors wide, each
      // broadcast of X then feeding two multiply-adds or more (N = 1000
      // takes tiles one vector wide: streamed).
      int64_t lanes = std::max<int64_t>(1, bits / 8 / elementBytes);
      if (m > constantRowLimit && polyblocks::matchConstantColumnFactor(*c)) {
        std::optional<polyblocks::TileColumns> columns =
            polyblocks::chooseTileColumns(cpu, tile, n, elementBytes * 8);
        if (columns && columns->columns >= 2 * lanes)
          continue;
      }
      // The block of results takes half of the cache; the other half holds
      // the rows of the right-hand side on their way through. Wider
      // matmuls with no block of whole vectors dividing them (N = 1000 with
      // 16 lanes) are left to the register-tiled micro-kernel, on all the
      // threads.
      int64_t nb = polyblocks::chooseStreamedBlockColumns(
          m, n, elementBytes, blockCacheKiB * 1024 / 2, lanes, numThreads);
      if (nb == 0)
        continue;
      // The fill of C before the nest, when each block's buffer can start
      // from its value instead of reading C (and C is then written once).
      auto fill = polyblocks::findAccumulatorFill(
          root, c->accLoad, c->accStore, {c->iLoop, c->jLoop},
          {c->rowLoad.getMemRef(), c->panelLoad.getMemRef()});
      AffineForOp blocks =
          stream(*c, n, nb, lanes, fill ? fill->second.value : Value());
      if (fill)
        fill->first.erase();
      Builder b(blocks.getContext());
      int64_t numBlocks = llvm::divideCeil(n, nb);
      std::string last =
          n % nb == 0
              ? ""
              : " (the last " + std::to_string(n - (numBlocks - 1) * nb) + ")";
      polyblocks::recordDecision(
          blocks, DEBUG_TYPE,
          "matmul of " + std::to_string(m) +
              " rows streamed: " + std::to_string(numBlocks) + " blocks of " +
              std::to_string(nb) + " columns" + last +
              ", at most one per thread, the " + std::to_string(m) +
              " rows of a vector of columns in registers while the "
              "right-hand side streams through once" +
              (fill ? "; the blocks start from the value the nest before "
                      "filled the result with (that nest removed)"
                    : ""),
          {{"rows", b.getI64IntegerAttr(m)},
           {"block_columns", b.getI64IntegerAttr(nb)},
           // Each block is stored into C once, as vectors, after the whole
           // reduction: pb-fuse-epilogues computes the elementwise nest
           // after it there.
           {"stores_once", b.getBoolAttr(true)}});
    }
  }

  /// for i, k, j  ->  for jb (blocks of nb columns): copy the block of C
  /// into a buffer of its own (or fill it with `fillValue`, the value C was
  /// filled with), for kt (KU rows), jt (vectors of `lanes` columns in the
  /// block), k in kt: accumulate in registers, per row of C, then in the
  /// buffer; copy it back, as vectors. (The rows of C are a power of two
  /// apart: in place, the same column of every row would fall into one set
  /// of L1.) The columns of a block past its last whole vector (one block
  /// of N no multiple of `lanes`) go the same way in narrower vectors, each
  /// half as wide as the one before, after the jt loop. When `nb` does not
  /// divide the `n` columns (both whole vectors), the last block takes the
  /// columns left: the loops over a block's columns end at n.
  AffineForOp stream(polyblocks::Contraction &c, int64_t n, int64_t nb,
                     int64_t lanes, Value fillValue) {
    AffineForOp iLoop = c.iLoop, kLoop = c.kLoops.front(), jLoop = c.jLoop;
    int64_t m = iLoop.getConstantUpperBound();
    OpBuilder b(iLoop);
    Location loc = iLoop.getLoc();
    MLIRContext *ctx = b.getContext();
    int64_t numBlocks = llvm::divideCeil(n, nb);
    bool clipped = n % nb != 0;
    assert((!clipped || (nb % lanes == 0 && n % lanes == 0)) &&
           "a narrower last block is whole vectors");
    // Unit steps everywhere: dependence analysis knows nothing of steps.
    auto blocks = AffineForOp::create(b, loc, 0, numBlocks);
    Value block = blocks.getInductionVar();
    b.setInsertionPointToStart(blocks.getBody());
    Value acc =
        memref::AllocOp::create(b, loc, MemRefType::get({m, nb}, c.elementType),
                                b.getI64IntegerAttr(64));
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
               d2 = getAffineDimExpr(2, ctx);
    // C[i, b * nb + j] <-> acc[i, j]
    Value c0 = c.accStore.getMemRef();
    AffineMap cMap = AffineMap::get(3, 0, {d0, d2 * nb + d1}, ctx);
    int64_t whole = nb / lanes * lanes;
    // A loop over the first `width` columns of the block (up to n).
    auto columnLoop = [&](int64_t width, int64_t step) {
      if (!clipped)
        return AffineForOp::create(b, loc, 0, width, step);
      AffineMap zero = AffineMap::getConstantMap(0, ctx);
      AffineMap upper = AffineMap::get(
          1, 0, {getAffineConstantExpr(width, ctx), -d0 * nb + n}, ctx);
      return AffineForOp::create(b, loc, ValueRange{}, zero, ValueRange{block},
                                 upper, step);
    };
    // acc <- the block of C, or the fill value.
    {
      auto i = AffineForOp::create(b, loc, 0, m);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(i.getBody());
      auto j = columnLoop(nb, 1);
      b.setInsertionPointToStart(j.getBody());
      SmallVector<Value> ij{i.getInductionVar(), j.getInductionVar()};
      SmallVector<Value> ijb{i.getInductionVar(), j.getInductionVar(), block};
      Value v = fillValue ? fillValue
                          : Value(AffineLoadOp::create(b, loc, c0, cMap, ijb));
      AffineStoreOp::create(b, loc, v, acc, ij);
    }
    // The block of C <- acc, a vector at a time (the widths of the column
    // loop below): each element of C stored once, by a vector store.
    auto copyOut = [&] {
      auto i = AffineForOp::create(b, loc, 0, m);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(i.getBody());
      auto storeVector = [&](Value column, int64_t width) {
        Value row = i.getInductionVar();
        Value v = AffineVectorLoadOp::create(
            b, loc, VectorType::get({width}, c.elementType), acc,
            ValueRange{row, column});
        AffineVectorStoreOp::create(b, loc, v, c0, cMap,
                                    ValueRange{row, column, block});
      };
      if (whole != 0) {
        OpBuilder::InsertionGuard jGuard(b);
        auto j = columnLoop(whole, lanes);
        b.setInsertionPointToStart(j.getBody());
        storeVector(j.getInductionVar(), lanes);
      }
      int64_t column = whole;
      for (unsigned width : polyblocks::splitIntoVectors(nb - whole, lanes)) {
        storeVector(arith::ConstantIndexOp::create(b, loc, column), width);
        column += width;
      }
    };
    // for kt (blocks of KU rows of Y), jt (vectors of the column block):
    // the M accumulators of one vector of columns stay in registers across
    // the KU rows, each row's vector of Y feeds the M rows.
    int64_t kTrips = kLoop.getConstantUpperBound();
    int64_t ku = polyblocks::getLargestDivisorAtMost(kTrips, kUnroll);
    auto kt = AffineForOp::create(b, loc, 0, kTrips, ku);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(kt.getBody());
      // The accumulator lives in acc[i, j - b * nb].
      AffineMap accMap = AffineMap::get(3, 0, {d0, d1 - d2 * nb}, ctx);
      AffineMap plusKu = AffineMap::get(1, 0, d0 + ku);
      AffineMap identity = AffineMap::get(1, 0, d0);
      // The rows of C for one vector of columns from `column`.
      auto streamColumns = [&](Value column, int64_t width) {
        auto vectorType = VectorType::get({width}, c.elementType);
        // Old induction variables -> the values standing for them now.
        DenseMap<Value, Value> ivMap{{jLoop.getInductionVar(), column}};
        SmallVector<Value> rows, initial;
        for (int64_t r = 0; r < m; ++r) {
          rows.push_back(arith::ConstantIndexOp::create(b, loc, r));
          initial.push_back(
              AffineVectorLoadOp::create(b, loc, vectorType, acc, accMap,
                                         ValueRange{rows[r], column, block}));
        }
        auto k = AffineForOp::create(
            b, loc, kt.getInductionVar(), identity, kt.getInductionVar(),
            plusKu, 1, initial,
            [&](OpBuilder &kb, Location kl, Value kIv, ValueRange accs) {
              ivMap[kLoop.getInductionVar()] = kIv;
              Value y = AffineVectorLoadOp::create(
                  kb, kl, vectorType, c.panelLoad.getMemRef(),
                  c.panelLoad.getAffineMap(),
                  polyblocks::remapOperands(c.panelLoad.getMapOperands(),
                                            ivMap));
              AffineYieldOp::create(kb, kl,
                                    polyblocks::buildRowMultiplyAdds(
                                        kb, kl, c, ivMap, rows, y, accs));
            });
        for (int64_t r = 0; r < m; ++r)
          AffineVectorStoreOp::create(b, loc, k.getResult(r), acc, accMap,
                                      ValueRange{rows[r], column, block});
        // The KU rows of Y as straight-line code, by LLVM: unrolled here,
        // the broadcasts of all KU rows would leave the column loop and
        // spill.
        polyblocks::requestLLVMFullUnroll(k);
      };
      AffineExpr start = getAffineDimExpr(0, ctx) * nb;
      if (whole != 0) {
        OpBuilder::InsertionGuard jtGuard(b);
        AffineMap end =
            clipped
                ? AffineMap::get(
                      1, 0, {start + whole, getAffineConstantExpr(n, ctx)}, ctx)
                : AffineMap::get(1, 0, start + whole);
        auto jt = AffineForOp::create(
            b, loc, block, AffineMap::get(1, 0, start), block, end, lanes);
        b.setInsertionPointToStart(jt.getBody());
        streamColumns(jt.getInductionVar(), lanes);
      }
      int64_t column = whole;
      for (unsigned width : polyblocks::splitIntoVectors(nb - whole, lanes)) {
        Value first = AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, start + column), ValueRange{block});
        streamColumns(first, width);
        column += width;
      }
    }
    copyOut();
    memref::DeallocOp::create(b, loc, acc);
    iLoop.erase();
    return blocks;
  }
};

} // namespace
