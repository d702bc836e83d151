//===- MergeParallelRegions.cpp - One fork for many parallel loops --------===//
//
// S4 turns every parallel loop into its own `omp.parallel` region: a
// network of a hundred layers forks and joins the threads a hundred times
// or more per call, and each fork must wake the other threads, or wait for
// a core when other thread pools in the process hold them. This pass
// merges consecutive regions of a block into one:
//
//   omp.parallel { omp.wsloop { A } }        omp.parallel {
//   %v = memref.subview ...             ->     %v = memref.subview ...
//   scf.for ... { sequential }                 omp.wsloop { A }
//   omp.parallel { omp.wsloop { B(%v) } }      omp.single { scf.for ... }
//                                              omp.wsloop { B(%v) }
//                                            }
//
// Ops between two regions run inside the merged one: those without memory
// effects whose operands are available on every thread run on every thread
// (a view, an index computation) or, in the region's own block, once before
// it, as do allocations (a packing buffer); the others run in one
// `omp.single` (whose end is a barrier). A worksharing loop ends with a
// barrier; a region whose body does not end with one gets an `omp.barrier`, so
// each part still sees everything the previous one wrote. A sequential
// `scf.for` whose body holds parallel regions (a loop over k blocks packing
// then computing) runs on every thread with its regions merged the same way,
// forking once instead of once per iteration. Merging stops at an op between
// regions whose results are used outside the ops between them (a value the
// single thread computes that the others would need), and regions with clauses
// (reductions, private values, `if`, `num_threads`) are left alone.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "pb-merge-parallel-regions"

namespace polyblocks {
#define GEN_PASS_DEF_PBMERGEPARALLELREGIONS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// A region this pass can take apart: no clauses, one block.
bool isPlainParallel(Operation *op) {
  auto parallel = dyn_cast<omp::ParallelOp>(op);
  return parallel && parallel->getNumOperands() == 0 &&
         !parallel.getProcBindKind() && parallel.getRegion().hasOneBlock();
}

bool isParallelPart(Operation *op);

/// The ops between two parallel parts (in order): every thread runs the
/// pure ones computed from values all threads have, one thread the rest.
/// With `hoistAllocations` (the run is in the block of the merged region),
/// allocations computed from such values go before the region, one for all
/// threads. Empty optional when a value the single thread computes is used
/// after the run, so it cannot be merged.
struct Run {
  SmallVector<Operation *> everyThread;
  SmallVector<Operation *> oneThread;
};

bool isAllocation(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && op->getNumRegions() == 0 &&
         effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

std::optional<Run> splitRun(ArrayRef<Operation *> ops, bool hoistAllocations) {
  // A region inside a single thread's part would run on that thread alone.
  for (Operation *op : ops)
    if (op->walk([](omp::ParallelOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      return std::nullopt;
  Run run;
  DenseSet<Operation *> inRun(ops.begin(), ops.end());
  DenseSet<Operation *> single;
  for (Operation *op : ops) {
    bool onEveryThread =
        isMemoryEffectFree(op) || (hoistAllocations && isAllocation(op));
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && single.count(def))
        onEveryThread = false;
    // Values used inside the op's regions count as operands too.
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && single.count(def))
          onEveryThread = false;
    });
    if (onEveryThread) {
      run.everyThread.push_back(op);
      continue;
    }
    single.insert(op);
    run.oneThread.push_back(op);
  }
  Block *block = ops.empty() ? nullptr : ops.front()->getBlock();
  for (Operation *op : run.oneThread)
    for (Operation *user : op->getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || !inRun.count(ancestor))
        return std::nullopt;
    }
  return run;
}

/// The parts of a block: parallel parts and the runs of other ops between
/// them, in order; `parts[i]` is a parallel part when `isParallel[i]`.
struct Parts {
  SmallVector<SmallVector<Operation *>> parts;
  SmallVector<bool> isParallel;
};

Parts partsOf(Block &block, Block::iterator begin, Block::iterator end) {
  Parts result;
  for (Operation &op : llvm::make_range(begin, end)) {
    bool parallel = isParallelPart(&op);
    if (parallel || result.parts.empty() || result.isParallel.back()) {
      result.parts.emplace_back();
      result.isParallel.push_back(parallel);
    }
    result.parts.back().push_back(&op);
  }
  return result;
}

/// A sequential loop whose body is parallel parts and runs that can all go
/// inside one region: every thread runs the loop itself.
bool isParallelLoop(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop || loop->getNumResults() != 0)
    return false;
  Block *body = loop.getBody();
  Parts parts = partsOf(*body, body->begin(), std::prev(body->end()));
  if (!llvm::is_contained(parts.isParallel, true))
    return false;
  for (auto [ops, parallel] : llvm::zip(parts.parts, parts.isParallel))
    if (!parallel && !splitRun(ops, /*hoistAllocations=*/false))
      return false;
  return true;
}

bool isParallelPart(Operation *op) {
  return isPlainParallel(op) || isParallelLoop(op);
}

/// Whether the last op of a region's body is a worksharing loop ending with
/// its implied barrier.
bool endsWithBarrier(Block &body) {
  Operation *last = body.getTerminator()->getPrevNode();
  if (auto wsloop = dyn_cast_or_null<omp::WsloopOp>(last))
    return !wsloop.getNowait();
  return isa_and_nonnull<omp::SingleOp, omp::BarrierOp>(last);
}

