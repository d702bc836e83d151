//===- FuseEpilogues.cpp - Elementwise consumers at the register tiles ----===//
//
// A register-tiled contraction (pb-register-tile-contraction) stores each
// tile of its result C once, from vector registers, and so do a Winograd
// output transform (pb-winograd-convolutions), a streamed matmul of few
// rows (pb-stream-skinny-contraction, from its block buffer) and a
// depthwise convolution's tiles (pb-register-tile-depthwise). When the next
// nest is an elementwise map of C (a bias, an activation, a residual add:
// D[i, j] = f(C[i, j], X[i, j], b[j], ...)), this pass computes f where the
// tile is stored, on the accumulators themselves, and stores D there:
//
//   for tiles: acc = ...; C[i, j:j+V] = acc      for tiles: acc = ...
//   for i, j: D[i, j] = f(C[i, j], b[j])    ->     D[i, j:j+V] = f(acc,
//                                                        b[j:j+V])
//
// The consumer's pass over memory (reading C back, writing D) goes; C is
// still stored when anything else reads it. The consumer may read C through
// a reshape (a dense layer's [b * s, h * d] result added its bias as
// [b, s, h, d]): the tile store's subscripts are split to match.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-fuse-epilogues"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSEEPILOGUES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;
using polyblocks::getBaseBuffer;

namespace {

/// An elementwise consumer of a register-tiled result, as matched.
struct Epilogue {
  /// The consumer's loops, outermost first, and its innermost body.
  SmallVector<AffineForOp> band;
  /// The load of C[iv_p(0), ..., iv_p(r-1)] and, for each dimension d of
  /// C as the consumer reads it, the band loop whose induction variable
  /// subscripts it.
  AffineLoadOp resultLoad;
  SmallVector<Value> ivOfDim;
  /// For each dimension of C as the tiles store it, the dimensions of C as
  /// the consumer reads it (one each, or the groups of a reshape between
  /// them: a matmul's rows that are [batch, sequence], its columns [heads,
  /// features]), and the sizes of the latter.
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> readShape;
  /// The single store D[...] of the body.
  AffineStoreOp store;
  /// The other loads whose address moves by one element along C's last
  /// dimension (read as vectors); the rest do not move along it (read once,
  /// broadcast).
  llvm::SmallPtrSet<Operation *, 4> vectorLoads;
  /// Accesses made through their buffer collapsed to one dimension, at its
  /// linear subscript (the collapse_shape, created above the producer, once
  /// fused; in the body's order, so the output is the same every run): the
  /// loads that move by one element along the lanes though their last
  /// subscript does not (batch norm's `%v[%c, 0, 0]` of a
  /// memref<Cx1x1xf32>), and, when C is read through a reshape, every other
  /// access that can be, so that the reshape's floordiv and mod cancel in
  /// the linear subscript.
  llvm::MapVector<Operation *, Value> flatViews;
  /// When C is read through a reshape, the accesses at C's own subscripts
  /// to buffers of C's shape as read (D, a residual): made through their
  /// buffer reshaped as the tiles store C (the collapse_shape, created
  /// above the producer), at the tile store's subscripts, so that
  /// dependence analysis sees the same accesses as the tiles' (parallel
  /// over their column blocks).
  llvm::MapVector<Operation *, Value> tileShapedViews;
};

/// Whether `op` is a nest that stores each element of its result once, as
/// vectors, as its pass recorded (`stores_once`): a register-tiled
/// contraction whose tiles are stored after the whole reduction (not once
/// per k block), a Winograd output transform, a streamed matmul of few
/// rows, or a depthwise convolution's tiles.
static bool storesResultOnce(Operation *op) {
  return llvm::any_of(polyblocks::getDecisions(op), [](const auto &d) {
    auto once = d.fields ? d.fields.template getAs<BoolAttr>("stores_once")
                         : BoolAttr();
    return once && once.getValue();
  });
}

/// Whether `op` can be computed on vectors of lanes by giving its results
/// vector types: an elementwise arith or math op without regions.
static bool isVectorizable(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 || !isPure(op))
    return false;
  if (isa<arith::ConstantOp>(op))
    return true;
  if (!op->hasTrait<OpTrait::Elementwise>())
    return false;
  auto isScalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return llvm::all_of(op->getOperandTypes(), isScalar) &&
         isScalar(op->getResult(0).getType()) &&
         !op->getResult(0).getType().isIndex();
}

