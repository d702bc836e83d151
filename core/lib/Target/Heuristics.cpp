//===- Heuristics.cpp - What the machine model decides --------------------===//

#include "polyblocks/Target/Heuristics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cstdlib>

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
  RegisterTile tile;
  tile.rows = std::max(1u, mr);
  tile.columns = nr;
  tile.kBlock = kc;
  // All of L2, not half: on Zen 3 (512 KiB) 128 rows by K = 768 then take
  // one block, C stored once (bench/RESULTS.md: 0.87 of the time with half
  // at 128 x 768 x 768 by an argument, no shape slower).
  tile.kBlockCacheKiB = cpu.l2CacheKiB;
  tile.packRowsAboveKiB = cpu.l2CacheKiB;
  tile.prefetchPanelsAboveKiB = cpu.l2CacheKiB;
  tile.columnsOutsideAboveKiB = cpu.l2CacheKiB / 2;
  tile.rowBlockKiB = cpu.l2CacheKiB / 2;
  // Measured on AVX2's 6 x 16 tile (12 multiply-adds per panel row), where
  // the panel read whole from L2 by each tile held the multiply-adds to
  // 61 % of the peak; AVX-512's 14 x 32 tile (28 per row) reached 83-99 %
  // with it (bench/RESULTS.md): there the reduction stays whole.
  tile.panelBlockKiB =
      cpu.numVectorRegisters >= 32 ? 0 : std::max(1u, cpu.l1CacheKiB / 2);
  tile.partialSumsKiB = std::max(1u, cpu.l1CacheKiB / 4);
  tile.threads = std::max(1u, cpu.numThreads);
  return tile;
}

int64_t getKBlockLimit(const RegisterTile &tile, int64_t rows, int64_t columns,
                       int64_t elementBytes) {
  int64_t bytesPerK =
      (std::max<int64_t>(rows, 1) + std::max<int64_t>(columns, 1)) *
      std::max<int64_t>(1, elementBytes);
  int64_t fits = int64_t(tile.kBlockCacheKiB) * 1024 / bytesPerK;
  return std::max<int64_t>(tile.kBlock, fits);
}

std::vector<unsigned> splitIntoVectors(unsigned width, unsigned lanes) {
  std::vector<unsigned> vectors(width / lanes, lanes);
  for (unsigned rest = width % lanes, piece = lanes / 2; rest; piece /= 2)
    if (rest >= piece) {
      vectors.push_back(piece);
      rest -= piece;
    }
  return vectors;
}

std::optional<TileColumns> chooseTileColumns(const CPUModel &cpu,
                                             const RegisterTile &tile,
                                             int64_t n, unsigned elementBits) {
  return chooseTileColumns(cpu, tile.columns * 32 / std::max(1u, elementBits),
                           tile.rows, n, elementBits);
}

std::optional<TileColumns> chooseTileColumns(const CPUModel &cpu,
                                             unsigned columns, unsigned rows,
                                             int64_t n, unsigned elementBits) {
  unsigned lanes = std::max(1u, cpu.vectorBits / std::max(1u, elementBits));
  rows = std::max(1u, rows);
  if (columns != 0 && n % columns == 0)
    return TileColumns{columns, rows, {columns}};
  constexpr unsigned kMinColumns = 4;
  std::optional<TileColumns> best;
  double bestLanesPerCycle = 0;
  for (unsigned width = kMinColumns; width <= 3 * lanes && width <= n;
       width += kMinColumns) {
    if (n % width != 0)
      continue;
    std::vector<unsigned> vectors = splitIntoVectors(width, lanes);
    unsigned registers = vectors.size();
    unsigned free = cpu.numVectorRegisters > registers + 1
                        ? cpu.numVectorRegisters - registers - 1
                        : 1;
    unsigned tileRows = std::clamp(free / registers, 1u, rows);
    double cycles = std::max(tileRows * registers, tileRows + registers);
    double lanesPerCycle = tileRows * width / cycles;
    // Ties go to the wider tile (fewer column tiles).
    if (lanesPerCycle >= bestLanesPerCycle) {
      bestLanesPerCycle = lanesPerCycle;
      best = TileColumns{width, tileRows, std::move(vectors)};
    }
  }
  return best;
}

unsigned limitRowsToCacheSets(const CPUModel &cpu, int64_t rowStrideBytes,
                              unsigned rows) {
  int64_t line = std::max(1u, cpu.cacheLineBytes);
  int64_t ways = std::max(1u, cpu.l1Ways);
  int64_t sets =
      std::max<int64_t>(1, int64_t(cpu.l1CacheKiB) * 1024 / (ways * line));
  int64_t allowed = std::max<int64_t>(1, ways - 2);
  int64_t stride = std::abs(rowStrideBytes);
  // The rows' lines (a row's element at the same k), by set: the tile of
  // the first `n` rows fits while no set holds more than `allowed` lines.
  llvm::DenseMap<int64_t, llvm::SmallDenseSet<int64_t, 4>> linesOfSet;
  for (unsigned n = 0; n < rows; ++n) {
    int64_t lineIndex = n * stride / line;
    auto &lines = linesOfSet[lineIndex % sets];
    lines.insert(lineIndex);
    if (int64_t(lines.size()) > allowed)
      return std::max(1u, n);
  }
  return rows;
}

DepthwiseTile chooseDepthwiseTile(const CPUModel &cpu) {
  unsigned columns =
      cpu.numVectorRegisters > 6 ? cpu.numVectorRegisters / 2 - 2 : 1;
  return DepthwiseTile{columns, cpu.getF32Lanes()};
}

