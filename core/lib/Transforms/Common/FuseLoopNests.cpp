//===- FuseLoopNests.cpp - Fuse sibling and producer-consumer nests -------===//
//
// Fuses consecutive top-level loop nests that walk the same outer parallel
// loop into one nest, when every element one of them writes and the other
// touches is touched by both in the same outer iteration. The fused loop is
// still parallel, and the data passed from one nest to the next (a row of a
// softmax, its max and sum) stays in cache instead of making a round trip
// through memory.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/IR/Decisions.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-fuse-loop-nests"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSELOOPNESTS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

using polyblocks::BufferAccesses;

/// True if `first` and `second` can run as one loop: for every buffer that
/// one writes and the other touches, some subscript is `iv + c` in every
/// access of both nests, with the same c, so an element is only ever
/// shared by the same iteration of the two loops.
static bool isFusionLegal(AffineForOp first, const BufferAccesses &a,
                          AffineForOp second, const BufferAccesses &b) {
  for (const auto &[memref, accessesA] : a.byBuffer) {
    auto it = b.byBuffer.find(memref);
    if (it == b.byBuffer.end())
      continue;
    if (!a.written.contains(memref) && !b.written.contains(memref))
      continue; // both only read it
    unsigned rank = cast<MemRefType>(memref.getType()).getRank();
    bool partitioned = false;
    for (unsigned dim = 0; dim < rank && !partitioned; ++dim) {
      std::optional<int64_t> offset;
      auto samePartition = [&](ArrayRef<Operation *> accesses, Value iv) {
        for (Operation *op : accesses) {
          std::optional<int64_t> c =
              polyblocks::getSubscriptOffset(op, dim, iv);
          if (!c || (offset && *offset != *c))
            return false;
          offset = c;
        }
        return true;
      };
      partitioned = samePartition(accessesA, first.getInductionVar()) &&
                    samePartition(it->second, second.getInductionVar());
    }
    if (!partitioned) {
      LLVM_DEBUG(llvm::dbgs() << "not fusing: " << memref
                              << " is shared across iterations\n");
      return false;
    }
  }
  return true;
}

static bool haveSameBounds(AffineForOp a, AffineForOp b) {
  return a.hasConstantBounds() && b.hasConstantBounds() &&
         a.getConstantLowerBound() == b.getConstantLowerBound() &&
         a.getConstantUpperBound() == b.getConstantUpperBound() &&
         a.getStepAsInt() == b.getStepAsInt();
}

/// Whether fusing pays: the nests share a buffer (the consumer reads what
/// the producer wrote, or both read the same input).
static bool shareABuffer(const BufferAccesses &a, const BufferAccesses &b) {
  return llvm::any_of(a.byBuffer, [&](const auto &entry) {
    return b.byBuffer.contains(entry.first);
  });
}

/// The only op of `loop`'s body besides the terminator, if it is a loop.
static AffineForOp getOnlyChildLoop(AffineForOp loop) {
  Block *body = loop.getBody();
  if (body->getOperations().size() != 2)
    return {};
  return dyn_cast<AffineForOp>(body->front());
}

/// True if the bodies of `first` and `second` can run as one loop (their
/// surroundings are checked by the caller). Outermost loops must stay
/// parallel, and one with few iterations is only fused along with its only
/// child, so that the parallelizer still finds one loop with many
/// iterations below it; loops inside another loop only need to be legal.
static bool canFuse(AffineForOp first, const BufferAccesses &a,
                    AffineForOp second, const BufferAccesses &b,
                    bool outermost) {
  if (first.getNumResults() != 0 || second.getNumResults() != 0 ||
      !haveSameBounds(first, second) || !shareABuffer(a, b) ||
      !isFusionLegal(first, a, second, b))
    return false;
  if (!outermost)
    return true;
  if (!polyblocks::isParallelLoop(first) || !polyblocks::isParallelLoop(second))
    return false;
  if (*getConstantTripCount(first) >= polyblocks::kFewParallelIterations)
    return true;
  AffineForOp firstChild = getOnlyChildLoop(first);
  AffineForOp secondChild = getOnlyChildLoop(second);
  if (!firstChild || !secondChild)
    return false;
  // The bodies hold nothing but the children: same accesses.
  return canFuse(firstChild, a, secondChild, b, /*outermost=*/true);
}