/// The buffers a producer's nest accesses, by the buffer underneath their
/// views. (Any other op of it with effects on memory counts as writing the
/// buffers it takes; prefetches, hints, as nothing.)
struct ProducerBuffers {
  /// Those it writes (C and its own packed panels).
  llvm::SmallPtrSet<Value, 4> written;
  /// Those it reads or writes.
  llvm::SmallPtrSet<Value, 8> touched;
};

static ProducerBuffers getProducerBuffers(AffineForOp producer) {
  ProducerBuffers buffers;
  producer.walk([&](Operation *op) {
    if (auto read = dyn_cast<AffineReadOpInterface>(op)) {
      buffers.touched.insert(getBaseBuffer(read.getMemRef()));
    } else if (auto write = dyn_cast<AffineWriteOpInterface>(op)) {
      buffers.written.insert(getBaseBuffer(write.getMemRef()));
      buffers.touched.insert(getBaseBuffer(write.getMemRef()));
    } else if (!isa<AffinePrefetchOp>(op) && !isPure(op)) {
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType())) {
          buffers.written.insert(getBaseBuffer(operand));
          buffers.touched.insert(getBaseBuffer(operand));
        }
    }
  });
  return buffers;
}

/// Whether `memref` can be collapsed to one dimension and addressed by its
/// linear subscript.
static bool isFlattenable(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return type.getRank() > 0 && type.getLayout().isIdentity() &&
         type.hasStaticShape();
}

/// Whether `read` is the buffer `result` the tiles store, or a reshape of
/// it (an expand_shape of it, or the buffer `result` collapses): the
/// dimensions of `read` that each dimension of `result` groups.
static std::optional<SmallVector<ReassociationIndices>>
getResultView(Value result, Value read) {
  auto readType = cast<MemRefType>(read.getType());
  if (read == result)
    return llvm::map_to_vector(
        llvm::seq<int64_t>(0, readType.getRank()),
        [](int64_t d) { return ReassociationIndices{d}; });
  if (!readType.hasStaticShape() || !readType.getLayout().isIdentity())
    return std::nullopt;
  if (auto expand = read.getDefiningOp<memref::ExpandShapeOp>();
      expand && expand.getSrc() == result)
    return expand.getReassociationIndices();
  if (auto collapse = result.getDefiningOp<memref::CollapseShapeOp>();
      collapse && collapse.getSrc() == read)
    return collapse.getReassociationIndices();
  return std::nullopt;
}

