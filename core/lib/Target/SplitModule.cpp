//===- SplitModule.cpp - A module in parts for parallel code generation ---===//
//
// A network compiles to one function per parallel region, which holds every
// layer: LLVM optimizes and generates code for it on one thread. This file
// cuts such a module into parts that threads can take:
//
//   1. Each top-level loop of a large function (a layer's part of the
//      region, tens to thousands of instructions) becomes a function of its
//      own (LLVM's CodeExtractor), never inlined back, called where the loop
//      was; a loop too large for the parts to balance that holds several
//      (a batch's images around the leading layers) gives its loops instead.
//   2. Loops equal but for the global variables they read (layers of one
//      shape, each with its own weights) become one function, the globals
//      its parameters, called from each site: compiled once.
//   3. The loops are dealt out to the parts, largest first, each to the part
//      with the fewest instructions so far; part 0 keeps everything else
//      (the entry points, the regions' remaining code, the thread pool, the
//      weights), its weights' writing counted as instructions too unless
//      no part writes them (emitObjects detaches them for x86-64 ELF:
//      ConstantSection.cpp).
//   4. What a moved loop refers to and was local to the module (weights,
//      the work-claim functions) is made external and hidden under a name
//      unique to the module's entry points, as are the moved loops, so that
//      the parts' objects link to each other and to nothing else.
//   5. Parts 1.. are cloned (definitions of their loops, declarations of
//      what they use) and written as bitcode, to be read into a context of
//      their own on another thread; part 0 keeps its definitions and
//      declares the moved loops.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Target/CPUTarget.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/FunctionComparator.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <functional>

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

/// Bytes of the constant data `module` defines (a network's weights), which
/// part 0 keeps and writes when they are not detached.
uint64_t countConstantBytes(const Module &module) {
  const DataLayout &layout = module.getDataLayout();
  uint64_t bytes = 0;
  for (const GlobalVariable &global : module.globals())
    if (global.isConstant() && global.hasInitializer())
      bytes += layout.getTypeAllocSize(global.getValueType()).getFixedValue();
  return bytes;
}

/// Appends to `large` the loops to outline for `loop`: itself, or, when it
/// is larger than `share` and holds several large loops (a loop over the
/// images of a batch around the leading layers), theirs: the parts then
/// balance, and its layers can merge with the equal ones after it.
void collectLoopsToOutline(Loop *loop, uint64_t share,
                           SmallVectorImpl<Loop *> &large) {
  uint64_t size = countInstructions(*loop);
  if (size < kMinLoopInstructions)
    return;
  auto isLarge = [](Loop *inner) {
    return countInstructions(*inner) >= kMinLoopInstructions;
  };
  if (size > share && llvm::count_if(loop->getSubLoops(), isLarge) >= 2) {
    for (Loop *inner : loop->getSubLoops())
      collectLoopsToOutline(inner, share, large);
    return;
  }
  large.push_back(loop);
}

