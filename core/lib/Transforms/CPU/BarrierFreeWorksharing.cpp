//===- BarrierFreeWorksharing.cpp - Parallel loops that never wait --------===//
//
// An OpenMP worksharing loop ends at a barrier: every thread of the region
// must arrive before any goes on. When another thread pool of the process
// holds a core (a framework's workers spinning after their own call), the
// thread that holds nothing to do still has to be scheduled to arrive, and
// the others wait for it, once per loop. This pass rewrites the worksharing
// loops and singles of a parallel region so that threads claim chunks of
// work from a shared counter and wait only for chunks that another thread has
// claimed and not yet finished; a thread that arrives late finds nothing left
// and goes on:
//
//   omp.parallel {                      omp.parallel {
//     omp.wsloop {                        scf.while (range, chunk) {
//       omp.loop_nest (%i) = (%lb) to       call @__pb_claim_chunk
//           (%ub) step (%s) { A(%i) }       scf.for %t in the chunk {
//     }                            ->         A(%lb + %t * %s) } }
//     omp.single { B }                    atomic_rmw addi done, computed
//   }                                     call @__pb_wait_done  // == end
//                                         // B: a part of one iteration
//                                       }
//
// Each part is cut into one home range per thread of the machine model, each
// with its claim counter (i64 words a cache line apart, then the `done`
// counter, zeroed before the region). Thread t claims from range t first, so
// that with every thread on time each computes the same rows in every part
// (its own cache holds them from the part before), then from the others. A
// claim takes half of what is left of its range, down to the part cut into
// `chunks-per-thread` chunks per thread (Target/Heuristics.h). Every thread
// runs the same parts in the same order, so each keeps on its own stack where
// the next part's iterations start and the counters only grow; a claim never
// takes a counter past its range's end. Each thread adds the iterations it
// computed to `done` (releasing its writes) and waits until `done` reaches the
// part's end (acquiring the others'), so every part still sees all that the
// previous one wrote. The wait spins a while, then sleeps between looks, so
// that the core goes idle and the scheduler can move there a thread that
// claimed a chunk and then lost its core. Only the region's end (its join)
// waits for every thread. Stack buffers of the parts are allocated once per
// thread at the region's start (the canonicalizer folds the scope that bounded
// one per iteration into the chunk's loop). The claim and the wait are
// functions of the module (internal: each object has its own), not inlined,
// so that the region's function, which LLVM optimizes as one, holds one copy
// of their loops rather than one per part (compile times measured:
// bench/RESULTS.md, notes on the passes).
//
// Loops with clauses (a schedule, reductions, private values, nowait,
// ordered) and singles with clauses keep their barriers.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Analysis/MemoryFootprint.h"
#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Target/MachineModel.h"
#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "pb-barrier-free-worksharing"

namespace polyblocks {
#define GEN_PASS_DEF_PBBARRIERFREEWORKSHARING
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// Stack buffers of fixed size that the parts of a region allocate,
/// allocated once per thread at the region's start instead: a chunk's loop
/// would pile up one per iteration (the canonicalizer folds the scope that
/// bounded them into the loop), and a thread runs one part at a time, so the
/// parts share them, the n-th buffer of a type of each part the same one.
class StackBuffers {
public:
  explicit StackBuffers(omp::ParallelOp parallel)
      : entry(&parallel.getRegion().front()) {}

  /// Whether every stack buffer of `body` has a fixed size.
  static bool canHoist(Region &body) {
    return !body.walk([](memref::AllocaOp alloca) {
                  return alloca->getNumOperands() == 0
                             ? WalkResult::advance()
                             : WalkResult::interrupt();
                })
                .wasInterrupted();
  }

