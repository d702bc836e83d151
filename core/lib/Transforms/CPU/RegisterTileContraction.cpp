//===- RegisterTileContraction.cpp - Vector micro-kernels for matmuls -----===//
//
// Rewrites perfect (i, k, j) nests computing C += X * Y into a cache-blocked
// nest whose innermost loop keeps an MR x NR block of C in vector registers
// across a block of k.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/Contraction.h"
#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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
using polyblocks::Contraction;
using polyblocks::getAccessStride;
using polyblocks::matchContraction;

namespace {

/// Packing the row factor costs a copy of it per k block; it is read once
/// per column tile.
constexpr int64_t kMinColumnTilesToPackRows = 4;

struct RegisterTileContractionPass
    : public polyblocks::impl::PBRegisterTileContractionBase<
          RegisterTileContractionPass> {
  using PBRegisterTileContractionBase::PBRegisterTileContractionBase;

  void runOnOperation() override {
    // The machine model's tile; the options override its parameters.
    polyblocks::RegisterTile tile = polyblocks::chooseRegisterTile(
        polyblocks::getMachineModel(getOperation()).cpu);
    if (rows)
      tile.rows = rows;
    if (lanes)
      tile.columns = lanes;
    if (kBlock)
      tile.kBlock = kBlock;
    if (cacheKiB)
      tile.packRowsAboveKiB = cacheKiB;
    for (AffineForOp root : polyblocks::getOutermostLoops(getOperation()))
      if (std::optional<Contraction> c = matchContraction(root))
        rewrite(*c, tile);
  }

  void rewrite(Contraction c, const polyblocks::RegisterTile &tile) {
    int64_t m = c.iLoop.getConstantUpperBound();
    int64_t n = c.jLoop.getConstantUpperBound();
    // MR: as few register tiles as `rows` allows, as even as possible
    // (8 rows: two tiles of 4, not 6 and 2); the rows left over after the
    // whole tiles form one smaller tile. NR: `lanes`, or half of it when N
    // is a multiple of that only (`lanes` counts f32 elements: f64 tiles
    // are half as wide, the same number of registers).
    int64_t maxRows = std::max<int64_t>(1, std::min<int64_t>(tile.rows, m));
    int64_t numTiles = llvm::divideCeil(m, maxRows);
    int64_t mr = llvm::divideCeil(m, numTiles);
    int64_t nr = std::max<int64_t>(
        1, int64_t(tile.columns) * 32 / c.elementType.getIntOrFloatBitWidth());
    if (nr > 1 && n % nr != 0 && n % (nr / 2) == 0)
      nr /= 2;
    if (nr == 0 || n % nr != 0) {
      LLVM_DEBUG(llvm::dbgs() << "not tiling: " << n
                              << " columns are not a multiple of the tile\n");
      return;
    }
    SmallVector<int64_t> kTrips;
    int64_t kTotal = 1;
    for (AffineForOp loop : c.kLoops) {
      kTrips.push_back(loop.getConstantUpperBound());
      kTotal *= kTrips.back();
    }
    // A matmul (one reduction loop, nothing around the rows) is blocked
    // along k, with each column tile's panel packed by the thread that uses
    // it. Otherwise (convolutions) the whole reduction space is one block,
    // packed once before the nest.
    bool blocked = c.outerLoops.empty() && c.kLoops.size() == 1;
    int64_t kc = kTotal;
    if (blocked) {
      // The largest k block up to `kBlock` that divides the trip count.
      kc = polyblocks::getLargestDivisorAtMost(kTotal, tile.kBlock);
    }

    // Old induction variables -> the values standing for them now.
    DenseMap<Value, Value> ivMap;
    auto remap = [&](auto access) {
      return polyblocks::remapOperands(access.getMapOperands(), ivMap);
    };

    AffineForOp root = c.outerLoops.empty() ? c.iLoop : c.outerLoops.front();
    OpBuilder b(root);
    Location loc = root.getLoc();
    MLIRContext *ctx = b.getContext();
    auto vectorType = VectorType::get({nr}, c.elementType);
    Value accMemRef = c.accStore.getMemRef();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
    AffineMap plusBlock = AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + kc);

    // The panels of Y, packed contiguously: read in place, the rows of a
    // panel lie a whole row of Y apart and collide in the same cache sets.
    // A k block's panel is packed and used by the thread of its column tile,
    // into a buffer on that thread's stack (KC x NR: 32 KiB at most with the
    // defaults); a convolution's panels are packed once, before the nest,
    // into one heap buffer for all of them.
    Value pack;
    if (!blocked) {
      auto packType = MemRefType::get({n / nr, kc, nr}, c.elementType);
      pack = memref::AllocOp::create(b, loc, packType, b.getI64IntegerAttr(64));
      b.setInsertionPoint(memref::DeallocOp::create(b, loc, pack));
    }

    // The row factor of a blocked matmul whose k block does not stay in
    // cache between column tiles, packed once per k block into slivers of
    // MR rows, k-major: the MR broadcasts of one k step then read MR
    // consecutive elements (in place they lie a whole row of X apart: MR
    // streams from the next cache level), and each sliver serves every
    // column tile. The rows left over after the whole tiles are read in
    // place.
    int64_t wholeRows = m / mr * mr;
    int64_t rowBlockBytes =
        m * kc * int64_t(c.elementType.getIntOrFloatBitWidth() / 8);
    Value rowPack;
    if (blocked && rowBlockBytes > int64_t(tile.packRowsAboveKiB) * 1024 &&
        wholeRows != 0 && n / nr >= kMinColumnTilesToPackRows) {
      auto rowPackType =
          MemRefType::get({wholeRows / mr, kc, mr}, c.elementType);
      rowPack =
          memref::AllocOp::create(b, loc, rowPackType, b.getI64IntegerAttr(64));
      b.setInsertionPoint(memref::DeallocOp::create(b, loc, rowPack));
    }
    // rowPack[it / MR, k - kt, r] with operands (it, k, kt).
    auto rowPackMap = [&](int64_t r) {
      return AffineMap::get(
          3, 0,
          {getAffineDimExpr(0, ctx).floorDiv(mr),
           getAffineDimExpr(1, ctx) - getAffineDimExpr(2, ctx),
           getAffineConstantExpr(r, ctx)},
          ctx);
    };
    Value oldI = c.iLoop.getInductionVar();
    /// Row `rowBase` + r as an index value.
    auto rowIndex = [&](OpBuilder &rb, OpFoldResult rowBase, int64_t r) {
      OpFoldResult row = rowBase;
      if (r != 0)
        row = makeComposedFoldedAffineApply(
            rb, loc, getAffineDimExpr(0, ctx) + r, {rowBase});
      return getValueOrCreateConstantIndexOp(rb, loc, row);
    };

    // pack[position in the block, 0] for a k block (position k - kt), else
    // pack[jt / NR, position, 0] (the row-major linear index of the
    // reduction loops); operands (jt, k..., kt).
    unsigned numK = c.kLoops.size();
    SmallVector<AffineExpr> kDims;
    for (unsigned d = 0; d < numK; ++d)
      kDims.push_back(getAffineDimExpr(1 + d, ctx));
    AffineExpr position = getAffineConstantExpr(0, ctx);
    if (blocked) {
      position = kDims[0] - getAffineDimExpr(1 + numK, ctx);
    } else {
      for (unsigned d = 0; d < numK; ++d)
        position = position * kTrips[d] + kDims[d];
    }
    SmallVector<AffineExpr> packIndices{position,
                                        getAffineConstantExpr(0, ctx)};
    if (!blocked)
      packIndices.insert(packIndices.begin(),
                         getAffineDimExpr(0, ctx).floorDiv(nr));
    AffineMap packMap =
        AffineMap::get(1 + numK + (blocked ? 1 : 0), 0, packIndices, ctx);
    Value kt;
    auto packOperands = [&](Value jt, ArrayRef<Value> kIvs) {
      SmallVector<Value> operands{jt};
      operands.append(kIvs.begin(), kIvs.end());
      if (blocked)
        operands.push_back(kt);
      return operands;
    };

    /// Emits the reduction loops of one block around `body`, threading the
    /// accumulators `accs` through them; returns their final values.
    using BodyFn = function_ref<SmallVector<Value>(
        OpBuilder &, Location, ArrayRef<Value>, ValueRange)>;
    SmallVector<Value> kIvs;
    std::function<SmallVector<Value>(OpBuilder &, Location, unsigned,
                                     ValueRange, BodyFn)>
        reductionNest = [&](OpBuilder &nb, Location nl, unsigned depth,
                            ValueRange accs,
                            BodyFn body) -> SmallVector<Value> {
      if (depth == numK)
        return body(nb, nl, kIvs, accs);
      auto build = [&](OpBuilder &inner, Location innerLoc, Value iv,
                       ValueRange iterArgs) {
        kIvs.push_back(iv);
        ivMap[c.kLoops[depth].getInductionVar()] = iv;
        SmallVector<Value> results =
            reductionNest(inner, innerLoc, depth + 1, iterArgs, body);
        kIvs.pop_back();
        AffineYieldOp::create(inner, innerLoc, results);
      };
      AffineForOp loop =
          blocked
              ? AffineForOp::create(nb, nl, ValueRange{kt}, identity,
                                    ValueRange{kt}, plusBlock, 1, accs, build)
              : AffineForOp::create(nb, nl, 0, kTrips[depth], 1, accs, build);
      return SmallVector<Value>(loop.getResults());
    };

    /// Packs the panels of column tile `jt` for the current block.
    auto packPanels = [&](OpBuilder &pb, Location pl, Value jt) {
      ivMap[c.jLoop.getInductionVar()] = jt;
      reductionNest(pb, pl, 0, ValueRange{},
                    [&](OpBuilder &inner, Location innerLoc, ArrayRef<Value> ks,
                        ValueRange) {
                      Value row = AffineVectorLoadOp::create(
                          inner, innerLoc, vectorType, c.panelLoad.getMemRef(),
                          c.panelLoad.getAffineMap(), remap(c.panelLoad));
                      AffineVectorStoreOp::create(inner, innerLoc, row, pack,
                                                  packMap,
                                                  packOperands(jt, ks));
                      return SmallVector<Value>{};
                    });
    };

    // The outermost loop of the compute nest, where the decision is
    // recorded.
    Operation *nestRoot = nullptr;
    if (blocked) {
      auto kBlockLoop = AffineForOp::create(b, loc, 0, kTotal, kc);
      nestRoot = kBlockLoop;
      b.setInsertionPointToStart(kBlockLoop.getBody());
      kt = kBlockLoop.getInductionVar();
      if (rowPack) {
        // for it in whole tiles, k in the block, r < MR:
        //   rowPack[it / MR, k - kt, r] = X[it + r, k]
        auto tiles = AffineForOp::create(b, loc, 0, wholeRows, mr);
        OpBuilder tb = OpBuilder::atBlockBegin(tiles.getBody());
        Value it = tiles.getInductionVar();
        reductionNest(tb, loc, 0, ValueRange{},
                      [&](OpBuilder &inner, Location innerLoc,
                          ArrayRef<Value> ks, ValueRange) {
                        for (int64_t r = 0; r < mr; ++r) {
                          ivMap[oldI] = rowIndex(inner, it, r);
                          Value x = AffineLoadOp::create(
                              inner, innerLoc, c.rowLoad.getMemRef(),
                              c.rowLoad.getAffineMap(), remap(c.rowLoad));
                          AffineStoreOp::create(inner, innerLoc, x, rowPack,
                                                rowPackMap(r),
                                                ValueRange{it, ks.front(), kt});
                        }
                        return SmallVector<Value>{};
                      });
      }
    } else {
      auto packLoop = AffineForOp::create(b, loc, 0, n, nr);
      OpBuilder pb = OpBuilder::atBlockBegin(packLoop.getBody());
      packPanels(pb, loc, packLoop.getInductionVar());
    }
    for (AffineForOp loop : c.outerLoops) {
      auto copy =
          AffineForOp::create(b, loc, 0, loop.getConstantUpperBound(), 1);
      if (!nestRoot)
        nestRoot = copy;
      ivMap[loop.getInductionVar()] = copy.getInductionVar();
      b.setInsertionPointToStart(copy.getBody());
    }
    auto jTile = AffineForOp::create(b, loc, 0, n, nr);
    if (!nestRoot)
      nestRoot = jTile;
    b.setInsertionPointToStart(jTile.getBody());
    Value jt = jTile.getInductionVar();
    if (blocked) {
      pack = memref::AllocaOp::create(b, loc,
                                      MemRefType::get({kc, nr}, c.elementType),
                                      b.getI64IntegerAttr(64));
      packPanels(b, loc, jt);
    }
    ivMap[c.jLoop.getInductionVar()] = jt;

    /// One register tile: `tileRows` rows from `rowBase` times the NR
    /// columns from `jt`, accumulated over the k block.
    /// Reads the row factor from `rowPack` when `packed`.
    auto emitTile = [&](OpBuilder &tb, OpFoldResult rowBase, int64_t tileRows,
                        bool packed) {
      // Row indices rowBase + r, and the accumulators' initial values.
      SmallVector<Value> rowIvs, initial;
      for (int64_t r = 0; r < tileRows; ++r) {
        rowIvs.push_back(rowIndex(tb, rowBase, r));
        ivMap[oldI] = rowIvs.back();
        initial.push_back(AffineVectorLoadOp::create(
            tb, loc, vectorType, accMemRef, c.accLoad.getAffineMap(),
            remap(c.accLoad)));
      }
      SmallVector<Value> finals = reductionNest(
          tb, loc, 0, initial,
          [&](OpBuilder &inner, Location innerLoc, ArrayRef<Value> ks,
              ValueRange accs) {
            Value panel =
                AffineVectorLoadOp::create(inner, innerLoc, vectorType, pack,
                                           packMap, packOperands(jt, ks));
            if (!packed)
              return polyblocks::buildRowMultiplyAdds(inner, innerLoc, c, ivMap,
                                                      rowIvs, panel, accs);
            SmallVector<Value> scalars;
            for (int64_t r = 0; r < tileRows; ++r)
              scalars.push_back(AffineLoadOp::create(
                  inner, innerLoc, rowPack, rowPackMap(r),
                  ValueRange{rowIvs.front(), ks.front(), kt}));
            return polyblocks::buildMultiplyAdds(inner, innerLoc, scalars,
                                                 panel, accs);
          });
      for (int64_t r = 0; r < tileRows; ++r) {
        ivMap[oldI] = rowIvs[r];
        AffineVectorStoreOp::create(tb, loc, finals[r], accMemRef,
                                    c.accStore.getAffineMap(),
                                    remap(c.accStore));
      }
    };

    // Whole tiles of MR rows, then one tile of the rows left over.
    auto iTile = AffineForOp::create(b, loc, 0, wholeRows, mr);
    OpBuilder tb = OpBuilder::atBlockBegin(iTile.getBody());
    emitTile(tb, iTile.getInductionVar(), mr, bool(rowPack));
    if (wholeRows != m) {
      emitTile(b, b.getIndexAttr(wholeRows), m - wholeRows, false);
    }
    recordTile(nestRoot, c, m, mr, nr, kc, blocked, bool(rowPack),
               rowBlockBytes, tile);
    root.erase();
  }

