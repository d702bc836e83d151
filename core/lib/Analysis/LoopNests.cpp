//===- LoopNests.cpp - Finding the affine loop nests S3 works on ----------===//

#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::affine;

namespace polyblocks {

SmallVector<AffineForOp> getOutermostLoops(func::FuncOp func) {
  SmallVector<AffineForOp> loops;
  func.walk<WalkOrder::PreOrder>([&](AffineForOp loop) {
    loops.push_back(loop);
    return WalkResult::skip(); // loops inside it are not outermost
  });
  return loops;
}

SmallVector<AffineForOp> getSequentialRootLoops(func::FuncOp func) {
  SmallVector<AffineForOp> loops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      loops.push_back(loop);
      return WalkResult::skip();
    }
    // Into sequential loops only: not into loops already on the threads,
    // nor into the work a run-time check guards (scf.if).
    if (op == func || isa<scf::ForOp, scf::WhileOp>(op))
      return WalkResult::advance();
    return op->getNumRegions() ? WalkResult::skip() : WalkResult::advance();
  });
  return loops;
}

SmallVector<AffineForOp> getTopLevelLoops(func::FuncOp func) {
  return llvm::to_vector(func.getBody().getOps<AffineForOp>());
}

bool containsLoop(Block *block) {
  return block->walk([](AffineForOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::optional<int64_t> getZeroBasedTripCount(AffineForOp loop) {
  if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
      loop.getStepAsInt() != 1)
    return std::nullopt;
  return loop.getConstantUpperBound();
}

int64_t getLargestDivisorAtMost(int64_t n, int64_t limit) {
  int64_t divisor = std::max<int64_t>(1, std::min(limit, n));
  while (n % divisor != 0)
    --divisor;
  return divisor;
}

/// The buffer `access` (an affine read or write) accesses.
static Value getAccessedMemRef(Operation *access) {
  if (auto read = dyn_cast<AffineReadOpInterface>(access))
    return read.getMemRef();
  return cast<AffineWriteOpInterface>(access).getMemRef();
}

/// True if `expr` of one dimension never decreases as that dimension grows.
static bool isNonDecreasing(AffineExpr expr) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return true; // a dimension or a constant
  auto rhs = dyn_cast<AffineConstantExpr>(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return isNonDecreasing(binary.getLHS()) && isNonDecreasing(binary.getRHS());
  case AffineExprKind::Mul:
    return rhs && rhs.getValue() >= 0 && isNonDecreasing(binary.getLHS());
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return rhs && rhs.getValue() > 0 && isNonDecreasing(binary.getLHS());
  default:
    return false;
  }
}

/// True if `inner`, nested in `loop`, runs from f(iv) to f(iv + step) for
/// a non-decreasing f of `loop`'s induction variable `iv`: a block of
/// iterations each, the blocks of two iterations of `loop` disjoint (the
/// rows of a thread's block of row tiles).
static bool isPartitionedBy(AffineForOp inner, AffineForOp loop) {
  AffineMap lower = inner.getLowerBoundMap();
  AffineMap upper = inner.getUpperBoundMap();
  Value iv = loop.getInductionVar();
  if (lower.getNumResults() != 1 || upper.getNumResults() != 1 ||
      lower.getNumInputs() != 1 || upper.getNumInputs() != 1 ||
      lower.getNumDims() != 1 || upper.getNumDims() != 1 ||
      inner.getLowerBoundOperands().front() != iv ||
      inner.getUpperBoundOperands().front() != iv ||
      !isNonDecreasing(lower.getResult(0)))
    return false;
  MLIRContext *context = loop.getContext();
  AffineExpr next = lower.getResult(0).replaceDims(
      getAffineDimExpr(0, context) + loop.getStepAsInt());
  return simplifyAffineExpr(next, 1, 0) ==
         simplifyAffineExpr(upper.getResult(0), 1, 0);
}

std::pair<AffineMap, ValueRange> getAccessMap(Operation *access) {
  if (auto read = dyn_cast<AffineReadOpInterface>(access))
    return {read.getAffineMap(), read.getMapOperands()};
  auto write = cast<AffineWriteOpInterface>(access);
  return {write.getAffineMap(), write.getMapOperands()};
}

/// Subscript `dim` of `access` as coefficients of its map's operands and a
/// constant (last); nullopt if it is not linear in them (semi-affine, mod,
/// floordiv).
static std::optional<SmallVector<int64_t, 8>>
getLinearSubscript(Operation *access, unsigned dim) {
  auto [map, operands] = getAccessMap(access);
  SmallVector<int64_t, 8> flat;
  if (failed(getFlattenedAffineExpr(map.getResult(dim), map.getNumDims(),
                                    map.getNumSymbols(), &flat)) ||
      flat.size() != operands.size() + 1)
    return std::nullopt; // local variables for mod / floordiv
  return flat;
}

/// The vector type `access` reads or writes, null for a scalar access.
static VectorType getAccessVectorType(Operation *access) {
  if (auto load = dyn_cast<AffineVectorLoadOp>(access))
    return load.getVectorType();
  if (auto store = dyn_cast<AffineVectorStoreOp>(access))
    return store.getVectorType();
  return {};
}

/// True if upstream's dependence test, which takes every access for one
/// element, is exact for `accesses` (all to one buffer): all are scalar, or
/// all are vectors of one shape whose subscripts in the vector's dimensions
/// are multiples of its sizes wherever the loops take them (two such
/// vectors overlap only where they start at the same element).
static bool isElementwiseTestExact(ArrayRef<Operation *> accesses) {
  VectorType vector = getAccessVectorType(accesses.front());
  if (llvm::all_of(accesses,
                   [](Operation *op) { return !getAccessVectorType(op); }))
    return true;
  if (!vector || llvm::any_of(accesses, [&](Operation *op) {
        VectorType other = getAccessVectorType(op);
        return !other || other.getShape() != vector.getShape();
      }))
    return false;
  for (Operation *access : accesses) {
    auto [map, operands] = getAccessMap(access);
    unsigned rank = map.getNumResults();
    for (auto [i, size] : llvm::enumerate(vector.getShape())) {
      std::optional<SmallVector<int64_t, 8>> flat =
          getLinearSubscript(access, rank - vector.getRank() + i);
      if (!flat || flat->back() % size != 0)
        return false;
      for (auto [operand, coefficient] : llvm::zip(operands, *flat)) {
        if (coefficient % size == 0)
          continue;
        AffineForOp loop = getForInductionVarOwner(operand);
        if (!loop || !loop.hasConstantLowerBound() ||
            (coefficient * loop.getConstantLowerBound()) % size != 0 ||
            (coefficient * loop.getStepAsInt()) % size != 0)
          return false;
      }
    }
  }
  return true;
}

/// How many elements past its subscript `access` reaches in dimension `dim`
/// of a buffer of rank `rank`: a vector access covers its vector's shape in
/// the trailing dimensions.
static int64_t getVectorExtent(Operation *access, unsigned dim, unsigned rank) {
  VectorType vector = getAccessVectorType(access);
  if (!vector || dim + vector.getRank() < rank)
    return 0;
  return vector.getDimSize(dim + vector.getRank() - rank) - 1;
}

/// One subscript of an access in `loop`, split as
/// `scale * owner + offset + sum(coefficient * outer value)`. The owner
/// takes values that differ by at least `ownerStep` between two iterations
/// of `loop`: its induction variable (by its step), or that of a loop
/// inside partitioned by it (isPartitionedBy; by 1). `offset` ranges over
/// [minOffset, maxOffset] as the other loops inside `loop` run (their induction
/// variables with constant bounds); the outer values are defined outside `loop`
/// and keep their values across its iterations.
struct SplitSubscript {
  Value owner;
  int64_t ownerStep = 0;
  int64_t scale = 0;
  int64_t minOffset = 0, maxOffset = 0;
  SmallVector<std::pair<Value, int64_t>> outer;
};

/// Splits subscript `dim` of `access` in `loop`; nullopt if it is not of
/// that form (mod, floordiv, values computed inside the loop, loops inside
/// with bounds that are not constant).
static std::optional<SplitSubscript>
splitSubscript(AffineForOp loop, Operation *access, unsigned dim) {
  std::optional<SmallVector<int64_t, 8>> flat = getLinearSubscript(access, dim);
  if (!flat)
    return std::nullopt;
  ValueRange operands = getAccessMap(access).second;
  SplitSubscript split;
  split.minOffset = split.maxOffset = flat->back();
  for (auto [operand, coefficient] : llvm::zip(operands, *flat)) {
    if (coefficient == 0)
      continue;
    AffineForOp owner = operand == loop.getInductionVar()
                            ? loop
                            : getForInductionVarOwner(operand);
    if (owner && (owner == loop || isPartitionedBy(owner, loop))) {
      if (split.owner && split.owner != operand)
        return std::nullopt;
      split.owner = operand;
      // Two iterations of `loop` give its induction variable values a step
      // apart; a partitioned loop's values in two blocks can be adjacent.
      split.ownerStep = owner == loop ? loop.getStepAsInt() : 1;
      split.scale += coefficient;
      continue;
    }
    if (!loop->isAncestor(operand.getParentRegion()->getParentOp())) {
      split.outer.push_back({operand, coefficient});
      continue;
    }
    AffineForOp inner = getForInductionVarOwner(operand);
    if (!inner || !inner.hasConstantBounds() ||
        inner.getConstantUpperBound() <= inner.getConstantLowerBound())
      return std::nullopt;
    int64_t first = inner.getConstantLowerBound();
    int64_t last = inner.getConstantUpperBound() - 1;
    split.minOffset += coefficient * (coefficient > 0 ? first : last);
    split.maxOffset += coefficient * (coefficient > 0 ? last : first);
  }
  llvm::sort(split.outer, [](auto &a, auto &b) {
    return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
  });
  return split;
}

/// True if, in some dimension, every access of `accesses` (all to one
/// buffer) has a subscript `scale * owner + offset + outer` with the same
/// owner, scale and outer part, and offsets spanning less than one step of
/// the owner: then two iterations never touch one element.
/// The cheap, common case of isParallelLoop's question (each iteration
/// owns a row or a tile of rows), answered without Presburger sets.
static bool accessesSeparateIterations(AffineForOp loop,
                                       ArrayRef<Operation *> accesses) {
  auto type = cast<MemRefType>(getAccessedMemRef(accesses.front()).getType());
  for (unsigned dim = 0, rank = type.getRank(); dim < rank; ++dim) {
    std::optional<SplitSubscript> common;
    int64_t minOffset = 0, maxOffset = 0;
    bool separates = true;
    for (Operation *access : accesses) {
      std::optional<SplitSubscript> split = splitSubscript(loop, access, dim);
      if (!split || split->scale == 0 ||
          (common &&
           (split->owner != common->owner || split->scale != common->scale ||
            split->outer != common->outer))) {
        separates = false;
        break;
      }
      if (!common) {
        common = split;
        minOffset = split->minOffset;
        maxOffset = split->maxOffset;
      }
      minOffset = std::min(minOffset, split->minOffset);
      maxOffset = std::max(maxOffset, split->maxOffset +
                                          getVectorExtent(access, dim, rank));
    }
    if (separates &&
        maxOffset - minOffset < std::abs(common->scale) * common->ownerStep)
      return true;
  }
  return false;
}

bool isParallelLoop(AffineForOp loop) {
  if (loop.getNumIterOperands() != 0)
    return false;
  DenseSet<Value> local;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op))
      local.insert(op->getResult(0));
  });
  // The accesses to buffers from outside the body, by buffer, and whether
  // the body writes each.
  llvm::MapVector<Value, SmallVector<Operation *>> accesses;
  DenseSet<Value> written;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (isa<AffineReadOpInterface, AffineWriteOpInterface>(op)) {
      Value memref = getAccessedMemRef(op);
      if (!local.contains(memref)) {
        accesses[memref].push_back(op);
        if (isa<AffineWriteOpInterface>(op))
          written.insert(memref);
      }
      return WalkResult::advance();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      return local.contains(dealloc.getMemref()) ? WalkResult::advance()
                                                 : WalkResult::interrupt();
    // A prefetch orders nothing: it reads no value and writes none.
    if (isa<AffineForOp, AffineIfOp, AffineYieldOp, AffinePrefetchOp>(op) ||
        isMemoryEffectFree(op) || hasSingleEffect<MemoryEffects::Allocate>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return false;
  unsigned depth = getNestingDepth(loop) + 1;
  for (auto &[memref, ops] : accesses) {
    // Reads alone depend on nothing.
    if (!written.contains(memref) || accessesSeparateIterations(loop, ops))
      continue;
    if (!isElementwiseTestExact(ops))
      return false;
    SmallVector<MemRefAccess> relations = llvm::map_to_vector(
        ops, [](Operation *op) { return MemRefAccess(op); });
    for (const MemRefAccess &src : relations)
      for (const MemRefAccess &dst : relations)
        if (checkMemrefAccessDependence(src, dst, depth).value !=
            DependenceResult::NoDependence)
          return false;
  }
  return true;
}

SmallVector<AffineForOp> getFullBand(AffineForOp root,
                                     ArrayRef<int64_t> shape) {
  SmallVector<AffineForOp> band;
  getPerfectlyNestedLoops(band, root);
  if (band.size() != shape.size())
    return {};
  SmallVector<int64_t> trips;
  for (AffineForOp loop : band) {
    if (!loop.hasConstantLowerBound() || loop.getConstantLowerBound() != 0 ||
        !loop.hasConstantUpperBound() || loop.getStepAsInt() != 1)
      return {};
    trips.push_back(loop.getConstantUpperBound());
  }
  // Each dimension must be walked by one loop of the same size;
  // indexesOneToOne on an access pins which loop indexes which dimension.
  SmallVector<int64_t> sortedTrips(trips), sortedShape(shape);
  llvm::sort(sortedTrips);
  llvm::sort(sortedShape);
  if (sortedTrips != sortedShape)
    return {};
  return band;
}

Value getBaseBuffer(Value memref) {
  return memref::skipViewLikeOps(cast<MemrefValue>(memref));
}

bool touchesBuffer(Operation *op, Value base) {
  return op
      ->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              getBaseBuffer(operand) == base)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool indexesOneToOne(AffineMap map, ValueRange operands,
                     ArrayRef<AffineForOp> band, ArrayRef<int64_t> shape) {
  if (map.getNumResults() != shape.size())
    return false;
  llvm::SmallPtrSet<Operation *, 4> used;
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    Value iv = operands[dim.getPosition()];
    AffineForOp loop = getForInductionVarOwner(iv);
    if (!loop || !llvm::is_contained(band, loop) ||
        loop.getConstantUpperBound() != shape[d] ||
        !used.insert(loop.getOperation()).second)
      return false;
  }
  return true;
}