/// Matches `consumer` as an elementwise map of `result` that the tile
/// stores of a producer accessing `buffers` can compute.
static std::optional<Epilogue> matchEpilogue(const ProducerBuffers &buffers,
                                             Value result,
                                             AffineForOp consumer) {
  const llvm::SmallPtrSetImpl<Value> &written = buffers.written;
  Epilogue e;
  getPerfectlyNestedLoops(e.band, consumer);
  Block *body = e.band.back().getBody();
  if (polyblocks::containsLoop(body))
    return std::nullopt;
  // Every loop covers one dimension of C whole, with unit step.
  for (AffineForOp loop : e.band)
    if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
        loop.getStepAsInt() != 1 || loop.getNumResults() != 0)
      return std::nullopt;
  SmallVector<Value> ivs;
  for (AffineForOp loop : e.band)
    ivs.push_back(loop.getInductionVar());

  // The consumer's other operands must be none of the buffers the producer
  // writes, and none of them may be D, since the tiles' order is not the
  // consumer's.
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      if (auto groups = getResultView(result, load.getMemRef())) {
        if (e.resultLoad)
          return std::nullopt; // C read twice: not one element per iteration
        e.resultLoad = load;
        e.groups = std::move(*groups);
        continue;
      }
      if (written.contains(getBaseBuffer(load.getMemRef())))
        return std::nullopt;
      continue;
    }
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      if (e.store)
        return std::nullopt;
      e.store = store;
      continue;
    }
    if (!isVectorizable(&op))
      return std::nullopt;
  }
  if (!e.resultLoad || !e.store)
    return std::nullopt;
  auto resultType = cast<MemRefType>(e.resultLoad.getMemRef().getType());
  if (e.band.size() != static_cast<size_t>(resultType.getRank()))
    return std::nullopt;
  e.readShape = llvm::to_vector(resultType.getShape());
  // D is C itself at the element read (in place), or a buffer the
  // producer does not touch: the tiles store D while the producer still
  // runs, so D must not be one of its operands (the A of a matmul whose
  // result overwrites it: later tiles would read the rows already stored).
  Value output = e.store.getMemRef();
  if (output == e.resultLoad.getMemRef()) {
    if (e.store.getAffineMap() != e.resultLoad.getAffineMap() ||
        e.store.getMapOperands() != e.resultLoad.getMapOperands())
      return std::nullopt;
  } else if (Value outputBase = getBaseBuffer(output);
             buffers.touched.contains(outputBase) ||
             !polyblocks::isDistinctBuffer(outputBase) ||
             llvm::any_of(body->getOps<AffineLoadOp>(), [&](AffineLoadOp load) {
               return getBaseBuffer(load.getMemRef()) == outputBase;
             })) {
    return std::nullopt;
  }

  // C[iv_p(0), ..., iv_p(r-1)]: each subscript a distinct loop of the band,
  // covering the dimension whole.
  AffineMap map = e.resultLoad.getAffineMap();
  ValueRange operands = e.resultLoad.getMapOperands();
  e.ivOfDim.assign(map.getNumResults(), Value());
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    Value iv = operands[dim.getPosition()];
    auto it = llvm::find(ivs, iv);
    if (it == ivs.end() || llvm::is_contained(e.ivOfDim, iv))
      return std::nullopt;
    AffineForOp loop = e.band[it - ivs.begin()];
    if (loop.getConstantUpperBound() != resultType.getDimSize(d))
      return std::nullopt;
    e.ivOfDim[d] = iv;
  }

  // Along C's last dimension (the tile's lanes), every other access is
  // unit-stride (a vector) or does not move (a broadcast scalar); the
  // store is unit-stride.
  Value lanes = e.ivOfDim.back();
  for (Operation &op : body->without_terminator()) {
    if (&op == e.resultLoad.getOperation() || !isa<AffineLoadOp>(op))
      continue;
    polyblocks::AccessStride stride = polyblocks::getAccessStride(&op, lanes);
    // A vector of i1 is bits, a memref of i1 a byte per element (a mask):
    // such an operand cannot be read as a vector.
    Type element = cast<AffineLoadOp>(op).getType();
    if (stride != polyblocks::AccessStride::Invariant &&
        element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 != 0)
      return std::nullopt;
    if (stride == polyblocks::AccessStride::Contiguous)
      e.vectorLoads.insert(&op);
    if (stride != polyblocks::AccessStride::Strided)
      continue;
    if (polyblocks::getAddressStride(&op, lanes) !=
            polyblocks::AccessStride::Contiguous ||
        !isFlattenable(cast<AffineLoadOp>(op).getMemRef()))
      return std::nullopt;
    e.vectorLoads.insert(&op);
    e.flatViews[&op] = Value();
  }
  if (polyblocks::getAccessStride(e.store, lanes) !=
      polyblocks::AccessStride::Contiguous)
    return std::nullopt;
  if (llvm::any_of(e.groups, [](const ReassociationIndices &group) {
        return group.size() > 1;
      }))
    for (Operation &op : body->without_terminator()) {
      if (&op == e.resultLoad.getOperation() ||
          !isa<AffineLoadOp, AffineStoreOp>(op))
        continue;
      Value memref = MemRefAccess(&op).memref;
      if (!isFlattenable(memref))
        continue;
      auto type = cast<MemRefType>(memref.getType());
      auto [map, operands] = polyblocks::getAccessMap(&op);
      if (type.getShape() == ArrayRef(e.readShape) &&
          map == e.resultLoad.getAffineMap() &&
          operands == e.resultLoad.getMapOperands())
        e.tileShapedViews.insert({&op, Value()});
      else
        e.flatViews.insert({&op, Value()});
    }
  // The loops' induction variables only subscript loads and stores.
  for (Operation &op : body->without_terminator())
    if (!isa<AffineLoadOp, AffineStoreOp>(op) &&
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return llvm::is_contained(ivs, v); }))
      return std::nullopt;
  return e;
}

