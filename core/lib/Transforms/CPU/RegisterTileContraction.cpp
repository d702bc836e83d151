//===- RegisterTileContraction.cpp - Vector micro-kernels for matmuls -----===//
//
// Rewrites perfect (i, k, j) nests computing C += X * Y into a cache-blocked
// nest whose innermost loop keeps an MR x NR block of C in vector registers
// across a block of k.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/Contraction.h"
#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#include <cstring>

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

/// A batch's panels up to this size are packed on the stack of the thread
/// that computes the batch; larger ones on the heap.
constexpr int64_t kMaxStackPanelBytes = 256 * 1024;

/// The most bytes of panels a matmul by an argument packs at once, before
/// its nest, into one heap buffer: glibc's malloc keeps freed blocks up to
/// 32 MiB (its largest mmap threshold) for reuse rather than mapping them
/// anew on every call (a 9 MiB buffer: no page fault per call; measured in
/// bench/RESULTS.md).
constexpr int64_t kMaxPanelBufferBytes = 32 * 1024 * 1024;

/// A matmul by an argument packs all its panels before the nest only with
/// this many rows or more (measured, bench/RESULTS.md: 1024 rows by 3072 x
/// 768 gain, 15.0 -> 13.3 ms; 128 rows by it lose, 1.73 -> 2.17 ms).
constexpr int64_t kMinRowsToPackPanels = 512;

/// A matmul by an argument packs its panels group by group, as its threads
/// compute, with at least this many panels per thread.
constexpr int64_t kMinPanelsPerGroup = 4;

/// A column tile's reduction is cut into blocks of at least this many
/// iterations (shorter ones load and store the partial sums more often than
/// the panel's reuse from L1 repays).
constexpr int64_t kMinTileKBlock = 64;

/// A row block of a column tile's k blocks (TilePlan::tileKc) keeps its
/// rows of the row factor in L2 only while that leaves it this many tiles:
/// each block of the panel is read from L1 by that many (3 per block lost
/// to one block of 21 reading the row factor from L3; bench/RESULTS.md).
constexpr int64_t kMinTilesPerPanelBlock = 8;

/// The shape of one register-tiled nest: what the pass decides for a
/// contraction before it changes any IR.
struct TilePlan {
  int64_t m, n;
  /// The register tile (MR x NR) and the k block (KC).
  int64_t mr, nr, kc;
  /// Elements of a cache line (the machine model's).
  int64_t lineElements = 16;
  /// Whether the first register tile of each column tile of a k block
  /// prefetches the next column tile's panel (a k-blocked matmul whose
  /// column factor outgrows L2: its rows come from L3 or memory).
  bool prefetchNextPanel = false;
  /// The widths of the vectors that hold one row of the tile (NR in all).
  SmallVector<int64_t> vectorWidths;
  /// The reduction loops' trip counts and their product.
  SmallVector<int64_t> kTrips;
  int64_t kTotal;
  /// A matmul (one reduction loop, nothing around the rows) is blocked along
  /// k, each column tile's panel packed by the thread that uses it.
  /// Otherwise (convolutions) the whole reduction space is one block, packed
  /// once before the nest.
  bool blocked;
  /// The row factor is packed into MR-row slivers per k block.
  bool packRows;
  /// Bytes of the row factor's k block (M x KC).
  int64_t rowBlockBytes;
  /// A convolution's column tiles are the outermost loop (its panels
  /// outgrow the cache: each is then read by every output row while it is
  /// in cache); else its output rows are, each reading every panel.
  bool columnsOutside;
  /// Bytes of all the packed panels of a convolution (K x N).
  int64_t panelBytes;
  /// A matmul by a constant (or by an argument, with many rows): its whole
  /// tiles of MR rows in `numRowBlocks` blocks (the row factor's block stays
  /// in cache while every column tile reads it), block b taking tiles
  /// [b * T / numRowBlocks, (b + 1) * T / numRowBlocks) of the T; the whole
  /// reduction in one block. 0 otherwise.
  int64_t numRowBlocks = 0;
  /// A row-blocked matmul whose column tile's panel (K x NR) outgrows the
  /// machine model's panelBlockKiB: the reduction of each column tile in
  /// blocks of this many iterations, every tile of the row block taking one
  /// block (the panel's block then read from L1 by all of them) before the
  /// next, their partial sums kept between blocks in a buffer on the stack
  /// and C stored once, after the last block. 0: the whole reduction per
  /// tile.
  int64_t tileKc = 0;
  /// Bytes between two rows of the row factor in place (0 when not a
  /// constant).
  int64_t rowStrideBytes = 0;
  /// The tile's rows when fewer than the registers allow, for the rows of
  /// the row factor to keep to the L1's sets; 0 otherwise.
  unsigned rowsLimitedBySets = 0;
  /// The threads the nest is planned for.
  int64_t threads = 1;
  /// Rows in whole tiles of MR.
  int64_t getWholeRows() const { return m / mr * mr; }
  /// Each tile of C is stored once, after the whole reduction.
  bool storesOnce() const { return !blocked || kc == kTotal; }
};

/// The nest before `root` (the nest of `c`) that fills C with one value, when
/// the accumulators can start from that value instead: the tiles read C
/// only before the whole reduction (the plan stores each tile once), the
/// nest writes every element of C (its parallel loops index C one to one),
/// X and Y are other buffers, and nothing between the fill and `root`
/// touches C or a view of it. None otherwise.
static std::optional<std::pair<AffineForOp, polyblocks::BufferFill>>
findFoldableFill(Contraction &c, const TilePlan &plan, AffineForOp root) {
  if (!plan.storesOnce())
    return std::nullopt;
  SmallVector<AffineForOp> band(c.outerLoops);
  band.push_back(c.iLoop);
  band.push_back(c.jLoop);
  return polyblocks::findAccumulatorFill(
      root, c.accLoad, c.accStore, band,
      {c.rowLoad.getMemRef(), c.panelLoad.getMemRef()});
}

