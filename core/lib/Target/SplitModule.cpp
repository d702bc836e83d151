//===- SplitModule.cpp - A module in parts for parallel code generation ---===//
//
// A network compiles to one function per parallel region, which holds every
// layer: LLVM optimizes and generates code for it on one thread. This file
// cuts such a module into parts that threads can take:
//
//   1. Each top-level loop of a large function (a layer's part of the
//      region, tens to thousands of instructions) becomes a function of its
//      own (LLVM's CodeExtractor), never inlined back, called where the loop
//      was.
//   2. The loops are dealt out to the parts, largest first, each to the part
//      with the fewest instructions so far; part 0 keeps everything else
//      (the entry points, the regions' remaining code, the thread pool, the
//      weights).
//   3. What a moved loop refers to and was local to the module (weights,
//      the work-claim functions) is made external and hidden under a name
//      unique to the module's entry points, as are the moved loops, so that
//      the parts' objects link to each other and to nothing else.
//   4. Parts 1.. are cloned (definitions of their loops, declarations of
//      what they use) and written as bitcode, to be read into a context of
//      their own on another thread; part 0 keeps its definitions and
//      declares the moved loops.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Target/CPUTarget.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>

using namespace llvm;

namespace polyblocks {

namespace {

/// Functions smaller than this keep their loops.
constexpr uint64_t kMinInstructionsToOutline = 1000;

/// Loops smaller than this stay where they are (a call per loop is not
/// worth it, and they would not move the balance).
constexpr uint64_t kMinLoopInstructions = 50;

uint64_t countInstructions(const Function &fn) {
  uint64_t count = 0;
  for (const BasicBlock &block : fn)
    count += block.size();
  return count;
}

uint64_t countInstructions(const Loop &loop) {
  uint64_t count = 0;
  for (const BasicBlock *block : loop.blocks())
    count += block->size();
  return count;
}

/// Extracts the large top-level loops of `fn` into noinline functions;
/// appends them to `outlined`.
void outlineLoops(Function &fn, SmallVectorImpl<Function *> &outlined) {
  DominatorTree dominators(fn);
  LoopInfo loops(dominators);
  // LoopInfo lists top-level loops last to first.
  SmallVector<Loop *> large;
  for (Loop *loop : llvm::reverse(loops))
    if (countInstructions(*loop) >= kMinLoopInstructions)
      large.push_back(loop);
  // All in simplified form first: the extraction cache (a walk of the whole
  // function) then stays valid across the extractions.
  for (Loop *loop : large)
    simplifyLoop(loop, &dominators, &loops, /*SE=*/nullptr, /*AC=*/nullptr,
                 /*MSSAU=*/nullptr, /*PreserveLCSSA=*/false);
  CodeExtractorAnalysisCache cache(fn);
  unsigned index = 0;
  for (Loop *loop : large) {
    CodeExtractor extractor(loop->getBlocks(), &dominators);
    if (!extractor.isEligible())
      continue;
    Function *nest = extractor.extractCodeRegion(cache);
    if (!nest)
      continue;
    loops.erase(loop);
    nest->setName(fn.getName() + ".nest" + Twine(index++));
    nest->addFnAttr(Attribute::NoInline);
    outlined.push_back(nest);
  }
}

/// The global values `fn` refers to, through constant expressions too.
void collectReferences(Function &fn, DenseSet<GlobalValue *> &references) {
  SmallVector<const Constant *> worklist;
  DenseSet<const Constant *> seen;
  for (Instruction &inst : instructions(fn))
    for (Value *operand : inst.operands())
      if (auto *constant = dyn_cast<Constant>(operand))
        if (seen.insert(constant).second)
          worklist.push_back(constant);
  while (!worklist.empty()) {
    const Constant *constant = worklist.pop_back_val();
    if (auto *global = dyn_cast<GlobalValue>(constant)) {
      references.insert(const_cast<GlobalValue *>(global));
      continue;
    }
    for (const Use &use : constant->operands())
      if (auto *inner = dyn_cast<Constant>(use.get()))
        if (seen.insert(inner).second)
          worklist.push_back(inner);
  }
}

/// A tag unique to the module's entry points (its external definitions),
/// which no two objects linked together share.
std::string getModuleTag(const Module &module) {
  SmallVector<StringRef> names;
  for (const GlobalValue &global : module.global_values())
    if (!global.isDeclaration() && !global.hasLocalLinkage() &&
        !global.hasWeakLinkage())
      names.push_back(global.getName());
  llvm::sort(names);
  std::string joined;
  for (StringRef name : names)
    (joined += name) += '\n';
  return utohexstr(xxh3_64bits(joined), /*LowerCase=*/true);
}

/// Makes `global` visible to the other parts only: external, hidden, named
/// after the module's tag.
void externalize(GlobalValue &global, StringRef tag) {
  std::string name = global.hasName() ? global.getName().str() : "unnamed";
  global.setName(name + ".pb." + tag);
  global.setLinkage(GlobalValue::ExternalLinkage);
  global.setVisibility(GlobalValue::HiddenVisibility);
  global.setDSOLocal(true);
}

} // namespace

std::vector<SmallVector<char, 0>> splitModule(Module &module, unsigned parts,
                                              uint64_t minInstructions) {
  std::vector<SmallVector<char, 0>> moved;
  if (parts < 2)
    return moved;
  uint64_t total = 0;
  for (const Function &fn : module)
    total += countInstructions(fn);
  if (total < minInstructions)
    return moved;

  // 1. The loops of the large functions (of any function when a split is
  // asked for whatever the size), as functions.
  uint64_t minFunctionInstructions =
      minInstructions ? kMinInstructionsToOutline : 0;
  SmallVector<Function *> candidates;
  for (Function &fn : module)
    if (!fn.isDeclaration() && !fn.getName().starts_with("__pb_") &&
        countInstructions(fn) >= minFunctionInstructions)
      candidates.push_back(&fn);
  SmallVector<Function *> outlined;
  for (Function *fn : candidates)
    outlineLoops(*fn, outlined);
  if (outlined.size() < 2)
    return moved;

  // 2. Largest first, each to the lightest part; part 0 starts with all the
  // code that is not a moved loop.
  SmallVector<std::pair<uint64_t, Function *>> bySize;
  uint64_t outlinedTotal = 0;
  for (Function *fn : outlined) {
    uint64_t size = countInstructions(*fn);
    bySize.push_back({size, fn});
    outlinedTotal += size;
  }
  llvm::stable_sort(
      bySize, [](const auto &a, const auto &b) { return a.first > b.first; });
  SmallVector<uint64_t> load(parts, 0);
  for (const Function &fn : module)
    load[0] += countInstructions(fn);
  load[0] -= outlinedTotal;
  DenseMap<Function *, unsigned> partOf;
  for (auto [size, fn] : bySize) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += size;
    partOf[fn] = lightest;
  }
  SmallVector<SmallVector<Function *>> members(parts);
  for (Function *fn : outlined)
    members[partOf.lookup(fn)].push_back(fn);

