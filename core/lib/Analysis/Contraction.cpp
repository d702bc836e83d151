//===- Contraction.cpp - Matching matmul-like loop nests ------------------===//

#include "polyblocks/Analysis/Contraction.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::affine;

namespace polyblocks {

static bool isZeroBasedUnitStep(AffineForOp loop) {
  return getZeroBasedTripCount(loop).has_value();
}

/// True if `load` reads exactly what `store` writes.
static bool sameAccess(AffineLoadOp load, AffineStoreOp store) {
  return load.getMemRef() == store.getMemRef() &&
         load.getAffineMap() == store.getAffineMap() &&
         llvm::equal(load.getMapOperands(), store.getMapOperands());
}

std::optional<MultiplyAccumulateNest>
matchMultiplyAccumulateNest(AffineForOp root, unsigned minLoops) {
  MultiplyAccumulateNest nest;
  getPerfectlyNestedLoops(nest.band, root);
  if (nest.band.size() < minLoops ||
      !llvm::all_of(nest.band, isZeroBasedUnitStep))
    return std::nullopt;
  Block *body = nest.band.back().getBody();
  // Three loads, a multiply, an add, a store and the terminator.
  if (body->getOperations().size() != 7)
    return std::nullopt;
  auto store = dyn_cast<AffineStoreOp>(*std::prev(body->end(), 2));
  if (!store)
    return std::nullopt;
  auto add = store.getValue().getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  nest.elementType = add.getType();
  if (!nest.elementType.isF32() && !nest.elementType.isF64())
    return std::nullopt;
  arith::MulFOp mul;
  for (Value operand : add->getOperands()) {
    if (auto load = operand.getDefiningOp<AffineLoadOp>();
        load && sameAccess(load, store))
      nest.accLoad = load;
    else
      mul = operand.getDefiningOp<arith::MulFOp>();
  }
  if (!nest.accLoad || !mul)
    return std::nullopt;
  nest.accStore = store;
  nest.lhs = mul.getLhs().getDefiningOp<AffineLoadOp>();
  nest.rhs = mul.getRhs().getDefiningOp<AffineLoadOp>();
  // The factors must not be read from the buffer being written.
  if (!nest.lhs || !nest.rhs || nest.lhs.getMemRef() == store.getMemRef() ||
      nest.rhs.getMemRef() == store.getMemRef())
    return std::nullopt;
  return nest;
}

bool movesAccumulator(const MultiplyAccumulateNest &nest, AffineForOp loop) {
  Value iv = loop.getInductionVar();
  AffineStoreOp store = nest.accStore;
  if (loop.getConstantUpperBound() == 1)
    return llvm::is_contained(store.getMapOperands(), iv);
  return getAccessStride(store, iv) != AccessStride::Invariant;
}

std::optional<unsigned> countParallelLoops(const MultiplyAccumulateNest &nest) {
  ArrayRef<AffineForOp> band = nest.band;
  unsigned numParallel = 0;
  while (numParallel + 1 < band.size() &&
         movesAccumulator(nest, band[numParallel]))
    ++numParallel;
  if (numParallel == 0 || numParallel + 1 == band.size())
    return std::nullopt;
  for (unsigned d = numParallel; d + 1 < band.size(); ++d)
    if (movesAccumulator(nest, band[d]))
      return std::nullopt;
  return numParallel;
}

std::optional<Contraction> matchContraction(AffineForOp root) {
  std::optional<MultiplyAccumulateNest> nest =
      matchMultiplyAccumulateNest(root, /*minLoops=*/3);
  if (!nest)
    return std::nullopt;
  ArrayRef<AffineForOp> band = nest->band;
  AffineStoreOp store = nest->accStore;
  AffineLoadOp lhs = nest->lhs, rhs = nest->rhs;

  // The loops C moves with come first (parallel), then those it does not
  // move with (reductions), then j.
  AffineForOp jLoop = band.back();
  Value j = jLoop.getInductionVar();
  if (getAccessStride(store, j) != AccessStride::Contiguous)
    return std::nullopt;
  std::optional<unsigned> parallel = countParallelLoops(*nest);
  if (!parallel)
    return std::nullopt;
  unsigned numParallel = *parallel;
  AffineForOp iLoop = band[numParallel - 1];
  Value i = iLoop.getInductionVar();
  ArrayRef<AffineForOp> outer = band.take_front(numParallel - 1);
  auto isRow = [&](AffineLoadOp load) {
    return getAccessStride(load, j) == AccessStride::Invariant &&
           getAccessStride(load, i) != AccessStride::Invariant;
  };
  // The panels are packed outside every parallel loop but the leading ones
  // they move with (a batch, each with panels of its own).
  unsigned numBatchLoops = 0;
  auto isPanel = [&](AffineLoadOp load) {
    if (getAccessStride(load, j) != AccessStride::Contiguous ||
        getAccessStride(load, i) != AccessStride::Invariant)
      return false;
    auto moves = [&](AffineForOp loop) {
      return getAccessStride(load, loop.getInductionVar()) !=
             AccessStride::Invariant;
    };
    numBatchLoops = llvm::find_if_not(outer, moves) - outer.begin();
    return llvm::none_of(outer.drop_front(numBatchLoops), moves);
  };
  Contraction c{
      llvm::to_vector(outer),
      iLoop,
      llvm::to_vector(band.slice(numParallel, band.size() - numParallel - 1)),
      jLoop,
      nest->accLoad,
      store,
      {},
      {},
      nest->elementType};
  if (isRow(lhs) && isPanel(rhs)) {
    c.rowLoad = lhs;
    c.panelLoad = rhs;
  } else if (isRow(rhs) && isPanel(lhs)) {
    c.rowLoad = rhs;
    c.panelLoad = lhs;
  } else {
    return std::nullopt;
  }
  c.numPanelBatchLoops = numBatchLoops;
  return c;
}

} // namespace polyblocks