/// Plans the nest of `c` with `tile`, or nullopt when its columns are no
/// multiple of 4 (chooseTileColumns).
static std::optional<TilePlan> planTile(Contraction &c,
                                        const polyblocks::RegisterTile &tile,
                                        const polyblocks::CPUModel &cpu) {
  TilePlan plan;
  plan.m = c.iLoop.getConstantUpperBound();
  plan.n = c.jLoop.getConstantUpperBound();
  plan.threads = std::max<int64_t>(1, tile.threads);
  // NR: `lanes` when it divides N, else the width that divides N the
  // machine model prefers (`lanes` counts f32 elements: f64 tiles are half
  // as wide, the same number of registers). MR: as few register tiles as
  // the rows the registers allow, as even as possible (8 rows: two tiles of
  // 4, not 6 and 2); the rows left over after the whole tiles form one
  // smaller tile.
  unsigned elementBits = c.elementType.getIntOrFloatBitWidth();
  std::optional<polyblocks::TileColumns> columns =
      polyblocks::chooseTileColumns(cpu, tile, plan.n, elementBits);
  if (!columns) {
    LLVM_DEBUG(llvm::dbgs() << "not tiling: " << plan.n
                            << " columns are no multiple of 4\n");
    return std::nullopt;
  }
  plan.nr = columns->columns;
  plan.vectorWidths.assign(columns->vectors.begin(), columns->vectors.end());
  unsigned maxRows = columns->rows;
  auto chooseRows = [&](int64_t limit) {
    int64_t maxRows = std::max<int64_t>(1, std::min<int64_t>(limit, plan.m));
    int64_t numTiles = llvm::divideCeil(plan.m, maxRows);
    plan.mr = llvm::divideCeil(plan.m, numTiles);
  };
  // Rows read in place (all but a blocked matmul's packed slivers, decided
  // below) as many as keep to the L1's sets.
  int64_t elementBytes = c.elementType.getIntOrFloatBitWidth() / 8;
  plan.lineElements =
      std::max<int64_t>(1, int64_t(cpu.cacheLineBytes) / elementBytes);
  if (std::optional<int64_t> rowDelta =
          polyblocks::getAddressDelta(c.rowLoad, c.iLoop.getInductionVar())) {
    plan.rowStrideBytes = *rowDelta * elementBytes;
    unsigned rows =
        polyblocks::limitRowsToCacheSets(cpu, plan.rowStrideBytes, maxRows);
    if (rows < maxRows)
      plan.rowsLimitedBySets = rows;
  }
  chooseRows(plan.rowsLimitedBySets ? plan.rowsLimitedBySets : maxRows);
  plan.kTotal = 1;
  for (AffineForOp loop : c.kLoops) {
    plan.kTrips.push_back(loop.getConstantUpperBound());
    plan.kTotal *= plan.kTrips.back();
  }
  plan.blocked = c.outerLoops.empty() && c.kLoops.size() == 1;
  // A matmul by a constant (a layer's weights) takes the convolutions'
  // path: its panels packed at compile time, the whole reduction per tile
  // (C loaded and stored once), and its row tiles in blocks whose part of
  // the row factor stays in cache while the column tiles stream past. So
  // does a matmul by an argument with more than one row block and at least
  // kMinRowsToPackPanels rows, its panels packed once before the nest (up
  // to kMaxPanelBufferBytes of them); with fewer rows the copy of all the
  // panels through memory costs more than it saves.
  int64_t wholeTiles = plan.m / plan.mr;
  // As many row blocks as take at most `maxTiles` tiles each, rounded up to
  // a multiple of the threads (each takes as many tiles when the blocks are
  // shared out).
  auto countRowBlocks = [&](int64_t maxTiles) {
    int64_t numRowBlocks =
        llvm::divideCeil(wholeTiles, std::max<int64_t>(1, maxTiles));
    if (numRowBlocks > 1)
      numRowBlocks = std::min<int64_t>(
          wholeTiles,
          llvm::divideCeil(numRowBlocks, plan.threads) * plan.threads);
    return numRowBlocks;
  };
  if (plan.blocked && wholeTiles != 0) {
    int64_t rowBytes = std::max<int64_t>(1, plan.kTotal * elementBytes);
    int64_t numRowBlocks =
        countRowBlocks(int64_t(tile.rowBlockKiB) * 1024 / rowBytes / plan.mr);
    if (polyblocks::getConstantGlobal(c.panelLoad.getMemRef()) ||
        (numRowBlocks > 1 && plan.m >= kMinRowsToPackPanels &&
         plan.kTotal * plan.n * elementBytes <= kMaxPanelBufferBytes)) {
      plan.blocked = false;
      plan.numRowBlocks = numRowBlocks;
    }
  }
  // The panel's k blocks of a row-blocked matmul: the largest divisor of
  // the trip count within panelBlockKiB, when that is less than the whole.
  // Each block of the panel is then read from L1 by every tile of the row
  // block, and the more tiles the better: the row blocks take as many tiles
  // as their partial sums (MR x NR each) fit in partialSumsKiB of L1, and
  // no more than keep the block's rows of the row factor in rowBlockKiB of
  // L2 -- unless that leaves fewer than kMinTilesPerPanelBlock, when the
  // rows come from L3 instead (measured, bench/RESULTS.md: 128 rows by
  // 3072 x 768 gain most with one block of 21 tiles, by 768 x 3072 with
  // two of 10 and 11). With one block, the column tiles share the threads.
  if (plan.numRowBlocks != 0 && c.kLoops.size() == 1 && tile.panelBlockKiB) {
    int64_t blockTrips = std::max<int64_t>(
        1, int64_t(tile.panelBlockKiB) * 1024 / (plan.nr * elementBytes));
    int64_t kc = polyblocks::getLargestDivisorAtMost(plan.kTotal, blockTrips);
    if (kc < plan.kTotal && kc >= kMinTileKBlock) {
      plan.tileKc = kc;
      int64_t maxTiles = int64_t(tile.partialSumsKiB) * 1024 /
                         (plan.mr * plan.nr * elementBytes);
      if (int64_t tilesInCache = int64_t(tile.rowBlockKiB) * 1024 /
                                 (plan.kTotal * elementBytes * plan.mr);
          tilesInCache >= kMinTilesPerPanelBlock)
        maxTiles = std::min(maxTiles, tilesInCache);
      plan.numRowBlocks = countRowBlocks(maxTiles);
    }
  }
  // The largest k block that divides the trip count, up to `kBlock` or
  // as long as the panel and the row factor's block fit in half of L2
  // (getKBlockLimit).
  plan.kc =
      plan.blocked
          ? polyblocks::getLargestDivisorAtMost(
                plan.kTotal,
                polyblocks::getKBlockLimit(tile, plan.m, plan.nr, elementBytes))
          : plan.kTotal;
  // The row factor of a blocked matmul whose k block does not stay in cache
  // between column tiles, and that enough column tiles read.
  plan.rowBlockBytes = plan.m * plan.kc * elementBytes;
  plan.packRows = plan.blocked &&
                  plan.rowBlockBytes > int64_t(tile.packRowsAboveKiB) * 1024 &&
                  plan.getWholeRows() != 0 &&
                  plan.n / plan.nr >= kMinColumnTilesToPackRows;
  // Packed slivers are contiguous: the tile takes all the rows it can.
  if (plan.packRows && plan.rowsLimitedBySets) {
    plan.rowsLimitedBySets = 0;
    chooseRows(maxRows);
  }
  plan.panelBytes = plan.kTotal * plan.n * elementBytes;
  plan.prefetchNextPanel =
      plan.blocked && plan.n > plan.nr && plan.getWholeRows() != 0 &&
      plan.panelBytes > int64_t(tile.prefetchPanelsAboveKiB) * 1024;
  plan.columnsOutside =
      !plan.blocked && !c.outerLoops.empty() && c.numPanelBatchLoops == 0 &&
      plan.panelBytes > int64_t(tile.columnsOutsideAboveKiB) * 1024;
  return plan;
}

/// Composes the affine.apply ops that the accesses under `root` take as
/// subscripts into their maps.
static void composeAccessMaps(Operation *root) {
  root->walk([](AffineMapAccessInterface access) {
    Operation *op = access.getOperation();
    if (!isa<AffineReadOpInterface, AffineWriteOpInterface>(op))
      return;
    ValueRange mapOperands =
        isa<AffineReadOpInterface>(op)
            ? cast<AffineReadOpInterface>(op).getMapOperands()
            : cast<AffineWriteOpInterface>(op).getMapOperands();
    unsigned first = op->getNumOperands() - mapOperands.size();
    NamedAttribute mapAttr =
        access.getAffineMapAttrForMemRef(op->getOperand(first - 1));
    AffineMap map = cast<AffineMapAttr>(mapAttr.getValue()).getValue();
    SmallVector<Value> operands(mapOperands);
    fullyComposeAffineMapAndOperands(&map, &operands);
    canonicalizeMapAndOperands(&map, &operands);
    op->setAttr(mapAttr.getName(), AffineMapAttr::get(map));
    op->setOperands(first, mapOperands.size(), operands);
  });
}