  /// Replaces the stack buffers of one part by the region's.
  void hoist(Region &body) {
    DenseMap<std::pair<Type, int64_t>, unsigned> taken;
    SmallVector<memref::AllocaOp> allocas;
    body.walk([&](memref::AllocaOp alloca) { allocas.push_back(alloca); });
    for (memref::AllocaOp alloca : allocas) {
      std::pair<Type, int64_t> key{alloca.getType(),
                                   alloca.getAlignment().value_or(0)};
      SmallVector<Value> &shared = buffers[key];
      unsigned n = taken[key]++;
      if (n == shared.size()) {
        OpBuilder b = OpBuilder::atBlockBegin(entry);
        shared.push_back(memref::AllocaOp::create(
            b, alloca.getLoc(), alloca.getType(), alloca.getAlignmentAttr()));
      }
      alloca.replaceAllUsesWith(shared[n]);
      alloca.erase();
    }
  }

private:
  Block *entry;
  DenseMap<std::pair<Type, int64_t>, SmallVector<Value>> buffers;
};

bool isPlainWsloop(omp::WsloopOp loop) {
  if (loop->getNumOperands() != 0 || loop.getNowait() ||
      loop.getScheduleKind() || loop.getOrdered() || loop.getOrder() ||
      loop.getReductionSyms() || loop.getPrivateSyms() ||
      loop.getLinearVarTypes())
    return false;
  auto nest = dyn_cast_or_null<omp::LoopNestOp>(loop.getWrappedLoop());
  return nest && !nest.getLoopInclusive() && nest.getRegion().hasOneBlock() &&
         StackBuffers::canHoist(nest.getRegion()) &&
         llvm::all_of(nest.getLoopLowerBounds(),
                      [](Value v) { return v.getType().isIndex(); });
}

bool isPlainSingle(omp::SingleOp single) {
  return single->getNumOperands() == 0 && !single.getNowait() &&
         !single.getCopyprivateSyms() && !single.getPrivateSyms() &&
         single.getRegion().hasOneBlock() &&
         StackBuffers::canHoist(single.getRegion());
}

/// The parts of `parallel` this pass rewrites: its worksharing loops and
/// singles reached through sequential control flow only (not inside another
/// OpenMP construct, which would change who runs them).
SmallVector<Operation *> collectParts(omp::ParallelOp parallel) {
  SmallVector<Operation *> parts;
  parallel.getRegion().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == parallel.getOperation())
      return WalkResult::advance();
    if (auto loop = dyn_cast<omp::WsloopOp>(op)) {
      if (isPlainWsloop(loop))
        parts.push_back(op);
      return WalkResult::skip();
    }
    if (auto single = dyn_cast<omp::SingleOp>(op)) {
      if (isPlainSingle(single))
        parts.push_back(op);
      return WalkResult::skip();
    }
    if (op->getDialect() && isa<omp::OpenMPDialect>(op->getDialect()) &&
        op->getNumRegions() != 0)
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return parts;
}

/// What every thread of a rewritten region shares and keeps.
struct Counters {
  /// memref<(ranges + 1) * 8 x i64>, zeroed: the claim counter of
  /// each home range, then the done counter, a cache line apart.
  Value shared;
  /// memref<i64> on each thread's stack: where the next part starts.
  Value base;
  /// This thread's number in the team (index).
  Value thread;
  /// The module's @__pb_claim_chunk and @__pb_wait_done.
  func::FuncOp claim, wait;
};

/// The counters: a claim word per home range, then the done word, each on
/// a cache line of its own (static: the helpers take bare pointers).
MemRefType countersType(MLIRContext *context,
                        const polyblocks::WorkClaims &claims) {
  return MemRefType::get({8 * (claims.ranges + 1)},
                         IntegerType::get(context, 64));
}

/// The end of the chunk a claim at `from` (start <= from < end) takes: half
/// of what is left (`share`), at least `smallest`.
Value chunkEnd(OpBuilder &b, Location loc, Value from, Value end,
               Value smallest, int64_t share) {
  Value left = arith::SubIOp::create(b, loc, end, from);
  Value shareValue =
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), share);
  Value size = arith::MaxUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, left, shareValue), smallest);
  return arith::MinUIOp::create(b, loc,
                                arith::AddIOp::create(b, loc, from, size), end);
}