void emitParts(const Parts &parts, OpBuilder &b, bool barrierAfterLast,
               Operation *hoistBefore);

/// Puts a run before the builder's insertion point: the ops every thread
/// runs, then one `omp.single` holding the others. With `hoistBefore` (the
/// merged region, when the run is in its own block) the ops every thread
/// would run are computed once before it instead: their values may be used
/// after the region.
void emitRun(const Run &run, OpBuilder &b, Operation *hoistBefore) {
  for (Operation *op : run.everyThread) {
    if (hoistBefore)
      op->moveBefore(hoistBefore);
    else
      op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
  }
  if (run.oneThread.empty())
    return;
  auto single = omp::SingleOp::create(b, run.oneThread.front()->getLoc(),
                                      omp::SingleOperands{});
  Block *block = b.createBlock(&single.getRegion());
  OpBuilder inner = OpBuilder::atBlockEnd(block);
  auto terminator = omp::TerminatorOp::create(inner, single.getLoc());
  for (Operation *op : run.oneThread)
    op->moveBefore(terminator);
  b.setInsertionPointAfter(single);
}

/// Puts one parallel part before the builder's insertion point: the body
/// of a region, or a loop whose own body becomes parts of the region.
/// Returns whether it ends at a barrier.
bool emitParallelPart(Operation *op, OpBuilder &b) {
  if (auto parallel = dyn_cast<omp::ParallelOp>(op)) {
    Block &body = parallel.getRegion().front();
    bool hasBarrier = endsWithBarrier(body);
    b.getInsertionBlock()->getOperations().splice(
        b.getInsertionPoint(), body.getOperations(), body.begin(),
        std::prev(body.end()));
    parallel.erase();
    return hasBarrier;
  }
  auto loop = cast<scf::ForOp>(op);
  op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
  Block *body = loop.getBody();
  Parts parts = partsOf(*body, body->begin(), std::prev(body->end()));
  OpBuilder inner(body->getTerminator());
  // Every iteration ends at a barrier: the next one may write what this
  // one's last part reads.
  emitParts(parts, inner, /*barrierAfterLast=*/true, /*hoistBefore=*/nullptr);
  return true;
}

void emitParts(const Parts &parts, OpBuilder &b, bool barrierAfterLast,
               Operation *hoistBefore) {
  for (auto [i, ops] : llvm::enumerate(parts.parts)) {
    bool last = i + 1 == parts.parts.size();
    if (parts.isParallel[i]) {
      Location loc = ops.front()->getLoc();
      if (!emitParallelPart(ops.front(), b) && (!last || barrierAfterLast))
        omp::BarrierOp::create(b, loc);
      continue;
    }
    emitRun(*splitRun(ops, /*hoistAllocations=*/hoistBefore != nullptr), b,
            hoistBefore);
  }
}

/// Merges the parallel parts of one block, from each part to the last one
/// reachable through mergeable runs.
void mergeBlock(Block &block) {
  Block::iterator it = block.begin();
  while (it != block.end()) {
    if (!isParallelPart(&*it)) {
      ++it;
      continue;
    }
    // The longest stretch [first, last] of parallel parts and runs between
    // them that can be merged.
    Block::iterator first = it;
    Block::iterator last = it;
    Block::iterator scan = std::next(it);
    SmallVector<Operation *> run;
    for (; scan != block.end(); ++scan) {
      if (!isParallelPart(&*scan)) {
        if (scan->hasTrait<OpTrait::IsTerminator>())
          break;
        run.push_back(&*scan);
        continue;
      }
      if (!splitRun(run, /*hoistAllocations=*/true))
        break;
      last = scan;
      run.clear();
    }
    Block::iterator end = std::next(last);
    bool alone = first == last && isa<omp::ParallelOp>(*first);
    if (!alone) {
      Parts parts = partsOf(block, first, end);
      OpBuilder b(&*first);
      auto merged =
          omp::ParallelOp::create(b, first->getLoc(), omp::ParallelOperands{});
      Block *body = b.createBlock(&merged.getRegion());
      OpBuilder inner = OpBuilder::atBlockEnd(body);
      auto terminator = omp::TerminatorOp::create(inner, merged.getLoc());
      inner.setInsertionPoint(terminator);
      emitParts(parts, inner, /*barrierAfterLast=*/false, merged);
      it = std::next(Block::iterator(merged));
      continue;
    }
    it = end;
  }
}

struct MergeParallelRegionsPass
    : public polyblocks::impl::PBMergeParallelRegionsBase<
          MergeParallelRegionsPass> {
  using PBMergeParallelRegionsBase::PBMergeParallelRegionsBase;

  void runOnOperation() override {
    // Blocks outside any region; regions already inside one are left as
    // they are (threads are never nested).
    SmallVector<Block *> blocks;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<omp::ParallelOp>(op))
        return WalkResult::skip();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          blocks.push_back(&block);
      return WalkResult::advance();
    });
    // Outermost blocks first: a loop merged into a region takes its body's
    // regions with it.
    for (Block *block : blocks)
      if (block->getParentOp()->getParentOfType<omp::ParallelOp>() == nullptr &&
          !isa<omp::ParallelOp>(block->getParentOp()))
        mergeBlock(*block);
  }
};

} // namespace