/// Builds the register-tiled nest of one contraction, in place of its
/// loops, from its plan:
///
///   pack (convolutions: every panel, once)
///   for kt (blocks of KC; matmuls)
///     pack the row factor's slivers (if planned)
///     for outer loops (convolutions; inside jt when its panels outgrow
///                      the cache)
///       for jt (column tiles of NR)
///         pack the panel (matmuls: on this thread's stack)
///         for it (whole tiles of MR rows): one register tile
///         one register tile of the rows left over
class TiledNestBuilder {
public:
  /// `fillValue`: the value every element of C holds before the nest (a
  /// fill folded into the accumulators), or null (they start from C).
  TiledNestBuilder(Contraction &c, const TilePlan &plan, Value fillValue)
      : c(c), plan(plan), fillValue(fillValue),
        root(c.outerLoops.empty() ? c.iLoop : c.outerLoops.front()), b(root),
        loc(root.getLoc()), ctx(b.getContext()),
        oldI(c.iLoop.getInductionVar()), oldJ(c.jLoop.getInductionVar()) {
    int64_t offset = 0;
    for (int64_t width : plan.vectorWidths) {
      vectorTypes.push_back(VectorType::get({width}, c.elementType));
      vectorOffsets.push_back(offset);
      offset += width;
    }
  }

  /// Builds the nest before the contraction's loops and returns its
  /// outermost compute loop (the caller erases the old loops).
  Operation *build();
  /// Whether build() packed the panels at compile time.
  bool isPackedAtCompileTime() const { return packedAtCompileTime; }
  /// Whether build() packed the panels by column groups, as they compute.
  bool isPackedByGroups() const { return packedByGroups; }
  /// Whether each tile of build() prefetches the next column tile's panel,
  /// packed at compile time (prefetchNextPackedPanelRow). A network's
  /// weights are read once per call: when they outgrow the caches (a
  /// ResNet-50's 100 MB), each panel comes from memory, and the tile that
  /// first reads it would wait on it with nothing to overlap. Each tile
  /// prefetches the next column tile's panel, a row per k step, while it
  /// computes on its own (bench/time_builds.py, median of the rounds'
  /// ratios: ResNet-50 b1 about 1 % faster, MobileNetV2 b1 1-1.5 %, the
  /// BERT layer unchanged; bench/RESULTS.md).
  bool prefetchesPackedPanels() const {
    return packedAtCompileTime && plan.n > plan.nr;
  }

private:
  /// The body of an innermost reduction step: from the builder, the
  /// location, the reduction loops' induction variables and the
  /// accumulators, the accumulators' next values.
  using BodyFn = function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                 ArrayRef<Value>, ValueRange)>;

  /// Emits the reduction loops of one block (from `depth` on) around
  /// `body`, threading the accumulators `accs` through them; returns their
  /// final values.
  SmallVector<Value> buildReductionNest(OpBuilder &nb, Location nl,
                                        unsigned depth, ValueRange accs,
                                        BodyFn body);
  void createPackMaps();
  /// A convolution's packed panels as a new constant global, read with
  /// memref.get_global, when its column factor is a constant global read
  /// linearly in j and the reduction loops (a network's filters: packed at
  /// compile time, not on every call); else null.
  Value getConstantPanels();
  /// Packs the panels of column tile `jt` for the current block.
  void packPanels(OpBuilder &pb, Location pl, Value columnTile);
  /// At the start of the innermost batch loop's `body`: packs the batch's
  /// panels into a buffer of their own (on the stack up to
  /// kMaxStackPanelBytes, else on the heap, freed at the end of the body).
  void packBatchPanels(Block *body);
  /// rowPack[it / MR, k - kt, r] = X[it + r, k] for the whole row tiles of
  /// the current k block.
  void packRowSlivers();
  /// A blocked tile's partial sums: the buffer, the tile's slot in it, the
  /// first iteration of its k block, and whether the block starts from and
  /// ends in the slot.
  struct PartialSums {
    Value buffer, slot;
    OpFoldResult kBegin;
    bool fromBuffer, toBuffer;
  };
  /// One register tile: `tileRows` rows from `rowBase` times the NR columns
  /// of the current column tile, accumulated over the k block; the row
  /// factor read from the slivers when `packed`. With
  /// `prefetchNextPanel`, each k step also prefetches into L2 the lines of
  /// the next column tile's panel row (prefetchNextPanelRow). With
  /// `partial` (a tile whose reduction is in blocks, plan.tileKc): the
  /// block from `partial->kBegin` only, starting from the tile's slot of the
  /// buffer (fromBuffer) or, for the first block, as a whole tile does, and
  /// ending in the slot (toBuffer) or, for the last block, in C.
  void emitTile(OpBuilder &tb, OpFoldResult rowBase, int64_t tileRows,
                bool packed, bool prefetchNextPanel = false,
                const PartialSums *partial = nullptr);
  /// The whole row tiles (those of row block `rowBlock`, when not null) of
  /// the current column tile, each column tile's reduction in blocks of
  /// plan.tileKc: all the tiles take a block before the next, their partial
  /// sums kept in a buffer on the stack of [tiles of the block, MR, NR].
  void emitTilesInKBlocks(Value rowBlock);
  /// Prefetches into L2 the lines of Y[k, jt + NR .. jt + 2 NR) (mod N: the
  /// last column tile's, the first's), the next column tile's part of row
  /// `k` of the column factor: one per cache line from its first element,
  /// and its last element's (a row of NR elements not aligned to a line
  /// spans one line more).
  void prefetchNextPanelRow(OpBuilder &inner, Location innerLoc,
                            ArrayRef<Value> ks);
  /// Prefetches into L2 the lines of row `k` of the next column tile's
  /// panel packed at compile time (jt + NR, mod N: the last column tile's,
  /// the first's; of the same batch), as prefetchNextPanelRow does in Y.
  void prefetchNextPackedPanelRow(OpBuilder &inner, Location innerLoc,
                                  ArrayRef<Value> ks);
  /// The offsets within a row of NR elements of the elements to prefetch:
  /// one per cache line from the first, and the last unless the rows start
  /// on a line (a row not aligned to a line spans one line more).
  SmallVector<int64_t> getPrefetchOffsets(bool rowsAligned) const;

  /// The packed panels of the whole reduction (or of one k block):
  /// [N / NR, KC, NR].
  MemRefType getPanelsType() const {
    return MemRefType::get({plan.n / plan.nr, plan.kc, plan.nr}, c.elementType);
  }
  /// A loop over share `part` of `total` items cut in `parts`: [part * T /
  /// P, (part + 1) * T / P), as even as can be. It walks item numbers with
  /// unit step: upstream's dependence analysis keeps a loop's step only
  /// when its lower bound is a constant, and over rows from b * T / B * MR
  /// with step MR it cannot tell that the shares write rows of their own
  /// (neither the shares nor their items would run in parallel,
  /// `-affine-parallelize` shows the same).
  AffineForOp createShareLoop(OpBuilder &sb, Value part, int64_t total,
                              int64_t parts) {
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    return AffineForOp::create(
        sb, loc, ValueRange{part},
        AffineMap::get(1, 0, (d0 * total).floorDiv(parts)), ValueRange{part},
        AffineMap::get(1, 0, (d0 * total + total).floorDiv(parts)));
  }
  /// Row `rowBase` + r as an index value.
  Value rowIndex(OpBuilder &rb, OpFoldResult rowBase, int64_t r);
  /// rowPack[it / MR, k - kt, r] with operands (it, k, kt).
  AffineMap getRowPackMap(int64_t r);
  /// packMap with the lane `lane` in place of 0.
  AffineMap getPackMap(int64_t lane) const;
  /// The first column of each vector of column tile `columnTile`.
  SmallVector<Value> getVectorColumns(OpBuilder &cb, Value columnTile);
  /// The operands of packMap: (jt, k..., [kt]).
  SmallVector<Value> getPackOperands(Value columnTile, ArrayRef<Value> ks);
  template <typename AccessOp> SmallVector<Value> remap(AccessOp access) {
    return polyblocks::remapOperands(access.getMapOperands(), ivMap);
  }

  Contraction &c;
  const TilePlan &plan;
  Value fillValue;
  /// fillValue in every lane of each of vectorTypes (created before the
  /// nest), or empty.
  SmallVector<Value> fillVectors;
  AffineForOp root;
  OpBuilder b;
  Location loc;
  MLIRContext *ctx;
  /// The vectors that hold one row of a tile, and their first columns
  /// within it.
  SmallVector<VectorType> vectorTypes;
  SmallVector<int64_t> vectorOffsets;
  Value oldI, oldJ;
  /// Old induction variables -> the values standing for them now.
  DenseMap<Value, Value> ivMap;
  /// The induction variables of the reduction loops being built.
  SmallVector<Value> kIvs;
  /// The current k block, column tile, packed panels and row slivers.
  Value kt, jt, pack, rowPack;
  /// The first iteration of the block of a tile's reduction being built
  /// (plan.tileKc), or null.
  OpFoldResult tileKBegin;
  bool packedAtCompileTime = false;
  bool packedByGroups = false;
  /// The leading batch loops of a batch of panels packed at compile time
  /// (one global for all of them, indexed by the batch first); 0 otherwise.
  unsigned numPackBatchDims = 0;
  /// pack[position in the block, 0] for a k block (position k - kt), else
  /// pack[jt / NR, position, 0] (the row-major linear index of the
  /// reduction loops).
  AffineMap packMap;
};

