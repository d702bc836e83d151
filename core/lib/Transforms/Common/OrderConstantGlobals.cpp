//===- OrderConstantGlobals.cpp - Constants' globals in program order -----===//
//
// One-shot bufferization turns every tensor constant into a private
// `memref.global` named `__constant_<shape>x<type>` (with `_0`, `_1`, ...
// for further ones of that type) at the top of the module. It visits the
// functions in an order that can change from run to run, so the globals'
// order and their suffixes did too: the same program gave different IR and
// object files. This pass renames those globals and orders them by their
// first use in the module, which depends on the program only.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "pb-order-constant-globals"

namespace polyblocks {
#define GEN_PASS_DEF_PBORDERCONSTANTGLOBALS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

constexpr StringLiteral kPrefix = "__constant_";

/// True for a global that bufferization made of a tensor constant.
static bool isConstantGlobal(memref::GlobalOp global) {
  return global.getConstant() && global.isPrivate() &&
         global.getSymName().starts_with(kPrefix) &&
         global.getInitialValue().has_value();
}

/// `__constant_<d0>x<d1>x...x<element type>`, bufferization's name without
/// its uniquing suffix.
static std::string getBaseName(memref::GlobalOp global) {
  std::string name = kPrefix.str();
  llvm::raw_string_ostream os(name);
  MemRefType type = global.getType();
  for (int64_t size : type.getShape())
    os << size << "x";
  os << type.getElementType();
  return name;
}

struct OrderConstantGlobalsPass
    : public polyblocks::impl::PBOrderConstantGlobalsBase<
          OrderConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    // The constants' globals by first use, then unused ones in module order.
    llvm::SetVector<memref::GlobalOp> ordered;
    module.walk([&](memref::GetGlobalOp get) {
      auto global = table.lookup<memref::GlobalOp>(get.getName());
      if (global && isConstantGlobal(global))
        ordered.insert(global);
    });
    for (auto global : module.getOps<memref::GlobalOp>())
      if (isConstantGlobal(global))
        ordered.insert(global);

    if (ordered.empty())
      return;

    // The new names, in that order: every old name leaves the table first,
    // so that a new name never meets an old one.
    SmallVector<memref::GlobalOp> globals = ordered.takeVector();
    llvm::DenseMap<StringAttr, StringAttr> renamed;
    for (memref::GlobalOp global : globals)
      table.remove(global);
    Operation *previous = nullptr;
    for (memref::GlobalOp global : globals) {
      StringAttr old = global.getSymNameAttr();
      std::string base = getBaseName(global);
      std::string name = base;
      for (unsigned suffix = 0; table.lookup(name); ++suffix)
        name = base + "_" + std::to_string(suffix);
      global.setSymName(name);
      // At the top of the module, in that order.
      if (previous)
        global->moveAfter(previous);
      else
        global->moveBefore(&module.getBody()->front());
      previous = global;
      renamed[old] = table.insert(global);
    }
    // The uses, in one walk over the module.
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      auto it = renamed.find(ref.getRootReference());
      if (it == renamed.end())
        return std::nullopt;
      return SymbolRefAttr::get(it->second, ref.getNestedReferences());
    });
    replacer.recursivelyReplaceElementsIn(module);
  }
};

} // namespace
