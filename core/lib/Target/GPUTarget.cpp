//===- GPUTarget.cpp - The device code of GPU targets ---------------------===//

#include "polyblocks/Target/GPUTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace polyblocks {

unsigned getWavefrontSize(llvm::StringRef chip) {
  return chip.starts_with("gfx9") ? 64 : 32;
}

llvm::Expected<std::string> getEmbeddedDeviceImage(ModuleOp module) {
  std::optional<std::string> image;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!global.getSymName().starts_with(kDeviceImagePrefix))
      continue;
    auto bytes = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (image || !bytes)
      return llvm::createStringError(
          "the compiled module does not hold exactly one device binary");
    image = bytes.getValue().str();
  }
  if (!image)
    return llvm::createStringError(
        "the compiled module holds no device binary (is the target a GPU?)");
  return *image;
}

} // namespace polyblocks
