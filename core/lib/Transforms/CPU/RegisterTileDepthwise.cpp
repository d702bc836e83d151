//===- RegisterTileDepthwise.cpp - Vector micro-kernel for depthwise convs ===//
//
// A depthwise convolution (and any nest of its shape: C[.., w, c] +=
// X[.., f(w, k), c] * F[k, c], every operand unit-stride in c) is not a
// contraction: no loop is summed over that the row and column factors
// share, so pb-register-tile-contraction leaves it. After
// pb-permute-for-vectorization its innermost loop runs over the channels
// and its accumulator goes through memory at every step of the window:
//
//   for w, kh, kw, c: C[w, c] += X[w + kw, c] * F[kh, kw, c]
//
// This pass keeps R output columns by one vector of channels in registers
// across the whole window, one filter vector loaded per window step:
//
//   for w0 (step R), c0 (step V):
//     acc[r] = C[w0 + r, c0:c0+V]                       r < R
//     for kh, kw: f = F[kh, kw, c0:c0+V]
//                 acc[r] = fma(X[w0 + r + kw, c0:c0+V], f, acc[r])
//     C[w0 + r, c0:c0+V] = acc[r]
//
// with a last tile of the columns left over. The innermost window loop
// (kw) is unrolled by LLVM: the columns then share the input vectors of
// neighbouring steps (X[w0 + r + kw] for each r + kw), loaded once.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/Contraction.h"
#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-register-tile-depthwise"

