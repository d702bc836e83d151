//===- OutlineParallelRegions.cpp - Regions the thread pool runs ----------===//
//
// OpenMP's fork-join runs a parallel region on a team of threads and its
// join waits for every thread of the team, including one that another thread
// pool of the process keeps off its core and that has done nothing yet. Once
// pb-barrier-free-worksharing has rewritten a region's parts so that the
// threads claim chunks and wait only for claimed ones, nothing in the region
// needs the team to be complete; this pass hands such a region to the
// PolyBlocks thread pool (runtime/lib/ThreadPool.c), whose caller waits only
// for the workers that entered:
//
//   llvm.func @f(%a, %n) {                 llvm.func @f(%a, %n) {
//     omp.parallel {                         %ctx = llvm.alloca struct<(ptr,
//     i64)>
//       A(%a, %n, omp_get_thread_num())  ->  store %a, %n into %ctx
//       omp.terminator                       llvm.call @__pb_parallel_run_v1(
//     }                                          @f.parallel0, %ctx)
//   }                                      }
//                                          llvm.func internal @f.parallel0(
//                                              %ctx, %thread: i32) {
//                                            %a, %n = load from %ctx
//                                            A(%a, %n, %thread)
//                                          }
//
// The region's entry block becomes the function's, so its allocas (the
// per-thread stack buffers) stay static. What the region uses that is built
// of constants, addresses of globals and passed values alone (memref
// descriptors: insertvalue chains of sizes, strides and a pointer; views:
// getelementptr of a buffer) is rebuilt there from its leaves, and only the
// leaves that are not constants are passed: a network's region uses hundreds
// of descriptors, which stored field by field on one side and loaded on the
// other made two straight-line blocks of over a thousand memory accesses;
// LLVM's instruction schedulers took 0.44 s to order MobileNetV2's first
// (bench/RESULTS.md, compile time, fourth step). Regions
// that hold OpenMP ops (barriers, loops with clauses) or have clauses
// themselves are left to OpenMP.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "pb-outline-parallel-regions"

namespace polyblocks {
#define GEN_PASS_DEF_PBOUTLINEPARALLELREGIONS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

constexpr StringLiteral kRunRegion = polyblocks::kThreadPoolEntry;
constexpr StringLiteral kThreadNumber = "omp_get_thread_num";

/// A region the pool can run: no clauses, directly in a function, and no
/// OpenMP op inside but its terminators.
bool isOutlinable(omp::ParallelOp parallel) {
  if (parallel->getNumOperands() != 0 || parallel.getProcBindKind() ||
      !isa<LLVM::LLVMFuncOp>(parallel->getParentOp()))
    return false;
  WalkResult result = parallel.getRegion().walk([](Operation *op) {
    if (isa<omp::TerminatorOp>(op))
      return WalkResult::advance();
    if (op->getDialect() && op->getDialect()->getNamespace() ==
                                omp::OpenMPDialect::getDialectNamespace())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Ops rebuilt inside the outlined function (from their operands, rebuilt
/// or passed) rather than passed.
bool isRematerializable(Operation *op) {
  return isa<LLVM::ConstantOp, LLVM::AddressOfOp, LLVM::ZeroOp, LLVM::UndefOp,
             LLVM::PoisonOp, LLVM::InsertValueOp, LLVM::ExtractValueOp,
             LLVM::GEPOp>(op);
}

/// Splits what `region` uses from above into the values passed to it and
/// the ops rebuilt in it (operands before users).
void collectCaptures(Region &region, SetVector<Value> &passed,
                     SetVector<Operation *> &rebuilt) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(region, captured);
  // Depth first, each op after its operands.
  DenseSet<Value> visited;
  SmallVector<std::pair<Value, bool>> stack;
  for (Value value : llvm::reverse(captured))
    stack.push_back({value, false});
  while (!stack.empty()) {
    auto [value, operandsDone] = stack.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !isRematerializable(def)) {
      passed.insert(value);
      continue;
    }
    if (operandsDone) {
      rebuilt.insert(def);
      continue;
    }
    if (!visited.insert(value).second)
      continue;
    stack.push_back({value, true});
    for (Value operand : llvm::reverse(def->getOperands()))
      if (!visited.contains(operand))
        stack.push_back({operand, false});
  }
}

LLVM::LLVMFuncOp getOrDeclareRunRegion(ModuleOp module) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(kRunRegion))
    return existing;
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(
      b, module.getLoc(), kRunRegion,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                  {ptr, ptr}));
}

