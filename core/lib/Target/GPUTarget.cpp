//===- GPUTarget.cpp - The device code of GPU targets ---------------------===//

#include "polyblocks/Target/GPUTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace polyblocks {

llvm::ArrayRef<DeviceCodeKind> getDeviceCodeKinds() {
  static const DeviceCodeKind kKinds[] = {
      {"ptx", TargetKind::NVGPU, "isa", "NVIDIA PTX", "PTX"},
      {"cubin", TargetKind::NVGPU, "bin", "an NVIDIA cubin", "cubin"},
      {"hsaco", TargetKind::AMDGPU, "bin", "an AMD code object", "HSACO"},
      {"amdgcn", TargetKind::AMDGPU, "isa", "AMD GPU assembly", "amdgcn"}};
  return kKinds;
}

const DeviceCodeKind *findDeviceCodeKind(llvm::StringRef name) {
  for (const DeviceCodeKind &kind : getDeviceCodeKinds())
    if (kind.name == name)
      return &kind;
  return nullptr;
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