SmallVector<Value>
TiledNestBuilder::buildReductionNest(OpBuilder &nb, Location nl, unsigned depth,
                                     ValueRange accs, BodyFn body) {
  if (depth == plan.kTrips.size())
    return body(nb, nl, kIvs, accs);
  auto build = [&](OpBuilder &inner, Location innerLoc, Value iv,
                   ValueRange iterArgs) {
    kIvs.push_back(iv);
    ivMap[c.kLoops[depth].getInductionVar()] = iv;
    SmallVector<Value> results =
        buildReductionNest(inner, innerLoc, depth + 1, iterArgs, body);
    kIvs.pop_back();
    AffineYieldOp::create(inner, innerLoc, results);
  };
  // The block of `size` iterations from `begin`: constant bounds when it
  // is a constant (a tile's first and last k blocks), else from the k-block
  // loop's variable.
  auto blockLoop = [&](OpFoldResult begin, int64_t size) {
    if (std::optional<int64_t> first = getConstantIntValue(begin))
      return AffineForOp::create(nb, nl, *first, *first + size, 1, accs, build);
    Value from = cast<Value>(begin);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
    AffineMap plusBlock = AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + size);
    return AffineForOp::create(nb, nl, ValueRange{from}, identity,
                               ValueRange{from}, plusBlock, 1, accs, build);
  };
  AffineForOp loop;
  if (plan.blocked) {
    loop = blockLoop(kt, plan.kc);
  } else if (tileKBegin) {
    loop = blockLoop(tileKBegin, plan.tileKc);
  } else {
    loop = AffineForOp::create(nb, nl, 0, plan.kTrips[depth], 1, accs, build);
  }
  return SmallVector<Value>(loop.getResults());
}

void TiledNestBuilder::createPackMaps() {
  unsigned numK = c.kLoops.size();
  SmallVector<AffineExpr> kDims;
  for (unsigned d = 0; d < numK; ++d)
    kDims.push_back(getAffineDimExpr(1 + d, ctx));
  AffineExpr position = getAffineConstantExpr(0, ctx);
  if (plan.blocked) {
    position = kDims[0] - getAffineDimExpr(1 + numK, ctx);
  } else {
    for (unsigned d = 0; d < numK; ++d)
      position = position * plan.kTrips[d] + kDims[d];
  }
  SmallVector<AffineExpr> packIndices{position, getAffineConstantExpr(0, ctx)};
  if (!plan.blocked)
    packIndices.insert(packIndices.begin(),
                       getAffineDimExpr(0, ctx).floorDiv(plan.nr));
  unsigned numDims = 1 + numK + (plan.blocked ? 1 : 0);
  // The batch of panels packed at compile time: its batch loops' variables
  // come last among the operands and select the batch first.
  for (unsigned d = 0; d < numPackBatchDims; ++d)
    packIndices.insert(packIndices.begin() + d,
                       getAffineDimExpr(numDims + d, ctx));
  packMap = AffineMap::get(numDims + numPackBatchDims, 0, packIndices, ctx);
}

Value TiledNestBuilder::rowIndex(OpBuilder &rb, OpFoldResult rowBase,
                                 int64_t r) {
  OpFoldResult row = rowBase;
  if (r != 0)
    row = makeComposedFoldedAffineApply(rb, loc, getAffineDimExpr(0, ctx) + r,
                                        {rowBase});
  return getValueOrCreateConstantIndexOp(rb, loc, row);
}

AffineMap TiledNestBuilder::getPackMap(int64_t lane) const {
  SmallVector<AffineExpr> results(packMap.getResults());
  results.back() = getAffineConstantExpr(lane, ctx);
  return AffineMap::get(packMap.getNumDims(), 0, results, ctx);
}

SmallVector<Value> TiledNestBuilder::getVectorColumns(OpBuilder &cb,
                                                      Value columnTile) {
  SmallVector<Value> columns;
  for (int64_t offset : vectorOffsets)
    columns.push_back(
        offset == 0
            ? columnTile
            : AffineApplyOp::create(
                  cb, loc,
                  AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + offset),
                  ValueRange{columnTile}));
  return columns;
}

AffineMap TiledNestBuilder::getRowPackMap(int64_t r) {
  return AffineMap::get(3, 0,
                        {getAffineDimExpr(0, ctx).floorDiv(plan.mr),
                         getAffineDimExpr(1, ctx) - getAffineDimExpr(2, ctx),
                         getAffineConstantExpr(r, ctx)},
                        ctx);
}

SmallVector<Value> TiledNestBuilder::getPackOperands(Value columnTile,
                                                     ArrayRef<Value> ks) {
  SmallVector<Value> operands{columnTile};
  operands.append(ks.begin(), ks.end());
  if (plan.blocked)
    operands.push_back(kt);
  for (unsigned d = 0; d < numPackBatchDims; ++d)
    operands.push_back(ivMap.lookup(c.outerLoops[d].getInductionVar()));
  return operands;
}

void TiledNestBuilder::packPanels(OpBuilder &pb, Location pl,
                                  Value columnTile) {
  SmallVector<Value> columns = getVectorColumns(pb, columnTile);
  buildReductionNest(
      pb, pl, 0, ValueRange{},
      [&](OpBuilder &inner, Location innerLoc, ArrayRef<Value> ks, ValueRange) {
        for (auto [type, offset, column] :
             llvm::zip_equal(vectorTypes, vectorOffsets, columns)) {
          ivMap[oldJ] = column;
          Value row = AffineVectorLoadOp::create(
              inner, innerLoc, type, c.panelLoad.getMemRef(),
              c.panelLoad.getAffineMap(), remap(c.panelLoad));
          AffineVectorStoreOp::create(inner, innerLoc, row, pack,
                                      getPackMap(offset),
                                      getPackOperands(columnTile, ks));
        }
        return SmallVector<Value>{};
      });
  ivMap[oldJ] = columnTile;
}