  /// Records the tile on the nest: `pbtool --explain` and the editor's
  /// hover say what was chosen and why.
  void recordTile(Operation *nestRoot, const Contraction &c, int64_t m,
                  int64_t mr, int64_t nr, int64_t kc, bool blocked,
                  bool rowsPacked, int64_t rowBlockBytes,
                  const polyblocks::RegisterTile &tile) {
    std::string summary;
    llvm::raw_string_ostream os(summary);
    os << "register tile " << mr << " x " << nr << " of " << c.elementType
       << " (" << m / mr << " tiles of " << mr << " rows"
       << (m % mr ? ", then " + std::to_string(m % mr) + " rows" : "")
       << "; vector<" << nr << "x" << c.elementType << "> accumulators), ";
    if (blocked)
      os << "k blocks of " << kc << " (the " << kc << " x " << nr
         << " panel of the column factor packed per thread, on its stack); "
         << "the row factor "
         << (rowsPacked ? "packed into slivers of " + std::to_string(mr) +
                              " rows per k block"
                        : "read in place")
         << " (its k block of " << rowBlockBytes / 1024 << " KiB "
         << (rowsPacked ? "outgrows" : "fits, or few column tiles read it,")
         << " the " << tile.packRowsAboveKiB << " KiB cache)";
    else
      os << "the whole reduction (" << kc
         << " iterations) in one block, the column factor packed once "
            "before the nest";
    Builder b(nestRoot->getContext());
    polyblocks::recordDecision(nestRoot, "pb-register-tile-contraction",
                               summary,
                               {{"rows", b.getI64IntegerAttr(mr)},
                                {"columns", b.getI64IntegerAttr(nr)},
                                {"k_block", b.getI64IntegerAttr(kc)},
                                {"rows_packed", b.getBoolAttr(rowsPacked)}});
  }
};

} // namespace