/// The map of an affine load or store `access` (of an identity-layout
/// buffer) as one linear subscript: each subscript times its dimension's
/// stride, summed.
static AffineMap getLinearMap(Operation *access) {
  AffineMap map = polyblocks::getAccessMap(access).first;
  auto type = cast<MemRefType>(MemRefAccess(access).memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  AffineExpr linear = getAffineConstantExpr(0, access->getContext());
  for (auto [expr, stride] : llvm::zip(map.getResults(), strides))
    linear = linear + expr * stride;
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), linear);
}

/// The map and operands of a consumer's access at a tile store: its
/// induction variables replaced by the store's subscripts (`scalars`), the
/// affine.apply ops composed into the map, so that dependence analysis
/// sees the subscripts as functions of the tile's loops.
static std::pair<AffineMap, SmallVector<Value>>
composeAt(AffineMap map, ValueRange operands, const IRMapping &scalars) {
  SmallVector<Value> mapped;
  for (Value v : operands)
    mapped.push_back(scalars.lookupOrDefault(v));
  fullyComposeAffineMapAndOperands(&map, &mapped);
  canonicalizeMapAndOperands(&map, &mapped);
  return {map, mapped};
}

/// Whether the lanes of `tileStore` stay within one row of C's last
/// dimension as the consumer reads it (`lastSize` elements, split off the
/// tiles' last dimension by a reshape): the row a multiple of the lanes,
/// and the store's last subscript too, as its loops' bounds and steps show.
static bool storesWithinRows(AffineVectorStoreOp tileStore, int64_t lastSize) {
  int64_t lanes = tileStore.getVectorType().getNumElements();
  if (lastSize % lanes != 0)
    return false;
  AffineMap map = tileStore.getAffineMap();
  SmallVector<Value> operands(tileStore.getMapOperands());
  map = map.getSubMap({map.getNumResults() - 1});
  fullyComposeAffineMapAndOperands(&map, &operands);
  // Each loop's induction variable as `lower + step * k`; anything else
  // unknown (a multiple of 1).
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < map.getNumDims(); ++i) {
    AffineExpr dim = getAffineDimExpr(i, map.getContext());
    AffineForOp loop = getForInductionVarOwner(operands[i]);
    if (loop && loop.hasConstantLowerBound())
      dim = loop.getConstantLowerBound() + dim * loop.getStepAsInt();
    dims.push_back(dim);
  }
  AffineExpr last = simplifyAffineExpr(map.getResult(0).replaceDims(dims),
                                       map.getNumDims(), map.getNumSymbols());
  return last.getLargestKnownDivisor() % lanes == 0;
}

