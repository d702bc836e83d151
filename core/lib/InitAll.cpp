//===- InitAll.cpp - The one PolyBlocks registry --------------------------===//

#include "polyblocks/InitAll.h"

#include "polyblocks/Dialect/TMTensor/TMTensor.h"
#include "polyblocks/Driver/CompileFlags.h"
#include "polyblocks/Pipelines/Pipelines.h"
#include "polyblocks/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <mutex>

namespace polyblocks {

void registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  // Ops of torch-mlir's exports (sort, topk, scan, scatter).
  tm_tensor::registerTMTensorDialect(registry);
  // Serialization of GPU modules into PTX / cubin and HSACO.
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
}

void registerAllPasses() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    registerPolyBlocksPasses();
    registerStagePipelines();
  });
}

} // namespace polyblocks