std::optional<BufferFill> matchBufferFill(AffineForOp root) {
  SmallVector<AffineForOp> band;
  getPerfectlyNestedLoops(band, root);
  Block *body = band.back().getBody();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  auto store = dyn_cast<AffineStoreOp>(body->front());
  if (!store)
    return std::nullopt;
  Value buffer = store.getMemRef();
  Value value = store.getValue();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      root->isAncestor(value.getParentBlock()->getParentOp()))
    return std::nullopt;
  SmallVector<AffineForOp> fullBand = getFullBand(root, type.getShape());
  if (fullBand.empty() ||
      !indexesOneToOne(store.getAffineMap(), store.getMapOperands(), fullBand,
                       type.getShape()))
    return std::nullopt;
  return BufferFill{store, buffer, value};
}

std::optional<std::pair<AffineForOp, BufferFill>>
findAccumulatorFill(Operation *root, AffineLoadOp accLoad,
                    AffineStoreOp accStore, ArrayRef<AffineForOp> band,
                    ValueRange reads) {
  Value buffer = accStore.getMemRef();
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || accLoad.getMemRef() != buffer ||
      accLoad.getAffineMap() != accStore.getAffineMap() ||
      !llvm::equal(accLoad.getMapOperands(), accStore.getMapOperands()) ||
      !indexesOneToOne(accStore.getAffineMap(), accStore.getMapOperands(), band,
                       type.getShape()))
    return std::nullopt;
  Value base = getBaseBuffer(buffer);
  if (llvm::any_of(reads,
                   [&](Value read) { return getBaseBuffer(read) == base; }))
    return std::nullopt;
  for (Operation *op = root->getPrevNode(); op; op = op->getPrevNode()) {
    if (!touchesBuffer(op, base))
      continue;
    auto fillRoot = dyn_cast<AffineForOp>(op);
    if (!fillRoot)
      return std::nullopt;
    std::optional<BufferFill> fill = matchBufferFill(fillRoot);
    if (!fill || fill->buffer != buffer)
      return std::nullopt;
    return std::make_pair(fillRoot, *fill);
  }
  return std::nullopt;
}

} // namespace polyblocks