/// At the tile store `tileStore` (a vector of C), computes the consumer's
/// body on the stored vector and stores its vector of D.
static void emitEpilogue(Epilogue &e, AffineVectorStoreOp tileStore) {
  OpBuilder b(tileStore);
  Location loc = tileStore.getLoc();
  auto vectorType = cast<VectorType>(tileStore.getValueToStore().getType());
  int64_t lanes = vectorType.getNumElements();
  AffineMap map = tileStore.getAffineMap();
  ValueRange operands = tileStore.getMapOperands();

  // The consumer's induction variables: the tile store's subscripts, each
  // split into the dimensions it groups (x = ((x0 * n1) + x1) * n2 + x2:
  // x0 = x floordiv (n1 * n2), x1 = (x floordiv n2) mod n1, x2 = x mod n2).
  IRMapping scalars;
  for (auto [group, subscript] : llvm::zip(e.groups, map.getResults())) {
    int64_t inner = 1;
    for (int64_t d : llvm::reverse(group)) {
      AffineExpr expr = subscript.floorDiv(inner);
      if (d != group.front())
        expr = expr % e.readShape[d];
      inner *= e.readShape[d];
      auto dimMap = AffineMap::get(map.getNumDims(), map.getNumSymbols(), expr);
      scalars.map(e.ivOfDim[d],
                  AffineApplyOp::create(b, loc, dimMap, operands));
    }
  }
  IRMapping vectors;
  auto widen = [&](Type t) { return VectorType::get({lanes}, t); };
  auto vectorOf = [&](Value v) -> Value {
    if (Value mapped = vectors.lookupOrNull(v))
      return mapped;
    // Defined above the consumer: the same for every lane.
    return vector::BroadcastOp::create(b, loc, widen(v.getType()), v);
  };
  Block *body = e.band.back().getBody();
  for (Operation &op : body->without_terminator()) {
    if (&op == e.resultLoad.getOperation()) {
      vectors.map(e.resultLoad.getResult(), tileStore.getValueToStore());
      continue;
    }
    if (isa<AffineLoadOp, AffineStoreOp>(op)) {
      Value memref = MemRefAccess(&op).memref;
      auto [map, operands] = polyblocks::getAccessMap(&op);
      if (Value flat = e.flatViews.lookup(&op)) {
        memref = flat;
        map = getLinearMap(&op);
      }
      if (Value tileShaped = e.tileShapedViews.lookup(&op)) {
        // At the tile store's own subscripts.
        memref = tileShaped;
        map = tileStore.getAffineMap();
        operands = tileStore.getMapOperands();
      }
      if (auto store = dyn_cast<AffineStoreOp>(op)) {
        auto [storeMap, mapOperands] = composeAt(map, operands, scalars);
        AffineVectorStoreOp::create(b, loc, vectorOf(store.getValueToStore()),
                                    memref, storeMap, mapOperands);
        continue;
      }
      auto load = cast<AffineLoadOp>(op);
      auto [loadMap, mapOperands] = composeAt(map, operands, scalars);
      Type element = load.getType();
      if (e.vectorLoads.contains(load)) {
        vectors.map(load.getResult(),
                    AffineVectorLoadOp::create(b, loc, widen(element), memref,
                                               loadMap, mapOperands));
      } else {
        Value scalar =
            AffineLoadOp::create(b, loc, memref, loadMap, mapOperands);
        vectors.map(load.getResult(), vector::BroadcastOp::create(
                                          b, loc, widen(element), scalar));
      }
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      Value scalar = b.clone(op)->getResult(0);
      vectors.map(
          constant.getResult(),
          vector::BroadcastOp::create(b, loc, widen(scalar.getType()), scalar));
      continue;
    }
    OperationState state(op.getLoc(), op.getName());
    for (Value v : op.getOperands())
      state.addOperands(vectorOf(v));
    state.addTypes(widen(op.getResult(0).getType()));
    state.addAttributes(op.getAttrs());
    vectors.map(op.getResult(0), b.create(state)->getResult(0));
  }
  // The subscripts are composed into the accesses' maps.
  for (Value iv : e.ivOfDim)
    if (Operation *apply = scalars.lookup(iv).getDefiningOp();
        apply && apply->use_empty())
      apply->erase();
}

