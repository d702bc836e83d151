//===- MachineModel.h - The machines PolyBlocks plans for -------*- C++ -*-===//
//
// One home for every parameter of the target that a pass decides with: the
// CPU's vectors, registers, caches and threads, and, per GPU chip, the warp
// (wavefront) size, shared memory and matrix unit. The pipeline attaches the
// model of its target to the module (`pb.machine`); passes read it from
// there (getMachineModel), their options overriding single parameters. The
// decisions made from it live in Heuristics.h.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TARGET_MACHINEMODEL_H
#define POLYBLOCKS_TARGET_MACHINEMODEL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace polyblocks {

/// Code generation targets.
enum class TargetKind { CPU, NVGPU, AMDGPU };
std::optional<TargetKind> parseTargetKind(llvm::StringRef name);
llvm::StringRef getTargetKindName(TargetKind kind);
inline bool isGPUTarget(TargetKind kind) { return kind != TargetKind::CPU; }

/// The CPU that S3's models plan for. The defaults are a generic AVX2 core.
struct CPUModel {
  /// Width of the vector registers, in bits, and how many there are.
  unsigned vectorBits = 256;
  unsigned numVectorRegisters = 16;
  /// One core's level-1 data cache and level-2 cache, in KiB.
  unsigned l1CacheKiB = 32;
  unsigned l2CacheKiB = 512;
  /// Threads the parallel loops run on.
  unsigned numThreads = 8;
  /// Cache line size, in bytes.
  unsigned cacheLineBytes = 64;
  /// The level-1 data cache's associativity (lines per set).
  unsigned l1Ways = 8;
  /// The last-level cache the cores share, in KiB (0: none known).
  unsigned l3CacheKiB = 8192;

  /// f32 lanes of one vector register.
  unsigned getF32Lanes() const { return vectorBits / 32 ? vectorBits / 32 : 1; }
  bool operator==(const CPUModel &other) const;
};

/// The matrix instructions of a GPU.
enum class MatrixUnit {
  None,
  /// NVIDIA tensor cores through WMMA m16n16k16 (sm_70 and newer).
  NVIDIAWMMA,
  /// AMD CDNA matrix cores: MFMA 16x16x16, 64-lane wavefronts.
  AMDMFMA,
  /// AMD RDNA3: WMMA 16x16x16, 32 lanes.
  AMDWMMA,
};

/// One GPU chip.
struct GPUChipModel {
  llvm::StringLiteral chip; ///< "sm_80", "gfx90a"
  TargetKind target;        ///< NVGPU or AMDGPU
  unsigned warpSize;        ///< threads of a warp (wavefront)
  unsigned sharedMemoryKiB; ///< shared memory (LDS) per block
  MatrixUnit matrixUnit;
  llvm::StringLiteral description;
};

/// Every GPU chip PolyBlocks compiles for, NVIDIA then AMD.
llvm::ArrayRef<GPUChipModel> getGPUChips();
/// The chip named `chip` for `target`, or null.
const GPUChipModel *lookupGPUChip(TargetKind target, llvm::StringRef chip);
/// The chip a GPU target compiles for when none is named.
llvm::StringRef getDefaultChip(TargetKind target);
/// "sm_70, sm_72, ..." for messages.
std::string getGPUChipList(TargetKind target);

/// The machine a compilation targets: the host CPU, whose code launches
/// GPU kernels too, and the GPU chip of a GPU target.
struct MachineModel {
  TargetKind target = TargetKind::CPU;
  CPUModel cpu;
  /// Set for GPU targets.
  const GPUChipModel *gpu = nullptr;

  /// The model as the `pb.machine` attribute:
  /// {target = "cpu", vector_bits = 512, vector_registers = 32,
  ///  l1_kib = 48, l1_ways = 12, l2_kib = 2048, threads = 2, line_bytes = 64
  ///  [, chip = "gfx90a"]}.
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// Its fields, in the order above (a DictionaryAttr sorts them).
  llvm::SmallVector<mlir::NamedAttribute>
  toFields(mlir::MLIRContext *context) const;
  /// Reads a `pb.machine` attribute; fields it lacks keep their defaults.
  /// Fails on an unknown target or chip.
  static std::optional<MachineModel> fromAttr(mlir::DictionaryAttr attr);
};

/// The name of the module attribute holding the machine model.
inline constexpr llvm::StringLiteral kMachineModelAttrName = "pb.machine";

/// The machine model of the module enclosing `op` (the outermost one with
/// a `pb.machine` attribute), or the default model when there is none.
MachineModel getMachineModel(mlir::Operation *op);

/// Sets `module`'s `pb.machine` attribute.
void setMachineModel(mlir::Operation *module, const MachineModel &model);

} // namespace polyblocks

#endif // POLYBLOCKS_TARGET_MACHINEMODEL_H
