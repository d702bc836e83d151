//===- GPUTarget.h - The device code of GPU targets -------------*- C++ -*-===//
//
// S5 for GPUs leaves a host module in the LLVM dialect with the device
// binary (cubin, PTX or HSACO) embedded as a constant global; the host
// object is then emitted like a CPU one (CPUTarget.h). This names that
// global and reads it back, for `pbtool compile --emit=ptx|cubin`.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TARGET_GPUTARGET_H
#define POLYBLOCKS_TARGET_GPUTARGET_H

#include "polyblocks/Target/MachineModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace polyblocks {

/// Prefix of the global holding a device binary (followed by the name of
/// the gpu.binary it came from).
inline constexpr llvm::StringLiteral kDeviceImagePrefix = "__pb_gpu_image_";

/// A kind of device code that pbtool writes (--emit=<name>) and pb-lsp
/// previews (the text ones): what gpu-module-to-binary makes for a target.
struct DeviceCodeKind {
  llvm::StringLiteral name;        ///< "ptx", "cubin", "hsaco", "amdgcn"
  TargetKind target;               ///< the GPU target it belongs to
  llvm::StringLiteral format;      ///< "isa" (text) or "bin"
  llvm::StringLiteral description; ///< "NVIDIA PTX", for messages
  llvm::StringLiteral title;       ///< a short display name: "PTX"
};
llvm::ArrayRef<DeviceCodeKind> getDeviceCodeKinds();
/// The kind called `name`, or null.
const DeviceCodeKind *findDeviceCodeKind(llvm::StringRef name);

/// The device binary embedded in `module` (S5's output for a GPU target),
/// as embedded: a fatbin, cubin or HSACO, or NUL-terminated PTX. Fails when
/// the module embeds none or several.
llvm::Expected<std::string> getEmbeddedDeviceImage(mlir::ModuleOp module);

} // namespace polyblocks

#endif // POLYBLOCKS_TARGET_GPUTARGET_H