Value TiledNestBuilder::getConstantPanels() {
  std::optional<polyblocks::ConstantColumnFactor> factor =
      polyblocks::matchConstantColumnFactor(c);
  if (!factor)
    return nullptr;
  memref::GlobalOp global = factor->global;
  ArrayRef<char> bytes = factor->bytes;
  int64_t elementBytes = factor->elementBytes;
  ArrayRef<AffineForOp> batchLoops =
      ArrayRef<AffineForOp>(c.outerLoops).take_front(c.numPanelBatchLoops);
  SmallVector<int64_t> batchTrips;
  int64_t numBatches = 1;
  for (AffineForOp loop : batchLoops) {
    batchTrips.push_back(loop.getConstantUpperBound());
    numBatches *= batchTrips.back();
  }

  // pack[batch..., jt / NR, position, lane] = Y[batch..., j = jt + lane,
  // k...], position the row-major index of k... (createPackMaps).
  int64_t numElements = factor->init.getNumElements();
  // Every byte is written below: no zeroing first (a network's packed
  // weights are up to hundreds of MB).
  SmallVector<char, 0> packed;
  packed.resize_for_overwrite(numBatches * plan.n * plan.kTotal * elementBytes);
  SmallVector<int64_t> k(plan.kTrips.size(), 0);
  SmallVector<int64_t> batchIndex(batchTrips.size(), 0);
  int64_t position = 0;
  char *out = packed.data();
  for (int64_t batch = 0; batch < numBatches; ++batch) {
    int64_t batchBase = factor->base;
    for (auto [index, coef] : llvm::zip(batchIndex, factor->batchCoefs))
      batchBase += index * coef;
    for (int64_t d = int64_t(batchIndex.size()) - 1; d >= 0; --d) {
      if (++batchIndex[d] < batchTrips[d])
        break;
      batchIndex[d] = 0;
    }
    for (int64_t jt = 0; jt < plan.n; jt += plan.nr) {
      for (position = 0, llvm::fill(k, 0); position < plan.kTotal; ++position) {
        int64_t offset = batchBase + jt;
        for (auto [index, coef] : llvm::zip(k, factor->kCoefs))
          offset += index * coef;
        if (offset < 0 || offset + plan.nr > numElements)
          return nullptr;
        std::memcpy(out, bytes.data() + offset * elementBytes,
                    plan.nr * elementBytes);
        out += plan.nr * elementBytes;
        for (int64_t d = int64_t(k.size()) - 1; d >= 0; --d) {
          if (++k[d] < plan.kTrips[d])
            break;
          k[d] = 0;
        }
      }
    }
  }

  SmallVector<int64_t> packShape(batchTrips);
  llvm::append_range(packShape, getPanelsType().getShape());
  auto packType = MemRefType::get(packShape, c.elementType);
  memref::GlobalOp packedGlobal = polyblocks::getOrCreateConstantGlobal(
      global, (global.getSymName() + "_packed").str(), packType, packed,
      isa<DenseResourceElementsAttr>(factor->init));
  return memref::GetGlobalOp::create(b, loc, packType,
                                     packedGlobal.getSymName());
}

void TiledNestBuilder::packBatchPanels(Block *body) {
  MemRefType packType = getPanelsType();
  if (plan.panelBytes <= kMaxStackPanelBytes) {
    pack = memref::AllocaOp::create(b, loc, packType, b.getI64IntegerAttr(64));
  } else {
    pack = memref::AllocOp::create(b, loc, packType, b.getI64IntegerAttr(64));
    OpBuilder end = OpBuilder::atBlockTerminator(body);
    b.setInsertionPoint(memref::DeallocOp::create(end, loc, pack));
  }
  auto packLoop = AffineForOp::create(b, loc, 0, plan.n, plan.nr);
  OpBuilder pb = OpBuilder::atBlockBegin(packLoop.getBody());
  packPanels(pb, loc, packLoop.getInductionVar());
}

void TiledNestBuilder::packRowSlivers() {
  auto tiles = AffineForOp::create(b, loc, 0, plan.getWholeRows(), plan.mr);
  OpBuilder tb = OpBuilder::atBlockBegin(tiles.getBody());
  Value it = tiles.getInductionVar();
  buildReductionNest(
      tb, loc, 0, ValueRange{},
      [&](OpBuilder &inner, Location innerLoc, ArrayRef<Value> ks, ValueRange) {
        for (int64_t r = 0; r < plan.mr; ++r) {
          ivMap[oldI] = rowIndex(inner, it, r);
          Value x =
              AffineLoadOp::create(inner, innerLoc, c.rowLoad.getMemRef(),
                                   c.rowLoad.getAffineMap(), remap(c.rowLoad));
          AffineStoreOp::create(inner, innerLoc, x, rowPack, getRowPackMap(r),
                                ValueRange{it, ks.front(), kt});
        }
        return SmallVector<Value>{};
      });
}

SmallVector<int64_t>
TiledNestBuilder::getPrefetchOffsets(bool rowsAligned) const {
  SmallVector<int64_t> offsets;
  for (int64_t e = 0; e < plan.nr; e += plan.lineElements)
    offsets.push_back(e);
  if (!rowsAligned && offsets.back() != plan.nr - 1)
    offsets.push_back(plan.nr - 1);
  return offsets;
}

void TiledNestBuilder::prefetchNextPackedPanelRow(OpBuilder &inner,
                                                  Location innerLoc,
                                                  ArrayRef<Value> ks) {
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  Value next = AffineApplyOp::create(
      inner, innerLoc, AffineMap::get(1, 0, (d0 + plan.nr) % plan.n),
      ValueRange{jt});
  // The packed global is aligned to a line: rows of whole lines are too.
  for (int64_t e :
       getPrefetchOffsets(/*rowsAligned=*/plan.nr % plan.lineElements == 0))
    AffinePrefetchOp::create(inner, innerLoc, pack, getPackMap(e),
                             getPackOperands(next, ks), /*isWrite=*/false,
                             /*localityHint=*/2, /*isDataCache=*/true);
}

void TiledNestBuilder::prefetchNextPanelRow(OpBuilder &inner, Location innerLoc,
                                            ArrayRef<Value> ks) {
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  for (int64_t e : getPrefetchOffsets(/*rowsAligned=*/false)) {
    auto column = AffineApplyOp::create(
        inner, innerLoc, AffineMap::get(1, 0, (d0 + plan.nr + e) % plan.n),
        ValueRange{jt});
    ivMap[oldJ] = column;
    AffineMap map = c.panelLoad.getAffineMap();
    SmallVector<Value> operands = remap(c.panelLoad);
    fullyComposeAffineMapAndOperands(&map, &operands);
    canonicalizeMapAndOperands(&map, &operands);
    AffinePrefetchOp::create(inner, innerLoc, c.panelLoad.getMemRef(), map,
                             operands, /*isWrite=*/false, /*localityHint=*/2,
                             /*isDataCache=*/true);
    if (column->use_empty())
      column->erase();
  }
  ivMap[oldJ] = jt;
}

