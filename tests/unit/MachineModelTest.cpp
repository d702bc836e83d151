//===- MachineModelTest.cpp - The machine model and its heuristics --------===//

#include "polyblocks/Target/MachineModel.h"
#include "polyblocks/InitAll.h"
#include "polyblocks/Target/Heuristics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace polyblocks;

namespace {

/// The machines the models are checked on: a 2-core AMD Zen 3 (AVX2, 32 KiB
/// 8-way L1d, 512 KiB L2), a 2-core Intel Sapphire Rapids (AVX-512, 48 KiB
/// 12-way L1d, 2 MiB L2) and a baseline x86-64 (SSE2).
CPUModel zen3() { return CPUModel{256, 16, 32, 512, 2, 64, 8}; }
CPUModel sapphireRapids() { return CPUModel{512, 32, 48, 2048, 2, 64, 12}; }
CPUModel sse2() { return CPUModel{128, 16, 32, 256, 1, 64, 8}; }

struct RegisterTileCase {
  const char *machine;
  CPUModel cpu;
  unsigned rows, columns, kBlock, packAboveKiB, columnsOutsideAboveKiB,
      rowBlockKiB;
};

class RegisterTileTest : public ::testing::TestWithParam<RegisterTileCase> {};

// The accumulators take the registers the panel (two vectors) and one
// broadcast leave: 6 x 16 on AVX2, as BLIS's Haswell kernel; 14 x 32 on
// AVX-512. The k block fills L1d with the KC x NR panel; a convolution's
// panels loop outside its rows past half of L2; a matmul by a constant
// takes its rows in blocks of half of L2.
TEST_P(RegisterTileTest, FillsTheRegistersAndL1) {
  const RegisterTileCase &c = GetParam();
  RegisterTile tile = chooseRegisterTile(c.cpu);
  EXPECT_EQ(tile.rows, c.rows);
  EXPECT_EQ(tile.columns, c.columns);
  EXPECT_EQ(tile.kBlock, c.kBlock);
  EXPECT_EQ(tile.packRowsAboveKiB, c.packAboveKiB);
  EXPECT_EQ(tile.columnsOutsideAboveKiB, c.columnsOutsideAboveKiB);
  EXPECT_EQ(tile.rowBlockKiB, c.rowBlockKiB);
  EXPECT_EQ(tile.threads, c.cpu.numThreads);
  // The tile and the panel fit the register file.
  unsigned lanes = c.cpu.vectorBits / 32;
  EXPECT_LE(tile.rows * tile.columns / lanes + tile.columns / lanes + 1,
            c.cpu.numVectorRegisters);
}

INSTANTIATE_TEST_SUITE_P(
    Machines, RegisterTileTest,
    ::testing::Values(
        RegisterTileCase{"zen3", zen3(), 6, 16, 512, 512, 256, 256},
        RegisterTileCase{"sapphire_rapids", sapphireRapids(), 14, 32, 384, 2048,
                         1024, 1024},
        RegisterTileCase{"sse2", sse2(), 6, 8, 1024, 256, 128, 128}),
    [](const auto &info) { return std::string(info.param.machine); });

// A k block grows past the L1's while the panel (KC x NR) and the row
// factor's block (rows x KC) fit in L2: 128 rows on Sapphire Rapids (2 MiB
// L2, 32 columns: 640 bytes per k) take up to 3276; 1024 rows 496, past its
// L1 block of 384; on Zen 3 (512 KiB L2, 16 columns) 128 rows take 910
// (K = 768 in one block), 1024 rows keep the L1 block of 512.
TEST(HeuristicsTest, KBlockGrowsWhileItsBlocksFitL2) {
  RegisterTile spr = chooseRegisterTile(sapphireRapids());
  EXPECT_EQ(spr.kBlockCacheKiB, 2048u);
  EXPECT_EQ(getKBlockLimit(spr, 128, 32, 4), 3276);
  EXPECT_EQ(getKBlockLimit(spr, 1024, 32, 4), 496);
  EXPECT_EQ(getKBlockLimit(spr, 128, 32, 8), 1638);
  RegisterTile zen = chooseRegisterTile(zen3());
  EXPECT_EQ(getKBlockLimit(zen, 128, 16, 4), 910);
  EXPECT_EQ(getKBlockLimit(zen, 1024, 16, 4), 512);
  // Not at all without the cache budget (an explicit k block).
  spr.kBlockCacheKiB = 0;
  EXPECT_EQ(getKBlockLimit(spr, 128, 32, 4), 384);
}

// A row-blocked matmul's column tiles take their reductions in blocks of
// half of L1d's panel, their partial sums within a quarter of it, with
// AVX2's 6 x 16 tile; with AVX-512's 14 x 32 the reduction stays whole.
TEST(HeuristicsTest, PanelBlocksOnlyForTheAVX2Tile) {
  RegisterTile zen = chooseRegisterTile(zen3());
  EXPECT_EQ(zen.panelBlockKiB, 16u);
  EXPECT_EQ(zen.partialSumsKiB, 8u);
  EXPECT_EQ(chooseRegisterTile(sapphireRapids()).panelBlockKiB, 0u);
}

TEST(HeuristicsTest, StreamedMatmulKeepsOneAccumulatorPerRow) {
  StreamedMatmul zen = chooseStreamedMatmul(zen3());
  EXPECT_EQ(zen.maxRows, 8u);
  EXPECT_EQ(zen.cacheKiB, 512u);
  EXPECT_EQ(zen.threads, 2u);
  EXPECT_EQ(chooseStreamedMatmul(sapphireRapids()).maxRows, 16u);
  EXPECT_EQ(chooseFusionCacheKiB(sapphireRapids()), 2048u);
}

// Streamed column blocks: the widest of whole vectors dividing N with a block
// per thread (1024 on 2 threads: 512); when their count leaves threads idle
// (1000 = 5 x 200 on 2), blocks as wide as the threads split N, the last
// narrower (504 + 496; 8 threads: 7 x 128 + 104); a row block too large for
// the cache takes more blocks (8 rows of 504 floats outgrow 8 KiB: 4 blocks
// of 256, the last 232); few columns (10), one block; 1000 with 16 lanes,
// none.
TEST(HeuristicsTest, StreamedBlocksKeepTheThreadsBusy) {
  EXPECT_EQ(chooseStreamedBlockColumns(1, 1024, 4, 256 << 10, 8, 2), 512);
  EXPECT_EQ(chooseStreamedBlockColumns(1, 1000, 4, 256 << 10, 8, 2), 504);
  EXPECT_EQ(chooseStreamedBlockColumns(1, 1000, 4, 256 << 10, 8, 8), 128);
  EXPECT_EQ(chooseStreamedBlockColumns(8, 1000, 4, 8 << 10, 8, 2), 256);
  EXPECT_EQ(chooseStreamedBlockColumns(1, 1000, 4, 256 << 10, 8, 1), 1000);
  EXPECT_EQ(chooseStreamedBlockColumns(1, 10, 4, 256 << 10, 8, 2), 10);
  EXPECT_EQ(chooseStreamedBlockColumns(1, 1000, 4, 256 << 10, 16, 2), 0);
}

// A tile's rows of the row factor, read in place, keep to the L1's sets: at
// most its ways less two lines in one set. 48 KiB of 12 ways holds 64 sets of
// 64-byte lines: rows 4 KiB apart all fall into one set (10 of them), 2 KiB
// apart into two (20, more than the 14 registers allow), 12 KiB (K = 3072 of
// f32) into one; rows 1040 floats apart spread over the sets. On 8 ways (Zen
// 3's 32 KiB), 6 rows 4 KiB apart.
// The preferred columns when they divide N; else the width that divides N
// with the most multiply-add lanes per cycle, in whole vectors and then
// halves: on AVX-512 24 columns as 16 + 8 (14 x 8 would issue 7.5 lanes per
// FMA cycle, 14 x 24 12), 48 as three vectors of 16 in 9 rows, 1000 as
// 16 + 16 + 8; on AVX2 24 as three vectors of 8 in 4 rows; no multiple of 4:
// none.
TEST(HeuristicsTest, TileColumnsDivideTheColumns) {
  auto widths = [](const std::optional<TileColumns> &t) {
    return t ? t->vectors : std::vector<unsigned>{};
  };
  std::optional<TileColumns> preferred =
      chooseTileColumns(sapphireRapids(), 32, 14, 256, 32);
  ASSERT_TRUE(preferred);
  EXPECT_EQ(preferred->columns, 32u);
  EXPECT_EQ(preferred->rows, 14u);
  EXPECT_EQ(widths(preferred), std::vector<unsigned>({32}));

  std::optional<TileColumns> n24 =
      chooseTileColumns(sapphireRapids(), 32, 14, 24, 32);
  ASSERT_TRUE(n24);
  EXPECT_EQ(n24->columns, 24u);
  EXPECT_EQ(n24->rows, 14u);
  EXPECT_EQ(widths(n24), std::vector<unsigned>({16, 8}));

  std::optional<TileColumns> n48 =
      chooseTileColumns(sapphireRapids(), 32, 14, 48, 32);
  ASSERT_TRUE(n48);
  EXPECT_EQ(n48->rows, 9u);
  EXPECT_EQ(widths(n48), std::vector<unsigned>({16, 16, 16}));

  EXPECT_EQ(widths(chooseTileColumns(sapphireRapids(), 32, 14, 1000, 32)),
            std::vector<unsigned>({16, 16, 8}));
  // f64: 8 lanes; 12 columns as 8 + 4.
  EXPECT_EQ(widths(chooseTileColumns(sapphireRapids(), 16, 14, 12, 64)),
            std::vector<unsigned>({8, 4}));

  std::optional<TileColumns> zen24 = chooseTileColumns(zen3(), 16, 6, 24, 32);
  ASSERT_TRUE(zen24);
  EXPECT_EQ(zen24->rows, 4u);
  EXPECT_EQ(widths(zen24), std::vector<unsigned>({8, 8, 8}));
  // Fewer rows asked for than the registers hold: those.
  EXPECT_EQ(chooseTileColumns(sapphireRapids(), 32, 2, 24, 32)->rows, 2u);

  EXPECT_FALSE(chooseTileColumns(sapphireRapids(), 32, 14, 18, 32));
  EXPECT_FALSE(chooseTileColumns(zen3(), 16, 6, 50257, 32));
}

TEST(HeuristicsTest, TileRowsKeepToTheL1Sets) {
  CPUModel spr = sapphireRapids();
  EXPECT_EQ(limitRowsToCacheSets(spr, 4096, 14), 10u);
  EXPECT_EQ(limitRowsToCacheSets(spr, 8192, 14), 10u);
  EXPECT_EQ(limitRowsToCacheSets(spr, 12288, 14), 10u);
  EXPECT_EQ(limitRowsToCacheSets(spr, 2048, 14), 14u);
  EXPECT_EQ(limitRowsToCacheSets(spr, 1040 * 4, 14), 14u);
  EXPECT_EQ(limitRowsToCacheSets(spr, 3072, 14), 14u);
  // Rows inside one line share it: no set fills.
  EXPECT_EQ(limitRowsToCacheSets(spr, 4, 14), 14u);
  EXPECT_EQ(limitRowsToCacheSets(spr, -4096, 14), 10u);
  EXPECT_EQ(limitRowsToCacheSets(zen3(), 4096, 6), 6u);
  EXPECT_EQ(limitRowsToCacheSets(zen3(), 8192, 8), 6u);
}

// A depthwise tile's accumulators take half the registers less two (the
// other half for the input vectors of consecutive columns in flight, one for
// the filter): 6 columns on AVX2 and SSE2, 14 on AVX-512; one vector of f32
// lanes of channels.
TEST(HeuristicsTest, DepthwiseTileLeavesRoomForInputsAndFilter) {
  DepthwiseTile zen = chooseDepthwiseTile(zen3());
  EXPECT_EQ(zen.columns, 6u);
  EXPECT_EQ(zen.f32Lanes, 8u);
  DepthwiseTile spr = chooseDepthwiseTile(sapphireRapids());
  EXPECT_EQ(spr.columns, 14u);
  EXPECT_EQ(spr.f32Lanes, 16u);
  DepthwiseTile old = chooseDepthwiseTile(sse2());
  EXPECT_EQ(old.columns, 6u);
  EXPECT_EQ(old.f32Lanes, 4u);
  for (CPUModel cpu : {zen3(), sapphireRapids(), sse2()})
    EXPECT_LE(2 * chooseDepthwiseTile(cpu).columns + 1, cpu.numVectorRegisters);
}

// One home range per thread of the model; a claim takes half of what is left
// of its range; no chunk is smaller than the loop cut into 8 per thread (or
// as many as asked).
// The tile with the fewest products per output, overhang included, of
// those whose tiles fill a register tile of rows (6 on AVX2, 14 on
// AVX-512); the direct convolution when none saves a third of its 9
// products, or the channels are no multiple of the lanes.
TEST(HeuristicsTest, WinogradTileLeavesEnoughRowsPerMatmul) {
  struct Case {
    CPUModel cpu;
    int64_t n, hw, c, f;
    unsigned m;
    int64_t tiles;
  } cases[] = {
      {sapphireRapids(), 1, 56, 64, 64, 4, 196},
      {sapphireRapids(), 1, 28, 128, 128, 4, 49},
      {sapphireRapids(), 1, 14, 256, 256, 4, 16},
      {sapphireRapids(), 1, 7, 512, 512, 2, 16},
      {sapphireRapids(), 8, 7, 512, 512, 4, 32},
      {sapphireRapids(), 1, 6, 64, 64, 0, 0},
      {sapphireRapids(), 1, 3, 64, 64, 0, 0},
      {zen3(), 1, 16, 64, 64, 4, 16},
      {zen3(), 1, 5, 64, 64, 2, 9},
      {zen3(), 1, 56, 3, 64, 0, 0},
      {sapphireRapids(), 1, 56, 64, 24, 0, 0},
  };
  for (const Case &k : cases) {
    WinogradTile tile = chooseWinogradTile(k.cpu, k.n, k.hw, k.hw, k.c, k.f);
    EXPECT_EQ(tile.m, k.m) << k.n << "x" << k.hw << "x" << k.hw << "x" << k.c
                           << " -> " << k.f;
    EXPECT_EQ(tile.tiles, k.tiles);
  }
}

// All keys in one step while a head's scores fit in a quarter of L2; else
// the largest multiple of the lanes dividing the keys that fits; none when
// no such block divides them.
TEST(HeuristicsTest, AttentionKeyBlockKeepsScoresInL2) {
  EXPECT_EQ(chooseAttentionKeyBlock(sapphireRapids(), 128, 128), 128);
  EXPECT_EQ(chooseAttentionKeyBlock(zen3(), 128, 128), 128);
  // 1024 x 1024 scores (4 MiB) against 512 KiB: blocks of 128 keys.
  EXPECT_EQ(chooseAttentionKeyBlock(sapphireRapids(), 1024, 1024), 128);
  // 128 KiB a quarter of Zen 3's L2: 32 keys of 1024 queries.
  EXPECT_EQ(chooseAttentionKeyBlock(zen3(), 1024, 1024), 32);
  EXPECT_EQ(chooseAttentionKeyBlock(zen3(), 1024, 1000), 8);
  EXPECT_EQ(chooseAttentionKeyBlock(sapphireRapids(), 1024, 1001), 0);
}

TEST(HeuristicsTest, BatchTiledActivationsOutgrowTheLastLevelCache) {
  CPUModel cpu = sapphireRapids();
  cpu.l3CacheKiB = 32 * 1024;
  // MobileNetV2 at batch 8: the 8x112x112x96 expansion (38.5 MB) and the
  // 8x56x56x144 ones (14.5 MB) are made an image at a time, the
  // 8x28x28x144 (3.6 MB) stays batched.
  EXPECT_TRUE(isBatchTiledActivation(cpu, 8 * 112 * 112 * 96 * 4, 8));
  EXPECT_TRUE(isBatchTiledActivation(cpu, 8 * 56 * 56 * 144 * 4, 8));
  EXPECT_FALSE(isBatchTiledActivation(cpu, 8 * 28 * 28 * 144 * 4, 8));
  // One image: nothing to tile; one image too large for the cache: no gain.
  EXPECT_FALSE(isBatchTiledActivation(cpu, 112 * 112 * 96 * 4, 1));
  EXPECT_FALSE(isBatchTiledActivation(cpu, int64_t(2) * 20 * 1024 * 1024, 2));
  cpu.l3CacheKiB = 0;
  EXPECT_FALSE(isBatchTiledActivation(cpu, 8 * 112 * 112 * 96 * 4, 8));
}

TEST(HeuristicsTest, WorkClaimsFollowTheThreads) {
  CPUModel two = sapphireRapids();
  two.numThreads = 2;
  WorkClaims claims = chooseWorkClaims(two);
  EXPECT_EQ(claims.ranges, 2);
  EXPECT_EQ(claims.share, 2);
  EXPECT_EQ(claims.maxChunks, 16);
  EXPECT_EQ(chooseWorkClaims(two, 3).maxChunks, 6);
  EXPECT_GT(claims.spinsBeforeSleep, 0);
  EXPECT_GT(claims.sleepMicroseconds, 0);
  CPUModel none = zen3();
  none.numThreads = 0;
  EXPECT_EQ(chooseWorkClaims(none).ranges, 1);
}

// The blur of bench/kernels/blur.mlir: rows of 2044 f32 (8 KiB), a halo of
// 4 rows, 2048 rows. Half of a 512 KiB L2 holds 32 rows: tiles of 28; with
// 256 KiB, tiles of 12 would recompute 33 %, so the smallest tiles within
// 25 % (16 rows, a 20-row buffer in the whole cache); with 64 KiB, none.
TEST(HeuristicsTest, ProducerSlicesFitTheCacheAndBoundRecomputation) {
  int64_t rowBytes = 2044 * 4, halo = 4, extent = 2048;
  EXPECT_EQ(chooseProducerSliceRows(rowBytes, halo, extent, 512 << 10, 25), 28);
  EXPECT_EQ(chooseProducerSliceRows(rowBytes, halo, extent, 256 << 10, 25), 16);
  EXPECT_EQ(chooseProducerSliceRows(rowBytes, halo, extent, 64 << 10, 25),
            std::nullopt);
  // A short dimension is one tile.
  EXPECT_EQ(chooseProducerSliceRows(rowBytes, halo, 20, 512 << 10, 25), 20);
}

// Threads come in whole warps: 32 lanes on NVIDIA and RDNA3, 64 on CDNA.
TEST(HeuristicsTest, GPUBlocksAreWholeWarps) {
  const GPUChipModel *a100 = lookupGPUChip(TargetKind::NVGPU, "sm_80");
  const GPUChipModel *mi200 = lookupGPUChip(TargetKind::AMDGPU, "gfx90a");
  const GPUChipModel *rdna3 = lookupGPUChip(TargetKind::AMDGPU, "gfx1100");
  ASSERT_TRUE(a100 && mi200 && rdna3);
  EXPECT_EQ(chooseThreadsPerBlock(*a100, 20), 32u);
  EXPECT_EQ(chooseThreadsPerBlock(*mi200, 20), 64u);
  EXPECT_EQ(chooseThreadsPerBlock(*rdna3, 20), 32u);
  EXPECT_EQ(chooseThreadsPerBlock(*a100, 100000), 256u);
  EXPECT_EQ(chooseThreadsPerBlock(*mi200, 100000), 256u);
  EXPECT_EQ(chooseThreadsPerBlock(*mi200, 100000, 96), 128u);
}

TEST(MachineModelTest, ChipTable) {
  EXPECT_EQ(lookupGPUChip(TargetKind::AMDGPU, "gfx942")->matrixUnit,
            MatrixUnit::AMDMFMA);
  EXPECT_EQ(lookupGPUChip(TargetKind::AMDGPU, "gfx1100")->matrixUnit,
            MatrixUnit::AMDWMMA);
  EXPECT_EQ(lookupGPUChip(TargetKind::NVGPU, "sm_90a")->warpSize, 32u);
  EXPECT_EQ(lookupGPUChip(TargetKind::NVGPU, "gfx90a"), nullptr);
  EXPECT_EQ(lookupGPUChip(TargetKind::NVGPU, "sm_50"), nullptr);
  EXPECT_EQ(getGPUChipList(TargetKind::AMDGPU), "gfx90a, gfx942, gfx1100");
}

class MachineModelAttrTest : public ::testing::Test {
protected:
  MachineModelAttrTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }
  MLIRContext context;
};

