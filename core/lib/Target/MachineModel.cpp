//===- MachineModel.cpp - The machines PolyBlocks plans for ---------------===//

#include "polyblocks/Target/MachineModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace polyblocks {

std::optional<TargetKind> parseTargetKind(llvm::StringRef name) {
  if (name == "cpu")
    return TargetKind::CPU;
  if (name == "nvgpu")
    return TargetKind::NVGPU;
  if (name == "amdgpu")
    return TargetKind::AMDGPU;
  return std::nullopt;
}

llvm::StringRef getTargetKindName(TargetKind kind) {
  switch (kind) {
  case TargetKind::CPU:
    return "cpu";
  case TargetKind::NVGPU:
    return "nvgpu";
  case TargetKind::AMDGPU:
    return "amdgpu";
  }
  llvm_unreachable("unknown target kind");
}

bool CPUModel::operator==(const CPUModel &other) const {
  return vectorBits == other.vectorBits &&
         numVectorRegisters == other.numVectorRegisters &&
         l1CacheKiB == other.l1CacheKiB && l1Ways == other.l1Ways &&
         l2CacheKiB == other.l2CacheKiB && l3CacheKiB == other.l3CacheKiB &&
         numThreads == other.numThreads &&
         cacheLineBytes == other.cacheLineBytes;
}

//===----------------------------------------------------------------------===//
// GPU chips
//===----------------------------------------------------------------------===//

// Shared memory: the most one block may use (opt-in) on NVIDIA chips; the
// LDS of a workgroup on AMD chips. Every listed NVIDIA chip has tensor
// cores and is covered by PTX 8.0.
static const GPUChipModel kGPUChips[] = {
    {"sm_70", TargetKind::NVGPU, 32, 96, MatrixUnit::NVIDIAWMMA, "Volta"},
    {"sm_72", TargetKind::NVGPU, 32, 96, MatrixUnit::NVIDIAWMMA, "Xavier"},
    {"sm_75", TargetKind::NVGPU, 32, 64, MatrixUnit::NVIDIAWMMA, "Turing"},
    {"sm_80", TargetKind::NVGPU, 32, 163, MatrixUnit::NVIDIAWMMA, "A100"},
    {"sm_86", TargetKind::NVGPU, 32, 99, MatrixUnit::NVIDIAWMMA,
     "Ampere (GA10x)"},
    {"sm_87", TargetKind::NVGPU, 32, 163, MatrixUnit::NVIDIAWMMA, "Orin"},
    {"sm_89", TargetKind::NVGPU, 32, 99, MatrixUnit::NVIDIAWMMA, "Ada"},
    {"sm_90", TargetKind::NVGPU, 32, 227, MatrixUnit::NVIDIAWMMA, "H100"},
    {"sm_90a", TargetKind::NVGPU, 32, 227, MatrixUnit::NVIDIAWMMA,
     "H100 (architecture-specific features)"},
    {"gfx90a", TargetKind::AMDGPU, 64, 64, MatrixUnit::AMDMFMA,
     "CDNA2 (MI200)"},
    {"gfx942", TargetKind::AMDGPU, 64, 64, MatrixUnit::AMDMFMA,
     "CDNA3 (MI300)"},
    {"gfx1100", TargetKind::AMDGPU, 32, 64, MatrixUnit::AMDWMMA,
     "RDNA3 (RX 7900)"},
};

llvm::ArrayRef<GPUChipModel> getGPUChips() { return kGPUChips; }

const GPUChipModel *lookupGPUChip(TargetKind target, llvm::StringRef chip) {
  for (const GPUChipModel &model : kGPUChips)
    if (model.target == target && model.chip == chip)
      return &model;
  return nullptr;
}

llvm::StringRef getDefaultChip(TargetKind target) {
  return target == TargetKind::AMDGPU ? "gfx90a" : "sm_80";
}

std::string getGPUChipList(TargetKind target) {
  std::string list;
  for (const GPUChipModel &model : kGPUChips)
    if (model.target == target)
      list += (list.empty() ? "" : ", ") + model.chip.str();
  return list;
}

//===----------------------------------------------------------------------===//
// The model in the IR
//===----------------------------------------------------------------------===//

DictionaryAttr MachineModel::toAttr(MLIRContext *context) const {
  return DictionaryAttr::get(context, toFields(context));
}

SmallVector<NamedAttribute> MachineModel::toFields(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("target", b.getStringAttr(getTargetKindName(target))),
      b.getNamedAttr("vector_bits", b.getI64IntegerAttr(cpu.vectorBits)),
      b.getNamedAttr("vector_registers",
                     b.getI64IntegerAttr(cpu.numVectorRegisters)),
      b.getNamedAttr("l1_kib", b.getI64IntegerAttr(cpu.l1CacheKiB)),
      b.getNamedAttr("l1_ways", b.getI64IntegerAttr(cpu.l1Ways)),
      b.getNamedAttr("l2_kib", b.getI64IntegerAttr(cpu.l2CacheKiB)),
      b.getNamedAttr("l3_kib", b.getI64IntegerAttr(cpu.l3CacheKiB)),
      b.getNamedAttr("threads", b.getI64IntegerAttr(cpu.numThreads)),
      b.getNamedAttr("line_bytes", b.getI64IntegerAttr(cpu.cacheLineBytes)),
  };
  if (gpu)
    fields.push_back(b.getNamedAttr("chip", b.getStringAttr(gpu->chip)));
  return fields;
}

std::optional<MachineModel> MachineModel::fromAttr(DictionaryAttr attr) {
  MachineModel model;
  if (auto target = attr.getAs<StringAttr>("target")) {
    std::optional<TargetKind> kind = parseTargetKind(target.getValue());
    if (!kind)
      return std::nullopt;
    model.target = *kind;
  }
  auto read = [&](StringRef name, unsigned &field) {
    if (auto value = attr.getAs<IntegerAttr>(name))
      field = static_cast<unsigned>(value.getInt());
  };
  read("vector_bits", model.cpu.vectorBits);
  read("vector_registers", model.cpu.numVectorRegisters);
  read("l1_kib", model.cpu.l1CacheKiB);
  read("l1_ways", model.cpu.l1Ways);
  read("l2_kib", model.cpu.l2CacheKiB);
  read("l3_kib", model.cpu.l3CacheKiB);
  read("threads", model.cpu.numThreads);
  read("line_bytes", model.cpu.cacheLineBytes);
  if (isGPUTarget(model.target)) {
    auto chip = attr.getAs<StringAttr>("chip");
    model.gpu = lookupGPUChip(
        model.target, chip ? chip.getValue() : getDefaultChip(model.target));
    if (!model.gpu)
      return std::nullopt;
  }
  return model;
}

MachineModel getMachineModel(Operation *op) {
  DictionaryAttr found;
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (auto attr = scope->getAttrOfType<DictionaryAttr>(kMachineModelAttrName))
      found = attr;
  if (found)
    if (std::optional<MachineModel> model = MachineModel::fromAttr(found))
      return *model;
  return MachineModel();
}

void setMachineModel(Operation *module, const MachineModel &model) {
  module->setAttr(kMachineModelAttrName, model.toAttr(module->getContext()));
}

} // namespace polyblocks