void TiledNestBuilder::emitTile(OpBuilder &tb, OpFoldResult rowBase,
                                int64_t tileRows, bool packed,
                                bool prefetchNextPanel,
                                const PartialSums *partial) {
  Value accMemRef = c.accStore.getMemRef();
  // The tile's slot of the partial sums: [slot, r, column in the tile].
  auto slotMap = [&](int64_t r, int64_t offset) {
    return AffineMap::get(1, 0,
                          {getAffineDimExpr(0, ctx),
                           getAffineConstantExpr(r, ctx),
                           getAffineConstantExpr(offset, ctx)},
                          ctx);
  };
  // Row indices rowBase + r, and the accumulators' initial values: one per
  // row and vector, row by row.
  int64_t numVectors = vectorTypes.size();
  SmallVector<Value> columns = getVectorColumns(tb, jt);
  SmallVector<Value> rowIvs, initial;
  for (int64_t r = 0; r < tileRows; ++r) {
    rowIvs.push_back(rowIndex(tb, rowBase, r));
    ivMap[oldI] = rowIvs.back();
    for (int64_t v = 0; v < numVectors; ++v) {
      ivMap[oldJ] = columns[v];
      if (partial && partial->fromBuffer)
        initial.push_back(AffineVectorLoadOp::create(
            tb, loc, vectorTypes[v], partial->buffer,
            slotMap(r, vectorOffsets[v]), ValueRange{partial->slot}));
      else
        initial.push_back(
            !fillVectors.empty()
                ? fillVectors[v]
                : AffineVectorLoadOp::create(tb, loc, vectorTypes[v], accMemRef,
                                             c.accLoad.getAffineMap(),
                                             remap(c.accLoad)));
    }
  }
  ivMap[oldJ] = jt;
  if (partial)
    tileKBegin = partial->kBegin;
  SmallVector<Value> finals = buildReductionNest(
      tb, loc, 0, initial,
      [&](OpBuilder &inner, Location innerLoc, ArrayRef<Value> ks,
          ValueRange accs) {
        SmallVector<Value> panels;
        for (auto [type, offset] : llvm::zip_equal(vectorTypes, vectorOffsets))
          panels.push_back(AffineVectorLoadOp::create(inner, innerLoc, type,
                                                      pack, getPackMap(offset),
                                                      getPackOperands(jt, ks)));
        if (prefetchNextPanel)
          prefetchNextPanelRow(inner, innerLoc, ks);
        if (prefetchesPackedPanels())
          prefetchNextPackedPanelRow(inner, innerLoc, ks);
        if (!packed)
          return polyblocks::buildRowMultiplyAdds(inner, innerLoc, c, ivMap,
                                                  rowIvs, panels, accs);
        SmallVector<Value> scalars;
        for (int64_t r = 0; r < tileRows; ++r)
          scalars.push_back(
              AffineLoadOp::create(inner, innerLoc, rowPack, getRowPackMap(r),
                                   ValueRange{rowIvs.front(), ks.front(), kt}));
        return polyblocks::buildMultiplyAdds(inner, innerLoc, scalars, panels,
                                             accs);
      });
  tileKBegin = OpFoldResult();
  for (int64_t r = 0; r < tileRows; ++r) {
    ivMap[oldI] = rowIvs[r];
    for (int64_t v = 0; v < numVectors; ++v) {
      ivMap[oldJ] = columns[v];
      if (partial && partial->toBuffer)
        AffineVectorStoreOp::create(
            tb, loc, finals[r * numVectors + v], partial->buffer,
            slotMap(r, vectorOffsets[v]), ValueRange{partial->slot});
      else
        AffineVectorStoreOp::create(tb, loc, finals[r * numVectors + v],
                                    accMemRef, c.accStore.getAffineMap(),
                                    remap(c.accStore));
    }
  }
  ivMap[oldJ] = jt;
}

void TiledNestBuilder::emitTilesInKBlocks(Value rowBlock) {
  int64_t tiles = plan.getWholeRows() / plan.mr;
  int64_t blocks = std::max<int64_t>(1, plan.numRowBlocks);
  auto bufferType = MemRefType::get(
      {int64_t(llvm::divideCeil(tiles, blocks)), plan.mr, plan.nr},
      c.elementType);
  Value buffer =
      memref::AllocaOp::create(b, loc, bufferType, b.getI64IntegerAttr(64));
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  // The tiles of the row block (by tile number, as createShareLoop), each
  // taking the k block from `kBegin`.
  auto emitBlock = [&](OpBuilder &kb, OpFoldResult kBegin, bool fromBuffer,
                       bool toBuffer) {
    AffineForOp tileLoop = rowBlock
                               ? createShareLoop(kb, rowBlock, tiles, blocks)
                               : AffineForOp::create(kb, loc, 0, tiles, 1);
    OpBuilder tb = OpBuilder::atBlockBegin(tileLoop.getBody());
    Value tile = tileLoop.getInductionVar();
    Value rowBase = AffineApplyOp::create(
        tb, loc, AffineMap::get(1, 0, d0 * plan.mr), ValueRange{tile});
    Value slot = tile;
    if (rowBlock)
      slot = AffineApplyOp::create(
          tb, loc, AffineMap::get(2, 0, d0 - (d1 * tiles).floorDiv(blocks)),
          ValueRange{tile, rowBlock});
    PartialSums partial{buffer, slot, kBegin, fromBuffer, toBuffer};
    emitTile(tb, rowBase, plan.mr, /*packed=*/false,
             /*prefetchNextPanel=*/false, &partial);
  };
  // The first block from C (or the fill), the middle ones from and to the
  // buffer, the last into C.
  int64_t last = plan.kTotal - plan.tileKc;
  emitBlock(b, b.getIndexAttr(0), false, true);
  if (last > plan.tileKc) {
    auto kLoop = AffineForOp::create(b, loc, plan.tileKc, last, plan.tileKc);
    OpBuilder kb = OpBuilder::atBlockBegin(kLoop.getBody());
    emitBlock(kb, kLoop.getInductionVar(), true, true);
  }
  emitBlock(b, b.getIndexAttr(last), true, false);
}