/// Emits one part of `iterations` iterations; `emitIteration` builds
/// iteration `t` (0 <= t < iterations). The counters count iterations: the
/// part's are [base, base + iterations), cut into `ranges` home ranges, and
/// thread t claims from range t mod ranges first, then from the others in
/// turn, so that with every thread on time each computes the same rows in
/// every part (which its own cache holds from the part before) and a late
/// thread's range is taken by the others (@__pb_claim_chunk). Each thread
/// adds the iterations it computed to `done` once, when nothing is left to
/// claim, and waits until `done` reaches the part's end (@__pb_wait_done).
///
/// Without `wait` (the next part touches nothing this one writes, nor writes
/// what it reads), the thread goes on at once: the next wait, on the same
/// counter, covers both parts.
void emitClaimedPart(
    OpBuilder &b, Location loc, const Counters &counters, Value iterations,
    const polyblocks::WorkClaims &claims, bool wait,
    function_ref<void(OpBuilder &, Location, Value)> emitIteration) {
  Type i64 = b.getI64Type();
  Type index = b.getIndexType();
  auto constant = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, value);
  };
  Value zero = constant(b, 0);
  Value one = constant(b, 1);
  Value count = arith::IndexCastUIOp::create(b, loc, i64, iterations);
  Value smallest = arith::MaxUIOp::create(
      b, loc,
      arith::CeilDivUIOp::create(b, loc, count, constant(b, claims.maxChunks)),
      one);
  Value base = memref::LoadOp::create(b, loc, counters.base, ValueRange{});
  Value limit = arith::AddIOp::create(b, loc, base, count);
  Value ranges = constant(b, claims.ranges);
  Value cRanges = arith::ConstantIndexOp::create(b, loc, claims.ranges);
  // The first iteration of home range `range` (i64); range == ranges: limit.
  auto rangeStart = [&](OpBuilder &b, Value range) -> Value {
    return arith::AddIOp::create(
        b, loc, base,
        arith::DivUIOp::create(
            b, loc, arith::MulIOp::create(b, loc, count, range), ranges));
  };

  // Over (range k, chunks of it): claim a chunk of range (thread + k) mod
  // ranges; when it has none left, go to the next range.
  auto claimLoop = scf::WhileOp::create(
      b, loc, TypeRange{index, i64},
      ValueRange{arith::ConstantIndexOp::create(b, loc, 0), zero},
      [&](OpBuilder &before, Location loc, ValueRange state) {
        Value inRanges = arith::CmpIOp::create(
            before, loc, arith::CmpIPredicate::ult, state[0], cRanges);
        scf::ConditionOp::create(before, loc, inRanges, state);
      },
      [&](OpBuilder &after, Location loc, ValueRange state) {
        Value k = state[0], computed = state[1];
        Value rangeIndex = arith::RemUIOp::create(
            after, loc, arith::AddIOp::create(after, loc, counters.thread, k),
            cRanges);
        Value range = arith::IndexCastUIOp::create(after, loc, i64, rangeIndex);
        Value word = arith::MulIOp::create(
            after, loc, rangeIndex,
            arith::ConstantIndexOp::create(after, loc, 8));
        Value start = rangeStart(after, range);
        Value end =
            rangeStart(after, arith::AddIOp::create(after, loc, range,
                                                    constant(after, 1)));
        auto claim = func::CallOp::create(
            after, loc, counters.claim,
            ValueRange{counters.shared, word, start, end, smallest});
        Value from = claim.getResult(0), to = claim.getResult(1);
        Value claimed = arith::CmpIOp::create(
            after, loc, arith::CmpIPredicate::ult, from, to);
        auto chunkIf = scf::IfOp::create(after, loc, TypeRange{index, i64},
                                         claimed, /*withElseRegion=*/true);
        OpBuilder then = chunkIf.getThenBodyBuilder();
        auto toIndex = [&](Value word) -> Value {
          return arith::IndexCastUIOp::create(
              then, loc, index, arith::SubIOp::create(then, loc, word, base));
        };
        scf::ForOp::create(
            then, loc, toIndex(from), toIndex(to),
            arith::ConstantIndexOp::create(then, loc, 1), ValueRange{},
            [&](OpBuilder &inner, Location loc, Value t, ValueRange) {
              emitIteration(inner, loc, t);
              scf::YieldOp::create(inner, loc);
            });
        Value size = arith::SubIOp::create(then, loc, to, from);
        scf::YieldOp::create(
            then, loc,
            ValueRange{k, arith::AddIOp::create(then, loc, computed, size)});
        OpBuilder otherwise = chunkIf.getElseBodyBuilder();
        scf::YieldOp::create(
            otherwise, loc,
            ValueRange{arith::AddIOp::create(
                           otherwise, loc, k,
                           arith::ConstantIndexOp::create(otherwise, loc, 1)),
                       computed});
        scf::YieldOp::create(after, loc, chunkIf.getResults());
      });
  Value computed = claimLoop.getResult(1);
  Value doneWord = arith::ConstantIndexOp::create(b, loc, 8 * claims.ranges);
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, computed, zero);
  scf::IfOp::create(b, loc, any, [&](OpBuilder &then, Location loc) {
    memref::AtomicRMWOp::create(then, loc, arith::AtomicRMWKind::addi, computed,
                                counters.shared, ValueRange{doneWord});
    scf::YieldOp::create(then, loc);
  });
  if (wait)
    func::CallOp::create(b, loc, counters.wait,
                         ValueRange{counters.shared, doneWord, limit});
  memref::StoreOp::create(b, loc, limit, counters.base, ValueRange{});
}