TEST_F(MachineModelAttrTest, RoundTripsThroughTheModule) {
  MachineModel model;
  model.target = TargetKind::AMDGPU;
  model.cpu = sapphireRapids();
  model.gpu = lookupGPUChip(TargetKind::AMDGPU, "gfx942");
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  setMachineModel(*module, model);
  MachineModel read = getMachineModel(*module);
  EXPECT_EQ(read.target, TargetKind::AMDGPU);
  EXPECT_EQ(read.cpu, sapphireRapids());
  EXPECT_EQ(read.gpu, model.gpu);
}

// Passes read the model of the module around them; fields the attribute
// lacks keep the defaults, and a module without one has the default model.
TEST_F(MachineModelAttrTest, PassesSeeTheEnclosingModule) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "module attributes {pb.machine = {vector_bits = 512 : i64}} {\n"
      "  func.func @f() { return }\n}",
      &context);
  ASSERT_TRUE(module);
  Operation *func = &module->getBody()->front();
  MachineModel model = getMachineModel(func);
  EXPECT_EQ(model.cpu.vectorBits, 512u);
  EXPECT_EQ(model.cpu.numVectorRegisters, CPUModel().numVectorRegisters);
  OwningOpRef<ModuleOp> bare = ModuleOp::create(UnknownLoc::get(&context));
  EXPECT_EQ(getMachineModel(*bare).cpu, CPUModel());
  EXPECT_FALSE(MachineModel::fromAttr(DictionaryAttr::get(
      &context, {NamedAttribute(StringAttr::get(&context, "target"),
                                StringAttr::get(&context, "tpu"))})));
}

} // namespace