/// Moves the body of `second` to the end of `first`'s and erases it; for an
/// outermost loop with few iterations, fuses their only children too.
static void fuseInto(AffineForOp first, AffineForOp second, bool outermost) {
  AffineForOp firstChild, secondChild;
  if (outermost &&
      *getConstantTripCount(first) < polyblocks::kFewParallelIterations) {
    firstChild = getOnlyChildLoop(first);
    secondChild = getOnlyChildLoop(second);
  }
  Block *into = first.getBody();
  Block *from = second.getBody();
  second.getInductionVar().replaceAllUsesWith(first.getInductionVar());
  into->getOperations().splice(into->getTerminator()->getIterator(),
                               from->getOperations(), from->begin(),
                               std::prev(from->end()));
  second.erase();
  if (firstChild)
    fuseInto(firstChild, secondChild, /*outermost=*/true);
}

/// True if `op`, between `first` and the nest after it, can move above
/// `first`: it is pure, an allocation, or an affine load or store of a
/// whole buffer that `first` does not touch.
static bool canMoveAbove(Operation *op, AffineForOp first,
                         const BufferAccesses &firstAccesses) {
  if (isPure(op) || isa<memref::AllocOp, memref::AllocaOp>(op))
    return true;
  Value memref;
  if (auto read = dyn_cast<AffineReadOpInterface>(op))
    memref = read.getMemRef();
  else if (auto write = dyn_cast<AffineWriteOpInterface>(op))
    memref = write.getMemRef();
  return memref && polyblocks::isDistinctBuffer(memref) &&
         !firstAccesses.byBuffer.contains(memref) &&
         llvm::none_of(op->getOperands(), [&](Value v) {
           Operation *def = v.getDefiningOp();
           return def && first->isAncestor(def);
         });
}

/// Tries to fuse `second` into `first`; the ops separating them are moved
/// before `first` when that is safe.
static bool tryFuse(AffineForOp first, AffineForOp second, bool outermost) {
  FailureOr<BufferAccesses> firstAccesses =
      polyblocks::collectBufferAccesses(first);
  FailureOr<BufferAccesses> secondAccesses =
      polyblocks::collectBufferAccesses(second);
  if (failed(firstAccesses) || failed(secondAccesses))
    return false;
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (!canMoveAbove(op, first, *firstAccesses))
      return false;
    between.push_back(op);
  }
  if (!canFuse(first, *firstAccesses, second, *secondAccesses, outermost))
    return false;
  for (Operation *op : between)
    op->moveBefore(first);
  // The fused nest keeps what was decided for both.
  polyblocks::appendDecisions(second, first);
  fuseInto(first, second, outermost);
  return true;
}

/// Records on an outermost nest how many nests were fused into it.
static void recordFusion(AffineForOp nest, unsigned numNests) {
  if (numNests < 2)
    return;
  Builder b(nest.getContext());
  polyblocks::recordDecision(
      nest, DEBUG_TYPE,
      std::to_string(numNests) +
          " nests fused along the outer loop (each reads what an earlier "
          "one wrote, or the same buffer): one pass over their data",
      {{"nests", b.getI64IntegerAttr(numNests)}});
}

/// Fuses what it can among the consecutive loops of `block`.
static void fuseLoopsOf(Block *block, bool outermost) {
  SmallVector<AffineForOp> loops(block->getOps<AffineForOp>());
  AffineForOp current;
  unsigned numFused = 0;
  for (AffineForOp loop : loops) {
    if (current && tryFuse(current, loop, outermost)) {
      ++numFused;
      continue;
    }
    if (outermost && current)
      recordFusion(current, numFused + 1);
    current = loop;
    numFused = 0;
  }
  if (outermost && current)
    recordFusion(current, numFused + 1);
}

struct FuseLoopNestsPass
    : public polyblocks::impl::PBFuseLoopNestsBase<FuseLoopNestsPass> {
  using PBFuseLoopNestsBase::PBFuseLoopNestsBase;

  void runOnOperation() override {
    // The outermost nests first, then the loops that fusion (or the input)
    // put next to each other inside a loop body.
    SmallVector<Block *> outer;
    getOperation().walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<AffineForOp>() &&
          !isa<AffineForOp>(block->getParentOp()))
        outer.push_back(block);
    });
    for (Block *block : outer)
      fuseLoopsOf(block, /*outermost=*/true);
    for (Block *block : outer)
      for (AffineForOp loop : block->getOps<AffineForOp>())
        fuseInside(loop);
  }

  /// Fuses the loops of `loop`'s body, then inside those that remain.
  static void fuseInside(AffineForOp loop) {
    fuseLoopsOf(loop.getBody(), /*outermost=*/false);
    for (AffineForOp inner : loop.getBody()->getOps<AffineForOp>())
      fuseInside(inner);
  }
};

} // namespace