/// Whether C is used after `producer` by anything but `consumer` and its
/// deallocation, through any reshape of it: its tile stores must then stay.
/// (Uses before the producer, its fill, do not see them.)
static bool isUsedElsewhere(Value result, AffineForOp producer,
                            AffineForOp consumer) {
  auto isReshape = [](Operation *op) {
    return isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
  };
  Value buffer = result;
  while (isReshape(buffer.getDefiningOp()))
    buffer = buffer.getDefiningOp()->getOperand(0);
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return true;
  Block *block = producer->getBlock();
  std::function<bool(Value)> usedElsewhere = [&](Value view) {
    return llvm::any_of(view.getUsers(), [&](Operation *user) {
      if (isReshape(user))
        return usedElsewhere(user->getResult(0));
      if (isa<memref::DeallocOp>(user) || producer->isAncestor(user) ||
          consumer->isAncestor(user))
        return false;
      Operation *top = block->findAncestorOpInBlock(*user);
      return !top || !top->isBeforeInBlock(producer) ||
             !isa<AffineReadOpInterface, AffineWriteOpInterface>(user);
    });
  };
  return usedElsewhere(buffer);
}

/// Whether `nest` commutes with a producer accessing `buffers`, so that it
/// can run before it: its accesses are affine loads and stores, it writes
/// none of the buffers the producer touches and reads none it writes (both
/// may read the same operand: the activations that a block's two
/// convolutions or a layer's query and key projections share), and its
/// other effects on memory are on buffers of its own (a matmul's panels,
/// allocated and freed inside it) or prefetches (hints, which change
/// nothing).
static bool isIndependentNest(AffineForOp nest,
                              const ProducerBuffers &buffers) {
  auto isOwn = [&](Value memref) {
    Operation *def = memref.getDefiningOp();
    return def && nest->isAncestor(def);
  };
  WalkResult walk = nest.walk([&](Operation *op) {
    bool conflict = false;
    if (auto read = dyn_cast<AffineReadOpInterface>(op))
      conflict = buffers.written.contains(getBaseBuffer(read.getMemRef()));
    else if (auto write = dyn_cast<AffineWriteOpInterface>(op))
      conflict = buffers.touched.contains(getBaseBuffer(write.getMemRef()));
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      conflict = !isOwn(dealloc.getMemref());
    else if (!isa<AffineForOp, AffineIfOp, AffineYieldOp, AffinePrefetchOp,
                  memref::AllocOp, memref::AllocaOp>(op))
      conflict = !isPure(op);
    return conflict ? WalkResult::interrupt() : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

struct FuseEpiloguesPass
    : public polyblocks::impl::PBFuseEpiloguesBase<FuseEpiloguesPass> {
  void runOnOperation() override {
    // The consumers erased are outermost loops too: not visited after.
    llvm::SmallPtrSet<Operation *, 8> erased;
    for (AffineForOp producer : polyblocks::getOutermostLoops(getOperation()))
      if (!erased.contains(producer) && storesResultOnce(producer))
        if (AffineForOp consumer = fuseInto(producer)) {
          erased.insert(consumer);
          consumer.erase();
        }
  }

  /// Computes the nest after `producer` on its tiles when it can; returns
  /// that nest, for the caller to erase, or null.
  AffineForOp fuseInto(AffineForOp producer) {
    // The tile stores: every vector store of the nest to one buffer, C.
    SmallVector<AffineVectorStoreOp> tileStores;
    producer.walk([&](AffineVectorStoreOp s) { tileStores.push_back(s); });
    if (tileStores.empty())
      return {};
    Value result = tileStores.back().getMemRef();
    llvm::erase_if(tileStores, [&](AffineVectorStoreOp s) {
      return s.getMemRef() != result;
    });
    if (cast<MemRefType>(result.getType()).getRank() == 0)
      return {};
    bool scalarWrites = false;
    producer.walk(
        [&](AffineStoreOp s) { scalarWrites |= s.getMemRef() == result; });
    if (scalarWrites)
      return {};

    // The consumer: the first nest after the producer that does not commute
    // with it. Allocations, views, pure ops and the nests between them that
    // commute with the producer (the border fills of the padded buffer the
    // consumer writes into; another matmul of the producer's operand) move
    // above the producer, in order (the consumer still runs after them);
    // deallocations (of the producer's packed panels) stay where they are:
    // the consumer, which runs before them, cannot use what they free.
    ProducerBuffers buffers = getProducerBuffers(producer);
    SmallVector<Operation *> between;
    AffineForOp consumer;
    for (Operation *op = producer->getNextNode(); op; op = op->getNextNode()) {
      if (auto loop = dyn_cast<AffineForOp>(op)) {
        if (isIndependentNest(loop, buffers)) {
          between.push_back(op);
          continue;
        }
        consumer = loop;
        break;
      }
      if (isa<memref::DeallocOp>(op))
        continue;
      if (!isa<memref::AllocOp>(op) &&
          !(isPure(op) && op->getNumRegions() == 0))
        return {};
      between.push_back(op);
    }
    if (!consumer)
      return {};
    std::optional<Epilogue> e = matchEpilogue(buffers, result, consumer);
    if (!e) {
      LLVM_DEBUG(llvm::dbgs() << "no epilogue: " << consumer << "\n");
      return {};
    }
    // What the consumer uses from above it is there at the producer's tile
    // stores (or moves above it).
    Block *block = producer->getBlock();
    bool available = true;
    consumer.walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && def->getBlock() == block && !consumer->isAncestor(def) &&
            !def->isBeforeInBlock(producer) &&
            !llvm::is_contained(between, def))
          available = false;
      }
    });
    if (!available)
      return {};
    // A reshape that splits the tiles' rows: each vector must lie in one.
    if (e->groups.back().size() > 1 &&
        !llvm::all_of(tileStores, [&](AffineVectorStoreOp tileStore) {
          return storesWithinRows(tileStore, e->readShape.back());
        }))
      return {};
    for (Operation *op : between)
      op->moveBefore(producer);
    OpBuilder before(producer);
    for (auto &[op, flat] : e->flatViews) {
      Value memref = MemRefAccess(op).memref;
      ReassociationIndices all = llvm::to_vector(
          llvm::seq<int64_t>(0, cast<MemRefType>(memref.getType()).getRank()));
      flat = memref::CollapseShapeOp::create(
          before, op->getLoc(), memref, ArrayRef<ReassociationIndices>{all});
    }
    for (auto &[op, tileShaped] : e->tileShapedViews)
      tileShaped = memref::CollapseShapeOp::create(
          before, op->getLoc(), MemRefAccess(op).memref, e->groups);
    // In place, the epilogue's store replaces the tile store.
    bool inPlace = e->store.getMemRef() == e->resultLoad.getMemRef();
    bool keepResult = !inPlace && isUsedElsewhere(result, producer, consumer);
    for (AffineVectorStoreOp tileStore : tileStores) {
      emitEpilogue(*e, tileStore);
      if (!keepResult)
        tileStore.erase();
    }
    polyblocks::recordDecision(
        producer, "pb-fuse-epilogues",
        keepResult ? "the elementwise nest after it computed on the register "
                     "tiles as they are stored (its result stored too: "
                     "read elsewhere)"
                   : "the elementwise nest after it computed on the register "
                     "tiles as they are stored, in place of its result",
        {{"result_stored", BoolAttr::get(producer.getContext(), keepResult)}});
    return consumer;
  }
};

} // namespace