/// The private function `name` of the module: the existing one, else a new
/// declaration.
func::FuncOp getOrDeclareFunction(ModuleOp module, StringRef name,
                                  FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto func = func::FuncOp::create(b, module.getLoc(), name, type);
  func.setPrivate();
  return func;
}

/// A new private function of the module that LLVM does not inline, with its
/// entry block. Its symbol is local to the object (internal linkage): every
/// module has its own copy, and two objects linked into one program must not
/// define it twice.
func::FuncOp createHelper(ModuleOp module, StringRef name, FunctionType type) {
  func::FuncOp func = getOrDeclareFunction(module, name, type);
  MLIRContext *context = module.getContext();
  func->setAttr(
      "passthrough",
      ArrayAttr::get(context, {StringAttr::get(context, "noinline")}));
  func->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  func.addEntryBlock();
  return func;
}

/// @__pb_claim_chunk(counters, word, start, end, smallest) -> (from, to):
/// takes [from, to) of the range [start, end) whose claim counter is
/// counters[word] (from >= to: none left). The counter may still hold an
/// earlier part's end, below `start`. Not inlined: one copy of the
/// compare-and-swap loop for all parts keeps the region's function small
/// for LLVM.
func::FuncOp buildClaimChunk(ModuleOp module,
                             const polyblocks::WorkClaims &claims) {
  int64_t share = claims.share;
  Builder types(module.getContext());
  Type i64 = types.getI64Type();
  func::FuncOp func = createHelper(
      module, "__pb_claim_chunk",
      types.getFunctionType({countersType(module.getContext(), claims),
                             types.getIndexType(), i64, i64, i64},
                            {i64, i64}));
  Block *entry = &func.front();
  auto b = OpBuilder::atBlockBegin(entry);
  Location loc = module.getLoc();
  Value shared = entry->getArgument(0), word = entry->getArgument(1),
        start = entry->getArgument(2), end = entry->getArgument(3),
        smallest = entry->getArgument(4);
  auto claim =
      memref::GenericAtomicRMWOp::create(b, loc, shared, ValueRange{word});
  {
    OpBuilder body = OpBuilder::atBlockEnd(claim.getBody());
    Value current = claim.getCurrentValue();
    Value from = arith::MaxUIOp::create(body, loc, current, start);
    Value open =
        arith::CmpIOp::create(body, loc, arith::CmpIPredicate::ult, from, end);
    memref::AtomicYieldOp::create(
        body, loc,
        arith::SelectOp::create(body, loc, open,
                                chunkEnd(body, loc, from, end, smallest, share),
                                current));
  }
  Value from = arith::MaxUIOp::create(b, loc, claim.getResult(), start);
  Value open =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, from, end);
  Value to = arith::SelectOp::create(
      b, loc, open, chunkEnd(b, loc, from, end, smallest, share), from);
  func::ReturnOp::create(b, loc, ValueRange{from, to});
  return func;
}