  // 3. What the moved loops use, and the loops themselves, visible across
  // parts.
  std::string tag = getModuleTag(module);
  DenseSet<GlobalValue *> shared;
  for (unsigned p = 1; p < parts; ++p)
    for (Function *fn : members[p]) {
      shared.insert(fn);
      collectReferences(*fn, shared);
    }
  // In module order, for the same names every time.
  SmallVector<GlobalValue *> toExternalize;
  for (GlobalValue &global : module.global_values())
    if (global.hasLocalLinkage() && shared.contains(&global))
      toExternalize.push_back(&global);
  for (GlobalValue *global : toExternalize)
    externalize(*global, tag);

  // 4. Parts 1..: their loops' definitions, as bitcode.
  for (unsigned p = 1; p < parts; ++p) {
    if (members[p].empty())
      continue;
    DenseSet<const GlobalValue *> defined(members[p].begin(), members[p].end());
    ValueToValueMapTy mapping;
    std::unique_ptr<Module> part =
        CloneModule(module, mapping, [&](const GlobalValue *global) {
          return defined.contains(global);
        });
    // Declarations nothing in the part uses.
    SmallVector<GlobalValue *> unused;
    for (GlobalValue &global : part->global_values())
      if (global.isDeclaration() && global.use_empty())
        unused.push_back(&global);
    for (GlobalValue *global : unused)
      global->eraseFromParent();
    SmallVector<char, 0> bitcode;
    raw_svector_ostream os(bitcode);
    WriteBitcodeToFile(*part, os);
    moved.push_back(std::move(bitcode));
  }
  for (unsigned p = 1; p < parts; ++p)
    for (Function *fn : members[p])
      fn->deleteBody();
  return moved;
}

} // namespace polyblocks
