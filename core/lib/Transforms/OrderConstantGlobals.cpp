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

    SmallVector<memref::GlobalOp> globals = ordered.takeVector();
    // Names that none of them can hold yet, so that renaming one never
    // meets another's old name; then the final names in that order, and
    // the globals at the top of the module in that order.
    for (auto [index, global] : llvm::enumerate(globals))
      if (failed(table.rename(global, (kPrefix + "unordered_" + Twine(index) +
                                       "_" + global.getSymName())
                                          .str())))
        return signalPassFailure();
    Operation *previous = nullptr;
    for (memref::GlobalOp global : globals) {
      std::string base = getBaseName(global);
      std::string name = base;
      for (unsigned suffix = 0; table.lookup(name); ++suffix)
        name = base + "_" + std::to_string(suffix);
      if (failed(table.rename(global, name)))
        return signalPassFailure();
      if (previous)
        global->moveAfter(previous);
      else
        global->moveBefore(&module.getBody()->front());
      previous = global;
    }
  }
};

} // namespace
