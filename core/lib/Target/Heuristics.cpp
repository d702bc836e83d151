//===- Heuristics.cpp - What the machine model decides --------------------===//

#include "polyblocks/Target/Heuristics.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace polyblocks {

RegisterTile chooseRegisterTile(const CPUModel &cpu) {
  unsigned lanes = cpu.getF32Lanes();
  unsigned nr = 2 * lanes;
  unsigned panelRegisters = nr / lanes;
  unsigned mr =
      cpu.numVectorRegisters > panelRegisters + 1
          ? (cpu.numVectorRegisters - panelRegisters - 1) / panelRegisters
          : 1;
  unsigned kc = std::max(16u, cpu.l1CacheKiB * 1024 / (nr * 4));
  return RegisterTile{std::max(1u, mr), nr, kc, cpu.l2CacheKiB};
}

StreamedMatmul chooseStreamedMatmul(const CPUModel &cpu) {
  return StreamedMatmul{std::max(1u, cpu.numVectorRegisters / 2),
                        cpu.l2CacheKiB, std::max(1u, cpu.numThreads),
                        cpu.vectorBits};
}

unsigned chooseFusionCacheKiB(const CPUModel &cpu) { return cpu.l2CacheKiB; }

uint64_t chooseThreadsPerBlock(const GPUChipModel &chip, uint64_t iterations,
                               unsigned maxThreads) {
  uint64_t warps = llvm::alignTo(iterations, chip.warpSize);
  return std::min<uint64_t>(llvm::alignTo(maxThreads, chip.warpSize), warps);
}

} // namespace polyblocks