/// @__pb_wait_done(counters, word, limit): until counters[word] reaches
/// `limit`, spin, then sleep between looks, so that the core goes idle and
/// the scheduler can move there a thread that claimed a chunk and lost its
/// core to another pool's.
func::FuncOp buildWaitDone(ModuleOp module, func::FuncOp sleep,
                           const polyblocks::WorkClaims &claims) {
  Builder types(module.getContext());
  Type i64 = types.getI64Type();
  func::FuncOp func = createHelper(
      module, "__pb_wait_done",
      types.getFunctionType({countersType(module.getContext(), claims),
                             types.getIndexType(), i64},
                            {}));
  Block *entry = &func.front();
  auto b = OpBuilder::atBlockBegin(entry);
  Location loc = module.getLoc();
  Value shared = entry->getArgument(0), word = entry->getArgument(1),
        limit = entry->getArgument(2);
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value spinsBeforeSleep =
      arith::ConstantIntOp::create(b, loc, i64, claims.spinsBeforeSleep);
  scf::WhileOp::create(
      b, loc, TypeRange{i64}, ValueRange{zero},
      [&](OpBuilder &before, Location loc, ValueRange spins) {
        Value done =
            memref::AtomicRMWOp::create(before, loc, arith::AtomicRMWKind::addi,
                                        zero, shared, ValueRange{word});
        Value pending = arith::CmpIOp::create(
            before, loc, arith::CmpIPredicate::ult, done, limit);
        scf::ConditionOp::create(before, loc, pending, spins);
      },
      [&](OpBuilder &after, Location loc, ValueRange spins) {
        Value spinning = arith::CmpIOp::create(
            after, loc, arith::CmpIPredicate::ult, spins[0], spinsBeforeSleep);
        scf::IfOp::create(
            after, loc, spinning,
            [&](OpBuilder &then, Location loc) {
              LLVM::CallIntrinsicOp::create(
                  then, loc, then.getStringAttr("llvm.x86.sse2.pause"),
                  ValueRange{});
              scf::YieldOp::create(then, loc);
            },
            [&](OpBuilder &otherwise, Location loc) {
              func::CallOp::create(otherwise, loc, sleep,
                                   ValueRange{arith::ConstantIntOp::create(
                                       otherwise, loc, otherwise.getI32Type(),
                                       claims.sleepMicroseconds)});
              scf::YieldOp::create(otherwise, loc);
            });
        scf::YieldOp::create(
            after, loc,
            ValueRange{arith::AddIOp::create(
                after, loc, spins[0],
                arith::ConstantIntOp::create(after, loc, i64, 1))});
      });
  func::ReturnOp::create(b, loc);
  return func;
}

/// Clones `block` (without its terminator) at `b`, its arguments mapped to
/// `arguments`.
void cloneBody(OpBuilder &b, Block &block, ValueRange arguments) {
  IRMapping mapping;
  mapping.map(block.getArguments(), arguments);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
}