namespace polyblocks {
#define GEN_PASS_DEF_PBREGISTERTILEDEPTHWISE
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The innermost window loop of at most this many steps (a 7 x 7 window's
/// row) is unrolled.
constexpr int64_t kMaxUnrolledWindowSteps = 7;

/// A matched nest: parallel loops (the last one, w, is tiled), reduction
/// loops, the channel loop c innermost.
struct Depthwise {
  SmallVector<AffineForOp> parallelLoops;
  SmallVector<AffineForOp> kLoops;
  AffineForOp cLoop;
  AffineLoadOp accLoad, xLoad, fLoad;
  AffineStoreOp accStore;
  Type elementType;
  AffineForOp getWLoop() const { return parallelLoops.back(); }
};

/// Whether the innermost window loop of `d` is unrolled: at most
/// kMaxUnrolledWindowSteps steps.
static bool unrollsWindowRow(const Depthwise &d) {
  if (d.kLoops.empty())
    return false;
  AffineForOp row = d.kLoops.back();
  return row.getConstantUpperBound() <= kMaxUnrolledWindowSteps;
}

/// Whether `access` reads or writes consecutive elements as `c` advances,
/// in a memref whose last dimension is contiguous: a vector along `c`.
bool isUnitStrideIn(Operation *access, Value c) {
  auto type = cast<MemRefType>(affine::MemRefAccess(access).memref.getType());
  return type.isLastDimUnitStride() && polyblocks::getAccessStride(access, c) ==
                                           polyblocks::AccessStride::Contiguous;
}

std::optional<Depthwise> matchDepthwise(AffineForOp root) {
  std::optional<polyblocks::MultiplyAccumulateNest> nest =
      polyblocks::matchMultiplyAccumulateNest(root, /*minLoops=*/3);
  if (!nest)
    return std::nullopt;
  Depthwise d;
  ArrayRef<AffineForOp> band = nest->band;
  d.cLoop = band.back();
  d.accLoad = nest->accLoad;
  d.accStore = nest->accStore;
  d.elementType = nest->elementType;

  // The loops C moves with are the parallel ones, outermost; the others
  // are the window, between them and c.
  std::optional<unsigned> numParallel = polyblocks::countParallelLoops(*nest);
  if (!numParallel)
    return std::nullopt;
  d.parallelLoops = llvm::to_vector(band.take_front(*numParallel));
  d.kLoops = llvm::to_vector(band.drop_front(*numParallel).drop_back());
  // The filter is shared by the tile's columns: it moves with none of the
  // parallel loops; one of the factors must then be the input.
  auto movesWithParallel = [&](AffineLoadOp load) {
    return llvm::any_of(d.parallelLoops, [&](AffineForOp loop) {
      return llvm::is_contained(load.getMapOperands(), loop.getInductionVar());
    });
  };
  AffineLoadOp x = nest->lhs, f = nest->rhs;
  if (movesWithParallel(f))
    std::swap(x, f);
  if (movesWithParallel(f) || !movesWithParallel(x))
    return std::nullopt;
  d.xLoad = x;
  d.fLoad = f;
  Value c = d.cLoop.getInductionVar();
  if (!isUnitStrideIn(d.accStore, c) || !isUnitStrideIn(x, c) ||
      !isUnitStrideIn(f, c))
    return std::nullopt;
  return d;
}

/// Builds the tiled nest in place of the w loop.
class TileBuilder {
public:
  /// `fillValue`: the value every element of C holds before the nest (a
  /// fill folded into the accumulators), or null (they start from C).
  TileBuilder(Depthwise &d, int64_t columns, int64_t lanes, Value fillValue)
      : d(d), columns(columns), lanes(lanes),
        vectorType(VectorType::get({lanes}, d.elementType)),
        fillValue(fillValue) {}

  /// Returns the first loop built.
  Operation *build() {
    AffineForOp w = d.getWLoop();
    Operation *first = nullptr;
    OpBuilder b(w);
    Location loc = w.getLoc();
    if (fillValue)
      fillVector = vector::BroadcastOp::create(b, loc, vectorType, fillValue);
    int64_t width = w.getConstantUpperBound();
    int64_t whole = width / columns * columns;
    if (whole != 0) {
      auto tiles = AffineForOp::create(b, loc, 0, whole, columns);
      first = tiles;
      OpBuilder tb = OpBuilder::atBlockBegin(tiles.getBody());
      emitTile(tb, loc, tiles.getInductionVar(), columns);
    }
    if (width != whole) {
      Value base = arith::ConstantIndexOp::create(b, loc, whole);
      Operation *rest = emitTile(b, loc, base, width - whole);
      if (base.use_empty())
        base.getDefiningOp()->erase();
      if (!first)
        first = rest;
    }
    return first;
  }

private:
  /// `access`'s subscripts with the loops replaced through ivMap, composed
  /// with the column offsets' affine.apply ops.
  template <typename AccessOp>
  std::pair<AffineMap, SmallVector<Value>> remap(AccessOp access) {
    AffineMap map = access.getAffineMap();
    SmallVector<Value> operands =
        polyblocks::remapOperands(access.getMapOperands(), ivMap);
    fullyComposeAffineMapAndOperands(&map, &operands);
    canonicalizeMapAndOperands(&map, &operands);
    return {map, operands};
  }

  Value load(OpBuilder &b, Location loc, AffineLoadOp access) {
    auto [map, operands] = remap(access);
    return AffineVectorLoadOp::create(b, loc, vectorType, access.getMemRef(),
                                      map, operands);
  }

  /// `count` columns from `base`, every channel vector, over the window.
  Operation *emitTile(OpBuilder &b, Location loc, Value base, int64_t count) {
    int64_t channels = d.cLoop.getConstantUpperBound();
    auto cTiles = AffineForOp::create(b, loc, 0, channels, lanes);
    OpBuilder cb = OpBuilder::atBlockBegin(cTiles.getBody());
    ivMap[d.cLoop.getInductionVar()] = cTiles.getInductionVar();
    SmallVector<Value> columnIndices;
    for (int64_t r = 0; r < count; ++r)
      columnIndices.push_back(
          r == 0 ? base
                 : AffineApplyOp::create(
                       cb, loc,
                       AffineMap::get(1, 0, cb.getAffineDimExpr(0) + r), base)
                       .getResult());
    Value oldW = d.getWLoop().getInductionVar();
    SmallVector<Value> accs;
    for (Value column : columnIndices) {
      ivMap[oldW] = column;
      accs.push_back(fillVector ? fillVector : load(cb, loc, d.accLoad));
    }
    SmallVector<Value> results =
        emitWindow(cb, loc, 0, accs, columnIndices, oldW);
    for (auto [column, result] : llvm::zip(columnIndices, results)) {
      ivMap[oldW] = column;
      auto [map, operands] = remap(d.accStore);
      AffineVectorStoreOp::create(cb, loc, result, d.accStore.getMemRef(), map,
                                  operands);
    }
    // The column offsets are composed into every subscript.
    for (Value column : columnIndices)
      if (column != base && column.use_empty())
        column.getDefiningOp()->erase();
    return cTiles;
  }

  /// The window loops from `depth` on, threading the accumulators.
  SmallVector<Value> emitWindow(OpBuilder &b, Location loc, unsigned depth,
                                ValueRange accs, ArrayRef<Value> columns,
                                Value oldW) {
    if (depth == d.kLoops.size()) {
      Value filter = load(b, loc, d.fLoad);
      SmallVector<Value> next;
      for (auto [column, acc] : llvm::zip(columns, accs)) {
        ivMap[oldW] = column;
        Value input = load(b, loc, d.xLoad);
        next.push_back(vector::FMAOp::create(b, loc, input, filter, acc));
      }
      return next;
    }
    AffineForOp old = d.kLoops[depth];
    auto loop = AffineForOp::create(
        b, loc, 0, old.getConstantUpperBound(), 1, accs,
        [&](OpBuilder &inner, Location innerLoc, Value iv, ValueRange args) {
          ivMap[old.getInductionVar()] = iv;
          SmallVector<Value> results =
              emitWindow(inner, innerLoc, depth + 1, args, columns, oldW);
          AffineYieldOp::create(inner, innerLoc, results);
        });
    // The innermost window loop as straight-line code, by LLVM: the columns
    // of a window row then read the same input vectors at neighbouring
    // steps (X[w + r + kw] for r + kw alike), each loaded once instead of
    // once per step (depthwise 28 x 28 x 192: 0.0181 -> 0.0162 ms,
    // bench/RESULTS.md).
    if (depth + 1 == d.kLoops.size() && unrollsWindowRow(d))
      polyblocks::requestLLVMFullUnroll(loop);
    return SmallVector<Value>(loop.getResults());
  }

  Depthwise &d;
  int64_t columns, lanes;
  VectorType vectorType;
  Value fillValue, fillVector;
  DenseMap<Value, Value> ivMap;
};

/// A fill of C right before the nest whose value the accumulators can
/// start from: C read and written at the same element, each element of C
/// once (the parallel loops and c index it one to one), nothing between
/// touching C, and neither factor a view of C.
std::optional<std::pair<AffineForOp, polyblocks::BufferFill>>
findFoldableFill(Depthwise &d, AffineForOp root) {
  SmallVector<AffineForOp> band(d.parallelLoops);
  band.push_back(d.cLoop);
  return polyblocks::findAccumulatorFill(
      root, d.accLoad, d.accStore, band,
      {d.xLoad.getMemRef(), d.fLoad.getMemRef()});
}

/// The tile's columns: the largest divisor of the width from half the
/// register budget up to it (no columns left over), else the budget.
int64_t chooseColumns(int64_t width, int64_t maxColumns) {
  if (width <= maxColumns)
    return width;
  for (int64_t r = maxColumns; r * 2 > maxColumns; --r)
    if (width % r == 0)
      return r;
  return maxColumns;
}

struct RegisterTileDepthwisePass
    : public polyblocks::impl::PBRegisterTileDepthwiseBase<
          RegisterTileDepthwisePass> {
  using PBRegisterTileDepthwiseBase::PBRegisterTileDepthwiseBase;

  void runOnOperation() override {
    polyblocks::DepthwiseTile tile = polyblocks::chooseDepthwiseTile(
        polyblocks::getMachineModel(getOperation()).cpu);
    if (columns)
      tile.columns = columns;
    for (AffineForOp root : polyblocks::getOutermostLoops(getOperation())) {
      std::optional<Depthwise> d = matchDepthwise(root);
      if (!d)
        continue;
      int64_t lanes =
          tile.f32Lanes * 32 / d->elementType.getIntOrFloatBitWidth();
      int64_t channels = d->cLoop.getConstantUpperBound();
      if (lanes < 2 || channels % lanes != 0) {
        LLVM_DEBUG(llvm::dbgs()
                   << "not tiling: " << channels
                   << " channels are no multiple of " << lanes << " lanes\n");
        continue;
      }
      int64_t width = d->getWLoop().getConstantUpperBound();
      int64_t r = chooseColumns(width, tile.columns);
      // A fill of C right before the nest: the accumulators start from its
      // value and the fill goes (one pass less over C).
      auto fill = findFoldableFill(*d, root);
      bool unrolled = unrollsWindowRow(*d);
      Operation *first =
          TileBuilder(*d, r, lanes, fill ? fill->second.value : Value())
              .build();
      AffineForOp w = d->getWLoop();
      Operation *nestRoot = w == root ? first : root.getOperation();
      std::string summary;
      llvm::raw_string_ostream(summary)
          << "depthwise register tile: " << r << " output columns x " << lanes
          << " channels in registers across the " << d->kLoops.size()
          << "-loop window, one filter vector per window step"
          << (unrolled ? "; the innermost window loop unrolled (by LLVM), "
                         "the input vectors neighbouring columns share "
                         "loaded once"
                       : "")
          << (fill ? "; the accumulators start from the value the nest "
                     "before filled the result with (that nest removed)"
                   : "");
      Builder b(&getContext());
      polyblocks::recordDecision(
          nestRoot, DEBUG_TYPE, summary,
          {{"columns", b.getI64IntegerAttr(r)},
           {"fill_folded", b.getBoolAttr(bool(fill))},
           {"window_row_unrolled", b.getBoolAttr(unrolled)},
           {"lanes", b.getI64IntegerAttr(lanes)},
           // Each vector of C stored once, after the whole window
           // (pb-fuse-epilogues computes on it there).
           {"stores_once", b.getBoolAttr(true)}});
      w.erase();
      if (fill)
        fill->first.erase();
    }
  }
};

} // namespace