Operation *TiledNestBuilder::build() {
  if (fillValue)
    for (VectorType type : vectorTypes)
      fillVectors.push_back(
          vector::BroadcastOp::create(b, loc, type, fillValue));
  // The panels of Y, packed contiguously: read in place, the rows of a
  // panel lie a whole row of Y apart and collide in the same cache sets. A
  // k block's panel is packed and used by the thread of its column tile,
  // into a buffer on that thread's stack (KC x NR: 32 KiB at most with the
  // defaults). Otherwise a constant's panels are packed at compile time;
  // a batch's by its thread at the start of the batch (packBatchPanels);
  // the others once, before the nest, into one heap buffer for all of them.
  bool batched = c.numPanelBatchLoops != 0;
  if (!plan.blocked) {
    pack = getConstantPanels();
    packedAtCompileTime = bool(pack);
    if (packedAtCompileTime && batched)
      numPackBatchDims = c.numPanelBatchLoops;
  }
  createPackMaps();
  if (!plan.blocked && !batched && !pack) {
    pack = memref::AllocOp::create(b, loc, getPanelsType(),
                                   b.getI64IntegerAttr(64));
    b.setInsertionPoint(memref::DeallocOp::create(b, loc, pack));
  }
  // The row factor's slivers of MR rows, k-major: the MR broadcasts of one
  // k step then read MR consecutive elements (in place they lie a whole row
  // of X apart: MR streams from the next cache level), and each sliver
  // serves every column tile. The rows left over after the whole tiles are
  // read in place.
  if (plan.packRows) {
    auto rowPackType = MemRefType::get(
        {plan.getWholeRows() / plan.mr, plan.kc, plan.mr}, c.elementType);
    rowPack =
        memref::AllocOp::create(b, loc, rowPackType, b.getI64IntegerAttr(64));
    b.setInsertionPoint(memref::DeallocOp::create(b, loc, rowPack));
  }

  Operation *nestRoot = nullptr;
  if (plan.blocked) {
    auto kBlockLoop = AffineForOp::create(b, loc, 0, plan.kTotal, plan.kc);
    nestRoot = kBlockLoop;
    b.setInsertionPointToStart(kBlockLoop.getBody());
    kt = kBlockLoop.getInductionVar();
    if (rowPack)
      packRowSlivers();
  }
  // A matmul by an argument with as many panels for each thread: its column
  // tiles in groups, one per thread, outermost; each group's panels packed
  // by the thread of the group, right before their first row block uses
  // them (not in a pass of its own before the nest, every thread waiting on
  // memory: measured in bench/RESULTS.md). With fewer panels, or panels
  // the threads cannot share evenly, the row blocks share the work.
  int64_t panels = plan.n / plan.nr, groups = plan.threads;
  packedByGroups = !plan.blocked && !packedAtCompileTime && !batched &&
                   c.outerLoops.empty() && panels % groups == 0 &&
                   panels >= kMinPanelsPerGroup * groups;
  Value columnGroup;
  if (packedByGroups) {
    auto groupLoop = AffineForOp::create(b, loc, 0, groups, 1);
    nestRoot = groupLoop;
    columnGroup = groupLoop.getInductionVar();
    b.setInsertionPointToStart(groupLoop.getBody());
  } else if (!plan.blocked && !packedAtCompileTime && !batched) {
    auto packLoop = AffineForOp::create(b, loc, 0, plan.n, plan.nr);
    OpBuilder pb = OpBuilder::atBlockBegin(packLoop.getBody());
    packPanels(pb, loc, packLoop.getInductionVar());
  }
  Value rowBlock;
  auto createColumnTileLoop = [&] {
    if (!columnGroup) {
      auto jTile = AffineForOp::create(b, loc, 0, plan.n, plan.nr);
      if (!nestRoot)
        nestRoot = jTile;
      b.setInsertionPointToStart(jTile.getBody());
      jt = jTile.getInductionVar();
      return;
    }
    // The panels of group g, by panel number (as the row blocks' tiles).
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    AffineForOp panelLoop = createShareLoop(b, columnGroup, panels, groups);
    b.setInsertionPointToStart(panelLoop.getBody());
    jt = AffineApplyOp::create(b, loc, AffineMap::get(1, 0, d0 * plan.nr),
                               ValueRange{panelLoop.getInductionVar()});
    if (rowBlock) {
      auto first = IntegerSet::get(1, 0, d0, {true});
      auto inFirst = AffineIfOp::create(b, loc, first, ValueRange{rowBlock},
                                        /*withElseRegion=*/false);
      OpBuilder pb = OpBuilder::atBlockBegin(inFirst.getThenBlock());
      packPanels(pb, loc, jt);
    } else {
      packPanels(b, loc, jt);
    }
  };
  if (plan.columnsOutside)
    createColumnTileLoop();
  for (auto [d, loop] : llvm::enumerate(c.outerLoops)) {
    auto copy = AffineForOp::create(b, loc, 0, loop.getConstantUpperBound(), 1);
    if (!nestRoot)
      nestRoot = copy;
    ivMap[loop.getInductionVar()] = copy.getInductionVar();
    b.setInsertionPointToStart(copy.getBody());
    if (d + 1 == c.numPanelBatchLoops && !packedAtCompileTime)
      packBatchPanels(copy.getBody());
  }
  if (plan.numRowBlocks > 1) {
    auto blocks = AffineForOp::create(b, loc, 0, plan.numRowBlocks, 1);
    if (!nestRoot)
      nestRoot = blocks;
    rowBlock = blocks.getInductionVar();
    b.setInsertionPointToStart(blocks.getBody());
  }
  if (!plan.columnsOutside)
    createColumnTileLoop();
  if (plan.blocked) {
    pack = memref::AllocaOp::create(
        b, loc, MemRefType::get({plan.kc, plan.nr}, c.elementType),
        b.getI64IntegerAttr(64));
    packPanels(b, loc, jt);
  }
  ivMap[c.jLoop.getInductionVar()] = jt;

  // Whole tiles of MR rows (those of this row block), then one tile of the
  // rows left over (with the last row block).
  int64_t wholeRows = plan.getWholeRows();
  if (plan.tileKc && wholeRows != 0) {
    emitTilesInKBlocks(rowBlock);
  } else if (rowBlock) {
    // The tiles of block b, by tile number.
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    AffineForOp tileLoop =
        createShareLoop(b, rowBlock, wholeRows / plan.mr, plan.numRowBlocks);
    OpBuilder tb = OpBuilder::atBlockBegin(tileLoop.getBody());
    Value rowBase =
        AffineApplyOp::create(tb, loc, AffineMap::get(1, 0, d0 * plan.mr),
                              ValueRange{tileLoop.getInductionVar()});
    emitTile(tb, rowBase, plan.mr, bool(rowPack));
  } else {
    // A k-blocked matmul's first tile prefetches the next column tile's
    // panel: its rows lie a whole row of Y apart (12 KiB for 3072 columns,
    // a stride the hardware prefetchers did not follow) and its packing,
    // with no arithmetic to overlap, waited on each of them (128 x 768 by
    // 768 x 3072: 3.02-3.44 -> 2.72-3.02 ms with the longer k block,
    // bench/time_builds.py; bench/RESULTS.md).
    int64_t first = 0;
    if (plan.prefetchNextPanel) {
      emitTile(b, b.getIndexAttr(0), plan.mr, bool(rowPack),
               /*prefetchNextPanel=*/true);
      first = plan.mr;
    }
    auto iTile = AffineForOp::create(b, loc, first, wholeRows, plan.mr);
    OpBuilder tb = OpBuilder::atBlockBegin(iTile.getBody());
    emitTile(tb, iTile.getInductionVar(), plan.mr, bool(rowPack));
  }
  if (wholeRows != plan.m) {
    if (rowBlock) {
      auto last = IntegerSet::get(
          1, 0, getAffineDimExpr(0, ctx) - (plan.numRowBlocks - 1), {true});
      auto inLast = AffineIfOp::create(b, loc, last, ValueRange{rowBlock},
                                       /*withElseRegion=*/false);
      b.setInsertionPointToStart(inLast.getThenBlock());
    }
    emitTile(b, b.getIndexAttr(wholeRows), plan.m - wholeRows, false);
  }
  // Column tiles by panel number, and the vectors of a tile past its first
  // column: the accesses' maps take the loops' induction variables, not an
  // affine.apply of them (the dependence tests read subscripts in loop
  // induction variables).
  if (packedByGroups || vectorTypes.size() > 1)
    composeAccessMaps(nestRoot);
  return nestRoot;
}