/// Outlines `parallel` into a function `name` placed after `after` (which
/// becomes it).
void outline(omp::ParallelOp parallel, LLVM::LLVMFuncOp runRegion,
             StringRef name, Operation *&after) {
  MLIRContext *context = parallel.getContext();
  Location loc = parallel.getLoc();
  auto parent = parallel->getParentOfType<LLVM::LLVMFuncOp>();
  auto ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = IntegerType::get(context, 32);
  Type i64 = IntegerType::get(context, 64);
  Region &region = parallel.getRegion();

  SetVector<Value> passed;
  SetVector<Operation *> rebuilt;
  collectCaptures(region, passed, rebuilt);
  SmallVector<Type> fieldTypes;
  for (Value value : passed)
    fieldTypes.push_back(value.getType());
  auto contextType = LLVM::LLVMStructType::getLiteral(context, fieldTypes);

  // The caller: the context on its stack (allocated at its entry), filled
  // where the region was, then the pool's call.
  OpBuilder b(parallel);
  Value contextPointer;
  if (passed.empty()) {
    contextPointer = LLVM::ZeroOp::create(b, loc, ptr);
  } else {
    OpBuilder entry = OpBuilder::atBlockBegin(&parent.getBody().front());
    Value one = LLVM::ConstantOp::create(entry, loc, i64, 1);
    // Aligned as its fields (a vector<32xf32> field: 128 bytes), which are
    // stored and loaded with their types' alignment.
    uint64_t alignment = std::max<uint64_t>(
        8, DataLayout::closest(parent).getTypeABIAlignment(contextType));
    contextPointer =
        LLVM::AllocaOp::create(entry, loc, ptr, contextType, one, alignment);
    for (auto [i, value] : llvm::enumerate(passed)) {
      Value field = LLVM::GEPOp::create(
          b, loc, ptr, contextType, contextPointer,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, value, field);
    }
  }
  Value regionAddress = LLVM::AddressOfOp::create(b, loc, ptr, name);
  LLVM::CallOp::create(b, loc, runRegion,
                       ValueRange{regionAddress, contextPointer});

  // The region: its entry block takes (context, thread) and loads what it
  // was passed.
  Block &entry = region.front();
  Value contextArgument = entry.addArgument(ptr, loc);
  Value thread = entry.addArgument(i32, loc);
  OpBuilder inside = OpBuilder::atBlockBegin(&entry);
  auto replaceInside = [&](Value from, Value to) {
    from.replaceUsesWithIf(to, [&](OpOperand &use) {
      return region.isAncestor(use.getOwner()->getParentRegion());
    });
  };
  IRMapping mapping;
  for (auto [i, value] : llvm::enumerate(passed)) {
    Value field =
        LLVM::GEPOp::create(inside, loc, ptr, contextType, contextArgument,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value load = LLVM::LoadOp::create(inside, loc, value.getType(), field);
    replaceInside(value, load);
    mapping.map(value, load);
  }
  for (Operation *op : rebuilt) {
    Operation *copy = inside.clone(*op, mapping);
    replaceInside(op->getResult(0), copy->getResult(0));
  }
  SmallVector<Operation *> toErase;
  region.walk([&](Operation *op) {
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      if (call.getCallee() == kThreadNumber) {
        call.getResult().replaceAllUsesWith(thread);
        toErase.push_back(call);
      }
    } else if (isa<omp::TerminatorOp>(op)) {
      OpBuilder at(op);
      LLVM::ReturnOp::create(at, op->getLoc(), ValueRange{});
      toErase.push_back(op);
    }
  });
  for (Operation *op : toErase)
    op->erase();

  OpBuilder module(parent);
  module.setInsertionPointAfter(after);
  auto outlined = LLVM::LLVMFuncOp::create(
      module, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {ptr, i32}),
      LLVM::Linkage::Internal);
  outlined.getBody().takeBody(region);
  parallel.erase();
  after = outlined;
}

struct OutlineParallelRegionsPass
    : public polyblocks::impl::PBOutlineParallelRegionsBase<
          OutlineParallelRegionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::ParallelOp> regions;
    module->walk([&](omp::ParallelOp parallel) {
      if (isOutlinable(parallel))
        regions.push_back(parallel);
    });
    if (regions.empty())
      return;
    LLVM::LLVMFuncOp runRegion = getOrDeclareRunRegion(module);
    // Per function: how many regions it had, and the last one outlined
    // (the next goes after it).
    llvm::DenseMap<Operation *, std::pair<unsigned, Operation *>> outlined;
    for (omp::ParallelOp parallel : regions) {
      auto parent = parallel->getParentOfType<LLVM::LLVMFuncOp>();
      auto &[count, after] =
          outlined.try_emplace(parent, 0u, parent.getOperation()).first->second;
      std::string name;
      do {
        name = (parent.getSymName() + ".parallel" + Twine(count++)).str();
      } while (module.lookupSymbol(name));
      outline(parallel, runRegion, name, after);
    }
    // The regions were OpenMP's only callers of the thread number.
    if (auto threadNumber =
            module.lookupSymbol<LLVM::LLVMFuncOp>(kThreadNumber))
      if (threadNumber.isExternal() &&
          SymbolTable::symbolKnownUseEmpty(threadNumber, module))
        threadNumber.erase();
  }
};

} // namespace