void rewriteLoop(omp::WsloopOp loop, const Counters &counters,
                 const polyblocks::WorkClaims &claims, bool wait) {
  auto nest = cast<omp::LoopNestOp>(loop.getWrappedLoop());
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  // Trip counts of the collapsed loops, outermost first.
  SmallVector<Value> trips;
  Value iterations = arith::ConstantIndexOp::create(b, loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    Value span = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
    Value trip = arith::CeilDivUIOp::create(b, loc, span, step);
    trips.push_back(trip);
    iterations = arith::MulIOp::create(b, loc, iterations, trip);
  }
  Block &body = nest.getRegion().front();
  emitClaimedPart(
      b, loc, counters, iterations, claims, wait,
      [&](OpBuilder &inner, Location loc, Value t) {
        // Delinearize t, the last loop fastest.
        SmallVector<Value> ivs(trips.size());
        Value rest = t;
        for (size_t d = trips.size(); d-- > 0;) {
          Value index = rest;
          if (d > 0) {
            index = arith::RemUIOp::create(inner, loc, rest, trips[d]);
            rest = arith::DivUIOp::create(inner, loc, rest, trips[d]);
          }
          ivs[d] = arith::AddIOp::create(
              inner, loc, nest.getLoopLowerBounds()[d],
              arith::MulIOp::create(inner, loc, index, nest.getLoopSteps()[d]));
        }
        cloneBody(inner, body, ivs);
      });
  loop.erase();
}

void rewriteSingle(omp::SingleOp single, const Counters &counters,
                   const polyblocks::WorkClaims &claims, bool wait) {
  Location loc = single.getLoc();
  OpBuilder b(single);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Block &body = single.getRegion().front();
  emitClaimedPart(b, loc, counters, one, claims, wait,
                  [&](OpBuilder &inner, Location loc, Value) {
                    cloneBody(inner, body, ValueRange{});
                  });
  single.erase();
}

/// True if `op` is an scf.for of one iteration (a loop over the one image
/// of a batch of 1).
bool isSingleIteration(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op);
  std::optional<APInt> trips = loop ? loop.getStaticTripCount() : std::nullopt;
  return trips && *trips == 1;
}

/// The first part that runs from `it` on in its block (looking into loops of
/// one iteration): null with `blocked` set if an op with memory effects or
/// other control flow comes first, null with `blocked` unset at the block's
/// end.
Operation *findNextPart(Block::iterator it, Block::iterator end,
                        const DenseSet<Operation *> &parts, bool &blocked) {
  for (; it != end; ++it) {
    Operation *op = &*it;
    if (parts.contains(op))
      return op;
    if (isSingleIteration(op)) {
      Block *body = cast<scf::ForOp>(op).getBody();
      if (Operation *part =
              findNextPart(body->begin(), body->end(), parts, blocked))
        return part;
      if (blocked)
        return nullptr;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op)) {
      blocked = true;
      return nullptr;
    }
  }
  return nullptr;
}

/// The part that runs right after `part` on the thread, with nothing with
/// memory effects between them (index arithmetic, views, loops of one
/// iteration around either), or null.
Operation *getNextPart(Operation *part, const DenseSet<Operation *> &parts) {
  Operation *from = part;
  while (true) {
    bool blocked = false;
    if (Operation *next = findNextPart(std::next(from->getIterator()),
                                       from->getBlock()->end(), parts, blocked))
      return next;
    if (blocked)
      return nullptr;
    from = from->getParentOp();
    if (!isSingleIteration(from))
      return nullptr;
  }
}