WinogradTile chooseWinogradTile(const CPUModel &cpu, int64_t batch,
                                int64_t height, int64_t width,
                                int64_t inChannels, int64_t outChannels) {
  int64_t lanes = cpu.getF32Lanes();
  if (inChannels % lanes != 0 || outChannels % lanes != 0)
    return {0, 0};
  int64_t minTiles = chooseRegisterTile(cpu).rows;
  WinogradTile best{0, 0};
  // The direct convolution's 9 products per output, less the third the
  // transforms cost.
  double bestProducts = 6.0;
  for (int64_t m : {4, 2}) {
    int64_t tiles =
        batch * llvm::divideCeil(height, m) * llvm::divideCeil(width, m);
    if (tiles < minTiles)
      continue;
    double products =
        double((m + 2) * (m + 2) * tiles) / double(batch * height * width);
    if (products < bestProducts) {
      best = {unsigned(m), tiles};
      bestProducts = products;
    }
  }
  return best;
}

bool isBatchTiledActivation(const CPUModel &cpu, int64_t bytes, int64_t batch) {
  int64_t llc = int64_t(cpu.l3CacheKiB) * 1024;
  return batch > 1 && llc > 0 && bytes > llc / 4 && bytes / batch <= llc / 2;
}

int64_t chooseAttentionKeyBlock(const CPUModel &cpu, int64_t queries,
                                int64_t keys) {
  int64_t budget = int64_t(cpu.l2CacheKiB) * 1024 / 4;
  if (queries * keys * 4 <= budget)
    return keys;
  int64_t lanes = cpu.getF32Lanes();
  for (int64_t block =
           budget / (std::max<int64_t>(1, queries) * 4) / lanes * lanes;
       block >= lanes; block -= lanes)
    if (keys % block == 0)
      return block;
  return 0;
}

StreamedMatmul chooseStreamedMatmul(const CPUModel &cpu) {
  return StreamedMatmul{std::max(1u, cpu.numVectorRegisters / 2),
                        /*maxRowsByConstant=*/1, cpu.l2CacheKiB,
                        std::max(1u, cpu.numThreads), cpu.vectorBits};
}

int64_t chooseStreamedBlockColumns(int64_t m, int64_t n, int64_t elementBytes,
                                   int64_t bytes, int64_t lanes,
                                   int64_t threads) {
  threads = std::max<int64_t>(1, threads);
  auto fits = [&](int64_t width) { return m * width * elementBytes <= bytes; };
  // The widest dividing n, at least a block per thread: the wider a block,
  // the longer the contiguous runs of each row of Y a thread reads, which
  // the hardware prefetchers follow better.
  int64_t nb = 0;
  for (int64_t width = n / threads; width >= lanes && nb == 0; --width)
    if (n % width == 0 && width % lanes == 0 && fits(width))
      nb = width;
  if (nb == 0)
    return n < lanes * threads && fits(n) ? n : 0;
  if (threads < 2 || n % lanes != 0 || (n / nb) % threads == 0)
    return nb;
  // The share of the threads' time spent streaming, blocks dealt out in
  // rounds of one per thread.
  auto balance = [&](int64_t width) {
    int64_t count = llvm::divideCeil(n, width);
    return double(n) / double(llvm::alignTo(count, threads) * width);
  };
  for (int64_t count = threads; count * lanes <= n; count += threads) {
    int64_t width = llvm::alignTo(llvm::divideCeil(n, count), lanes);
    if (fits(width))
      return balance(width) > balance(nb) ? width : nb;
  }
  return nb;
}

WorkClaims chooseWorkClaims(const CPUModel &cpu, unsigned chunksPerThread) {
  int64_t threads = std::max(1u, cpu.numThreads);
  return WorkClaims{threads, 2,
                    threads * (chunksPerThread ? chunksPerThread : 8),
                    /*spinsBeforeSleep=*/1000, /*sleepMicroseconds=*/20};
}

unsigned chooseFusionCacheKiB(const CPUModel &cpu) { return cpu.l2CacheKiB; }

std::optional<int64_t> chooseProducerSliceRows(int64_t rowBytes, int64_t halo,
                                               int64_t extent,
                                               int64_t cacheBytes,
                                               unsigned maxRecomputePercent) {
  auto rowsIn = [&](int64_t bytes) {
    return bytes / std::max<int64_t>(1, rowBytes);
  };
  auto recomputesTooMuch = [&](int64_t tileRows) {
    return tileRows <= 0 ||
           halo * 100 > tileRows * static_cast<int64_t>(maxRecomputePercent);
  };
  int64_t tileRows = std::min(rowsIn(cacheBytes / 2) - halo, extent);
  if (recomputesTooMuch(tileRows) && maxRecomputePercent > 0) {
    int64_t smallest = llvm::divideCeil(halo * 100, maxRecomputePercent);
    if (smallest + halo <= rowsIn(cacheBytes))
      tileRows = std::min(smallest, extent);
  }
  if (recomputesTooMuch(tileRows))
    return std::nullopt;
  return tileRows;
}

uint64_t chooseThreadsPerBlock(const GPUChipModel &chip, uint64_t iterations,
                               unsigned maxThreads) {
  uint64_t warps = llvm::alignTo(iterations, chip.warpSize);
  return std::min<uint64_t>(llvm::alignTo(maxThreads, chip.warpSize), warps);
}

CodegenSplit chooseCodegenSplit(unsigned requested) {
  constexpr unsigned kMaxParts = 8;
  constexpr uint64_t kMinInstructions = 20000;
  constexpr uint64_t kConstantBytesPerInstruction = 64 * 1024;
  if (requested)
    return {requested, 0, kConstantBytesPerInstruction};
  unsigned threads = llvm::hardware_concurrency().compute_thread_count();
  return {std::clamp(threads, 1u, kMaxParts), kMinInstructions,
          kConstantBytesPerInstruction};
}

} // namespace polyblocks
