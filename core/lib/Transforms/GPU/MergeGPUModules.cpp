//===- MergeGPUModules.cpp - One GPU module per program -------------------===//
//
// Moves the kernels of every gpu.module into one, so that a program is one
// device binary.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "pb-merge-gpu-modules"

namespace polyblocks {
#define GEN_PASS_DEF_PBMERGEGPUMODULES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The name of the merged module.
constexpr llvm::StringLiteral kMergedName = "pb_kernels";

struct MergeGPUModulesPass
    : public polyblocks::impl::PBMergeGPUModulesBase<MergeGPUModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules =
        llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty())
      return;
    gpu::GPUModuleOp merged = gpuModules.front();
    SymbolTable moduleTable(module);
    if (merged.getSymName() != kMergedName) {
      if (moduleTable.lookup(kMergedName)) {
        merged.emitOpError()
            << "cannot be renamed to @" << kMergedName << ": the name is taken";
        return signalPassFailure();
      }
      moduleTable.setSymbolName(merged, kMergedName);
    }
    SymbolTable mergedTable(merged);
    // Kernels renamed on the way: (old module, old name) -> new name.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    StringAttr mergedName = merged.getNameAttr();
    for (gpu::GPUModuleOp other : llvm::drop_begin(gpuModules)) {
      for (Operation &op : llvm::make_early_inc_range(other.getOps())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          op.emitOpError("is not a symbol; cannot merge its GPU module");
          return signalPassFailure();
        }
        if (Operation *existing = mergedTable.lookup(symbol.getName())) {
          // A global outlining copied into both modules: keep one.
          if (isa<memref::GlobalOp>(op) &&
              OperationEquivalence::isEquivalentTo(
                  &op, existing, OperationEquivalence::IgnoreLocations)) {
            op.erase();
            continue;
          }
          if (!isa<gpu::GPUFuncOp>(op)) {
            op.emitOpError() << "has the same name as a symbol of @"
                             << kMergedName << "; cannot merge";
            return signalPassFailure();
          }
        }
        // Outlining names every kernel of a function alike, in modules of
        // distinct names: a kernel that clashes takes its module's name.
        StringAttr oldName = symbol.getNameAttr();
        op.remove();
        if (mergedTable.lookup(oldName) &&
            !mergedTable.lookup(other.getNameAttr()))
          symbol.setName(other.getNameAttr());
        StringAttr newName = mergedTable.insert(&op);
        renamed[{other.getNameAttr(), oldName}] = newName;
      }
      other.erase();
    }
    // Launches name the kernel as @module::@kernel.
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr name = launch.getKernelName();
      if (StringAttr newName =
              renamed.lookup({launch.getKernelModuleName(), name}))
        name = newName;
      launch.setKernelAttr(
          SymbolRefAttr::get(mergedName, {FlatSymbolRefAttr::get(name)}));
    });
  }
};

} // namespace