/// Which parts end with a wait for all their iterations: those that the
/// part right after them may depend on (it reads or writes what one of them
/// writes, or writes what one of them reads), where "them" are all the parts
/// since the last wait; and those followed by anything else (what follows is
/// not known to be independent, and the region's end needs every iteration
/// done).
SmallVector<bool> chooseWaits(ArrayRef<Operation *> parts,
                              omp::ParallelOp parallel) {
  std::vector<polyblocks::MemoryFootprint> footprints;
  for (Operation *part : parts)
    footprints.push_back(polyblocks::getMemoryFootprint(part, parallel));
  SmallVector<bool> waits(parts.size(), true);
  SmallVector<size_t> pending;
  DenseSet<Operation *> partSet(parts.begin(), parts.end());
  for (size_t i = 0; i < parts.size(); ++i) {
    pending.push_back(i);
    if (i + 1 < parts.size() &&
        getNextPart(parts[i], partSet) == parts[i + 1] &&
        llvm::none_of(pending, [&](size_t p) {
          return polyblocks::mayConflict(footprints[p], footprints[i + 1]);
        })) {
      waits[i] = false;
      continue;
    }
    pending.clear();
  }
  return waits;
}

struct BarrierFreeWorksharingPass
    : public polyblocks::impl::PBBarrierFreeWorksharingBase<
          BarrierFreeWorksharingPass> {
  using PBBarrierFreeWorksharingBase::PBBarrierFreeWorksharingBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    polyblocks::WorkClaims claims = polyblocks::chooseWorkClaims(
        polyblocks::getMachineModel(module).cpu, chunksPerThread);
    SmallVector<omp::ParallelOp> regions;
    module->walk([&](omp::ParallelOp parallel) {
      // Threads are never nested; a region inside another is left alone.
      if (!parallel->getParentOfType<omp::ParallelOp>() &&
          parallel.getRegion().hasOneBlock())
        regions.push_back(parallel);
    });
    func::FuncOp threadNumber, claim, wait;
    for (omp::ParallelOp parallel : regions) {
      SmallVector<Operation *> parts = collectParts(parallel);
      if (parts.empty())
        continue;
      if (!threadNumber) {
        Builder types(module.getContext());
        threadNumber = getOrDeclareFunction(
            module, "omp_get_thread_num",
            types.getFunctionType(TypeRange{}, TypeRange{types.getI32Type()}));
        func::FuncOp sleep = getOrDeclareFunction(
            module, "usleep",
            types.getFunctionType(TypeRange{types.getI32Type()},
                                  TypeRange{types.getI32Type()}));
        claim = buildClaimChunk(module, claims);
        wait = buildWaitDone(module, sleep, claims);
      }
      Location loc = parallel.getLoc();
      OpBuilder b(parallel);
      Type i64 = b.getI64Type();
      Counters counters;
      counters.claim = claim;
      counters.wait = wait;
      Value shared =
          memref::AllocaOp::create(b, loc, countersType(b.getContext(), claims),
                                   b.getI64IntegerAttr(64));
      Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
      for (int64_t word = 0; word <= claims.ranges; ++word)
        memref::StoreOp::create(
            b, loc, zero, shared,
            ValueRange{arith::ConstantIndexOp::create(b, loc, 8 * word)});
      counters.shared = shared;
      OpBuilder inner = OpBuilder::atBlockBegin(&parallel.getRegion().front());
      counters.base =
          memref::AllocaOp::create(inner, loc, MemRefType::get({}, i64));
      memref::StoreOp::create(inner, loc,
                              arith::ConstantIntOp::create(inner, loc, i64, 0),
                              counters.base, ValueRange{});
      Value thread =
          func::CallOp::create(inner, loc, threadNumber, ValueRange{})
              .getResult(0);
      counters.thread = arith::IndexCastUIOp::create(
          inner, loc, inner.getIndexType(), thread);
      SmallVector<bool> waits = chooseWaits(parts, parallel);
      numWaitsSkipped += llvm::count(waits, false);
      StackBuffers buffers(parallel);
      for (auto [part, wait] : llvm::zip_equal(parts, waits)) {
        buffers.hoist(part->getRegion(0));
        if (auto loop = dyn_cast<omp::WsloopOp>(part))
          rewriteLoop(loop, counters, claims, wait);
        else
          rewriteSingle(cast<omp::SingleOp>(part), counters, claims, wait);
      }
    }
  }
};

} // namespace