/// Records the tile on the nest: `pbtool --explain` and the editor's hover
/// say what was chosen and why.
static void recordTile(Operation *nestRoot, const Contraction &c,
                       const TilePlan &plan,
                       const polyblocks::RegisterTile &tile,
                       bool packedAtCompileTime, bool packedByGroups,
                       bool prefetchesPackedPanels, bool fromFill) {
  int64_t m = plan.m, mr = plan.mr, nr = plan.nr, kc = plan.kc;
  std::string summary;
  llvm::raw_string_ostream os(summary);
  os << "register tile " << mr << " x " << nr << " of " << c.elementType << " ("
     << m / mr << " tiles of " << mr << " rows"
     << (m % mr ? ", then " + std::to_string(m % mr) + " rows" : "") << "; ";
  llvm::interleave(
      plan.vectorWidths, os,
      [&](int64_t width) {
        os << "vector<" << width << "x" << c.elementType << ">";
      },
      " + ");
  os << (plan.vectorWidths.size() > 1 ? " accumulators per row), "
                                      : " accumulators), ");
  if (plan.blocked)
    os << "k blocks of " << kc << " (the " << kc << " x " << nr
       << " panel of the column factor packed per thread, on its stack); "
       << "the row factor "
       << (plan.packRows ? "packed into slivers of " + std::to_string(mr) +
                               " rows per k block"
                         : "read in place")
       << " (its k block of " << plan.rowBlockBytes / 1024 << " KiB "
       << (plan.packRows ? "outgrows" : "fits, or few column tiles read it,")
       << " the " << tile.packRowsAboveKiB << " KiB cache)"
       << (plan.prefetchNextPanel
               ? "; the first tile of each column tile prefetches the next "
                 "one's panel into L2 (the column factor's " +
                     std::to_string(plan.panelBytes / 1024) + " KiB outgrow it)"
               : "");
  else {
    std::string packing =
        packedAtCompileTime         ? "at compile time (a constant)"
        : c.numPanelBatchLoops != 0 ? "per batch, by the thread of the batch"
        : packedByGroups
            ? "by the thread of each group of " +
                  std::to_string(plan.n / plan.nr / plan.threads) +
                  " column tiles (one group per thread, outermost), as its "
                  "first row block reaches them"
            : "once before the nest";
    if (plan.tileKc)
      os << "each column tile's reduction (" << kc << " iterations) in blocks "
         << "of " << plan.tileKc << " (a block of its panel, "
         << plan.tileKc * nr * c.elementType.getIntOrFloatBitWidth() / 8 / 1024
         << " KiB, read from L1 by every tile of the row block; their partial "
            "sums on the stack between blocks), the column factor packed "
         << packing;
    else
      os << "the whole reduction (" << kc
         << " iterations) in one block, the column factor packed " << packing;
  }
  // Where the output rows of a convolution (or a batch) go.
  if (!plan.blocked && !c.outerLoops.empty())
    os << "; "
       << (plan.columnsOutside ? "column tiles outside the output rows"
                               : "output rows outside the column tiles")
       << " (its panels' " << plan.panelBytes / 1024 << " KiB "
       << (plan.columnsOutside ? "outgrow" : "fit in") << " "
       << tile.columnsOutsideAboveKiB << " KiB of cache)";
  if (plan.rowsLimitedBySets)
    os << "; at most " << plan.rowsLimitedBySets << " rows per tile, not "
       << tile.rows << ": the row factor's rows, " << plan.rowStrideBytes
       << " bytes apart, would share the L1's sets beyond their ways";
  if (prefetchesPackedPanels)
    os << "; each tile prefetches the next column tile's panel into L2, a "
          "row per k step";
  if (fromFill)
    os << "; the accumulators start from the value the nest before filled "
          "the result with (that nest removed)";
  if (plan.numRowBlocks > 1) {
    os << "; the " << m / mr << " row tiles in " << plan.numRowBlocks
       << " blocks (";
    if (plan.tileKc)
      os << "a block's partial sums within " << tile.partialSumsKiB
         << " KiB, and its rows of the row factor within " << tile.rowBlockKiB
         << " KiB when that leaves it " << kMinTilesPerPanelBlock
         << " tiles or more; ";
    else
      os << "a block's rows of the row factor within " << tile.rowBlockKiB
         << " KiB, ";
    os << "a multiple of " << tile.threads << " threads)";
  }
  Builder b(nestRoot->getContext());
  SmallVector<std::pair<StringRef, Attribute>> fields{
      {"rows", b.getI64IntegerAttr(mr)},
      {"columns", b.getI64IntegerAttr(nr)},
      {"k_block", b.getI64IntegerAttr(kc)},
      // A column tile's reduction in blocks (0: whole).
      {"tile_k_block", b.getI64IntegerAttr(plan.tileKc)},
      {"rows_packed", b.getBoolAttr(plan.packRows)},
      // Each tile of the result stored once, after the whole reduction
      // (pb-fuse-epilogues computes on it there).
      {"stores_once", b.getBoolAttr(plan.storesOnce())},
      {"fill_folded", b.getBoolAttr(fromFill)}};
  if (!plan.blocked) {
    fields.push_back({"columns_outside", b.getBoolAttr(plan.columnsOutside)});
    fields.push_back(
        {"packed_at_compile_time", b.getBoolAttr(packedAtCompileTime)});
    fields.push_back({"packed_by_groups", b.getBoolAttr(packedByGroups)});
    fields.push_back(
        {"next_panel_prefetched", b.getBoolAttr(prefetchesPackedPanels)});
    fields.push_back({"row_blocks", b.getI64IntegerAttr(std::max<int64_t>(
                                        1, plan.numRowBlocks))});
  }
  polyblocks::recordDecision(nestRoot, DEBUG_TYPE, summary, fields);
}

struct RegisterTileContractionPass
    : public polyblocks::impl::PBRegisterTileContractionBase<
          RegisterTileContractionPass> {
  using PBRegisterTileContractionBase::PBRegisterTileContractionBase;

  void runOnOperation() override {
    // The machine model's tile; the options override its parameters.
    polyblocks::CPUModel cpu = polyblocks::getMachineModel(getOperation()).cpu;
    polyblocks::RegisterTile tile = polyblocks::chooseRegisterTile(cpu);
    if (rows)
      tile.rows = rows;
    if (lanes)
      tile.columns = lanes;
    if (kBlock) {
      tile.kBlock = kBlock;
      tile.kBlockCacheKiB = 0;
    }
    if (cacheKiB)
      tile.packRowsAboveKiB = cacheKiB;
    if (columnsOutsideKiB)
      tile.columnsOutsideAboveKiB = columnsOutsideKiB;
    if (rowBlockKiB)
      tile.rowBlockKiB = rowBlockKiB;
    if (panelBlockKiB)
      tile.panelBlockKiB = panelBlockKiB;
    if (partialSumsKiB)
      tile.partialSumsKiB = partialSumsKiB;
    for (auto func : getOperation().getOps<func::FuncOp>())
      tileFunction(func, tile, cpu);
  }

  void tileFunction(func::FuncOp func, const polyblocks::RegisterTile &tile,
                    const polyblocks::CPUModel &cpu) {
    for (AffineForOp root : polyblocks::getOutermostLoops(func)) {
      std::optional<Contraction> c = matchContraction(root);
      if (!c)
        continue;
      std::optional<TilePlan> plan = planTile(*c, tile, cpu);
      if (!plan)
        continue;
      // A fill of C right before the nest: the accumulators start from its
      // value and the fill goes (one pass less over C).
      auto fill = findFoldableFill(*c, *plan, root);
      TiledNestBuilder builder(*c, *plan, fill ? fill->second.value : Value());
      Operation *nestRoot = builder.build();
      recordTile(nestRoot, *c, *plan, tile, builder.isPackedAtCompileTime(),
                 builder.isPackedByGroups(), builder.prefetchesPackedPanels(),
                 bool(fill));
      root.erase();
      if (fill)
        fill->first.erase();
    }
  }
};

} // namespace
