//===- MarkNoAlias.cpp - Entry-point buffers do not alias -----------------===//
//
// Records the interface contract that result buffers overlap no other
// argument as `llvm.noalias` on the memref arguments of public functions.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-mark-noalias"

namespace polyblocks {
#define GEN_PASS_DEF_PBMARKNOALIAS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct MarkNoAliasPass
    : public polyblocks::impl::PBMarkNoAliasBase<MarkNoAliasPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      for (BlockArgument arg : func.getArguments())
        if (isa<MemRefType>(arg.getType()))
          func.setArgAttr(arg.getArgNumber(),
                          LLVM::LLVMDialect::getNoAliasAttrName(),
                          builder.getUnitAttr());
    }
  }
};
} // namespace