/// Extracts the large top-level loops of `fn` (or the large loops inside
/// one larger than `share`) into noinline functions; appends them to
/// `outlined`.
void outlineLoops(Function &fn, uint64_t share,
                  SmallVectorImpl<Function *> &outlined) {
  DominatorTree dominators(fn);
  LoopInfo loops(dominators);
  // LoopInfo lists top-level loops last to first.
  SmallVector<Loop *> large;
  for (Loop *loop : llvm::reverse(loops))
    collectLoopsToOutline(loop, share, large);
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

/// The global values `fn` refers to, through constant expressions too, in
/// the order of their first use.
SmallVector<GlobalValue *> getReferencedGlobals(Function &fn) {
  SmallVector<GlobalValue *> globals;
  DenseSet<const Constant *> seen;
  std::function<void(Constant *)> visit = [&](Constant *constant) {
    if (!seen.insert(constant).second)
      return;
    if (auto *global = dyn_cast<GlobalValue>(constant)) {
      globals.push_back(global);
      return;
    }
    for (Use &use : constant->operands())
      if (auto *inner = dyn_cast<Constant>(use.get()))
        visit(inner);
  };
  for (Instruction &inst : instructions(fn))
    for (Value *operand : inst.operands())
      if (auto *constant = dyn_cast<Constant>(operand))
        visit(constant);
  return globals;
}

/// Rewrites `fn`, an outlined nest with one call, to take the global
/// variables it refers to as trailing parameters, passed by its caller:
/// nests of layers alike but for their weights then become equal
/// functions. A parameter keeps what the global told LLVM: its alignment,
/// its size as dereferenceable bytes, and, for a constant, that nothing
/// writes it (readonly, noalias). Returns the new function (`fn` itself
/// when it refers to no global variable or has other uses).
Function *parameterizeGlobals(Function &fn) {
  if (!fn.hasOneUse())
    return &fn;
  auto *call = dyn_cast<CallInst>(fn.user_back());
  if (!call || call->getCalledFunction() != &fn)
    return &fn;
  SmallVector<GlobalVariable *> globals;
  for (GlobalValue *global : getReferencedGlobals(fn))
    if (auto *variable = dyn_cast<GlobalVariable>(global))
      globals.push_back(variable);
  if (globals.empty())
    return &fn;
  SmallVector<Constant *> constants(globals.begin(), globals.end());
  convertUsersOfConstantsToInstructions(constants, &fn);

  const DataLayout &layout = fn.getDataLayout();
  SmallVector<Type *> params(fn.getFunctionType()->params());
  for (GlobalVariable *global : globals)
    params.push_back(global->getType());
  auto *type =
      FunctionType::get(fn.getReturnType(), params, /*isVarArg=*/false);
  Function *nest = Function::Create(type, fn.getLinkage(), fn.getAddressSpace(),
                                    "", fn.getParent());
  nest->copyAttributesFrom(&fn);
  nest->takeName(&fn);
  LLVMContext &context = fn.getContext();
  AttributeList attributes = fn.getAttributes();
  for (auto [i, global] : llvm::enumerate(globals)) {
    unsigned index = fn.arg_size() + i;
    AttrBuilder builder(context);
    builder.addAttribute(Attribute::NonNull);
    builder.addAlignmentAttr(global->getPointerAlignment(layout));
    if (global->getValueType()->isSized())
      builder.addDereferenceableAttr(
          layout.getTypeAllocSize(global->getValueType()).getFixedValue());
    if (global->isConstant()) {
      builder.addAttribute(Attribute::NoAlias);
      builder.addAttribute(Attribute::ReadOnly);
    }
    attributes = attributes.addParamAttributes(context, index, builder);
  }
  nest->setAttributes(attributes);

  nest->splice(nest->end(), &fn);
  for (auto [from, to] : llvm::zip(fn.args(), nest->args())) {
    from.replaceAllUsesWith(&to);
    to.takeName(&from);
  }
  for (auto [i, global] : llvm::enumerate(globals)) {
    Argument *arg = nest->getArg(fn.arg_size() + i);
    global->replaceUsesWithIf(arg, [&](Use &use) {
      auto *user = dyn_cast<Instruction>(use.getUser());
      return user && user->getFunction() == nest;
    });
  }

  SmallVector<Value *> args(call->args());
  args.append(globals.begin(), globals.end());
  auto *newCall = CallInst::Create(nest, args, "", call->getIterator());
  newCall->setCallingConv(call->getCallingConv());
  newCall->setDebugLoc(call->getDebugLoc());
  newCall->takeName(call);
  call->replaceAllUsesWith(newCall);
  call->eraseFromParent();
  fn.eraseFromParent();
  return nest;
}

/// Merges the nests in `outlined` that are equal once their global
/// variables are parameters (layers of one shape with their own weights):
/// each such group keeps its first nest, called from every site.
void mergeEqualNests(SmallVectorImpl<Function *> &outlined) {
  // Candidates: nests alike in structure (the hash ignores operands).
  MapVector<std::pair<stable_hash, uint64_t>, SmallVector<unsigned>> alike;
  for (auto [i, fn] : llvm::enumerate(outlined))
    alike[{StructuralHash(*fn), countInstructions(*fn)}].push_back(i);
  SetVector<Function *> merged;
  for (SmallVector<unsigned> &indices : llvm::make_second_range(alike)) {
    if (indices.size() < 2)
      continue;
    SmallVector<Function *> kept;
    for (unsigned i : indices) {
      Function *nest = parameterizeGlobals(*outlined[i]);
      outlined[i] = nest;
      GlobalNumberState numbers;
      Function *equal = nullptr;
      for (Function *candidate : kept)
        if (FunctionComparator(candidate, nest, &numbers).compare() == 0) {
          equal = candidate;
          break;
        }
      if (!equal) {
        kept.push_back(nest);
        continue;
      }
      nest->replaceAllUsesWith(equal);
      merged.insert(nest);
    }
  }
  if (merged.empty())
    return;
  llvm::erase_if(outlined, [&](Function *fn) { return merged.contains(fn); });
  for (Function *fn : merged)
    fn->eraseFromParent();
}

} // namespace

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

void externalizeHidden(GlobalValue &global, StringRef tag) {
  if (global.hasLocalLinkage()) {
    std::string name = global.hasName() ? global.getName().str() : "unnamed";
    global.setName(name + ".pb." + tag);
  }
  global.setLinkage(GlobalValue::ExternalLinkage);
  global.setVisibility(GlobalValue::HiddenVisibility);
  global.setDSOLocal(true);
}

std::vector<SmallVector<char, 0>> splitModule(Module &module,
                                              const CodegenSplit &split) {
  unsigned parts = split.parts;
  uint64_t minInstructions = split.minInstructions;
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
  // A loop of half a part's share of the module still balances, dealt
  // out first; larger ones are outlined by the loops they hold.
  uint64_t share = total / parts / 2;
  for (Function *fn : candidates)
    outlineLoops(*fn, share, outlined);

  // 2. Equal loops, one function.
  mergeEqualNests(outlined);
  if (outlined.size() < 2)
    return moved;

  // 3. Largest first, each to the lightest part; part 0 starts with all the
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
  if (split.constantBytesPerInstruction)
    load[0] += countConstantBytes(module) / split.constantBytesPerInstruction;
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

  // 4. What the moved loops use, and the loops themselves, visible across
  // parts.
  std::string tag = getModuleTag(module);
  DenseSet<GlobalValue *> shared;
  for (unsigned p = 1; p < parts; ++p)
    for (Function *fn : members[p]) {
      shared.insert(fn);
      shared.insert_range(getReferencedGlobals(*fn));
    }
  // In module order, for the same names every time.
  SmallVector<GlobalValue *> toExternalize;
  for (GlobalValue &global : module.global_values())
    if (global.hasLocalLinkage() && shared.contains(&global))
      toExternalize.push_back(&global);
  for (GlobalValue *global : toExternalize)
    externalizeHidden(*global, tag);

  // 5. Parts 1..: their loops' definitions, as bitcode.
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
