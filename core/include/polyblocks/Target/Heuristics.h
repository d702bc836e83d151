//===- Heuristics.h - What the machine model decides ------------*- C++ -*-===//
//
// The analytical models of S3 and S4 as pure functions of the machine
// model: the register tile of the micro-kernel, the blocks of streamed
// matmuls, the cache budget of producer fusion, the thread split of GPU
// kernels. Passes call them for every parameter their options leave unset
// (0), and record what they chose on the nests they shape (Decisions.h);
// GoogleTest units check them on several machines' numbers.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TARGET_HEURISTICS_H
#define POLYBLOCKS_TARGET_HEURISTICS_H

#include "polyblocks/Target/MachineModel.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace polyblocks {

/// The register tile of the packed matmul micro-kernel.
struct RegisterTile {
  /// Rows (MR) and f32 columns (NR) of the block of C held in vector
  /// registers.
  unsigned rows;
  unsigned columns;
  /// Iterations of k per cache block (KC): the packed KC x NR panel of the
  /// column factor fills L1d.
  unsigned kBlock;
  /// A matmul's k block may be longer than kBlock while its panel (KC x
  /// NR) and its row factor's block (rows x KC) together fit in this many
  /// KiB (one core's L2): the panel is then read from L2, one row
  /// of NR lanes per MR multiply-adds, and fewer blocks load and store C
  /// fewer times (0: never longer).
  unsigned kBlockCacheKiB;
  /// The row factor's k block is packed when it outgrows this cache, in
  /// KiB (one core's L2).
  unsigned packRowsAboveKiB;
  /// A k-blocked matmul's first register tile of each column tile
  /// prefetches the next column tile's panel when the column factor
  /// outgrows this cache, in KiB (one core's L2: its rows then come from L3
  /// or memory).
  unsigned prefetchPanelsAboveKiB;
  /// A convolution whose packed panels outgrow this many KiB (half of one
  /// core's L2) loops over its column tiles outside its output rows, so
  /// that each panel is read from L2 by every row rather than all of them
  /// from memory by each row (3x3 convolutions of 256 and 512 channels).
  unsigned columnsOutsideAboveKiB;
  /// A matmul by a constant (or by an argument, with many rows) takes its
  /// row tiles in blocks whose part of the row factor (rows x K) fits in
  /// this many KiB (half of one core's L2): it stays there while every
  /// column tile reads it.
  unsigned rowBlockKiB;
  /// Such a matmul's column tile whose packed panel (K x NR) outgrows this
  /// many KiB (half of L1d) takes its reduction in blocks of at most as
  /// many bytes of the panel, each read from L1 by every tile of the row
  /// block before the next block (the rest of L1 for the row factor's
  /// lines and the tiles' partial sums). 0: never (AVX-512's tile).
  unsigned panelBlockKiB;
  /// The row blocks of such k blocks take as many tiles as their partial
  /// sums (MR x NR each, kept between the blocks) fit in this many KiB (a
  /// quarter of L1d).
  unsigned partialSumsKiB;
  /// Threads the row blocks are shared among (their count is rounded up to
  /// a multiple of it).
  unsigned threads;
};

/// NR is two vectors of f32 lanes; the MR x NR accumulators take every
/// vector register but those holding the panel's NR lanes and one
/// broadcast row value (6 x 16 with AVX2's 16 registers, as BLIS's Haswell
/// kernel; 14 x 32 with AVX-512's 32); KC makes the packed KC x NR panel
/// fill L1d (at least 16); a convolution's panels go column tile by column
/// tile past half of L2; a row-blocked matmul takes its rows in blocks of
/// half of L2, as many as a multiple of the threads, and (with AVX2's
/// tile) its column tiles' reductions in blocks of half of L1d's panel,
/// their partial sums within a quarter of it.
RegisterTile chooseRegisterTile(const CPUModel &cpu);

/// The longest k block (KC) a k-blocked matmul of `rows` rows and register
/// tiles `columns` wide may take, for elements of `elementBytes`: kBlock,
/// or more while the panel and the row factor's block fit in
/// kBlockCacheKiB (a batch-1 transformer's 128 rows by K = 768: the whole
/// reduction in one block, with AVX2's tile and a 512 KiB L2 too).
int64_t getKBlockLimit(const RegisterTile &tile, int64_t rows, int64_t columns,
                       int64_t elementBytes);

/// The columns of a register tile over `n` columns, as vectors of at most
/// `lanes` elements, and its rows.
struct TileColumns {
  /// NR: the columns of one tile, a divisor of n.
  unsigned columns;
  /// MR: at most the rows asked for, as many as the registers hold.
  unsigned rows;
  /// The widths of the vectors one row of the tile is held in, in order:
  /// the preferred columns as one vector (LLVM splits it into registers,
  /// evenly); another width as whole vectors of the registers' lanes, then
  /// powers of two (24 = 16 + 8).
  std::vector<unsigned> vectors;
};

/// `width` columns as whole vectors of `lanes`, then the rest in vectors of
/// powers of two, widest first (24 with 16 lanes: 16 + 8; 11 with 16
/// lanes: 8 + 2 + 1).
std::vector<unsigned> splitIntoVectors(unsigned width, unsigned lanes);

/// The register tile of a contraction over `n` columns of `elementBits`
/// elements: the preferred `columns` x `rows` when `columns` divides n;
/// otherwise, of the widths that divide n (multiples of 4, up to three
/// vectors), the one that issues the most multiply-add lanes per cycle,
/// each row taking as many registers as its vectors and the rows as many as
/// the registers hold but one broadcast and the panel's (up to `rows`). A
/// k step issues an FMA per accumulator register and a load per row (its
/// broadcast) and per panel register; the cycles are the larger count (two
/// of each per cycle). With AVX-512, N = 24 takes tiles of 14 x (16 + 8)
/// (12 lanes per FMA cycle), not 14 x 8 (7.5); N = 48, 9 x (3 x 16), not
/// 14 x 16; N = 1000, 9 x (16 + 16 + 8). Nullopt when no width divides n.
std::optional<TileColumns> chooseTileColumns(const CPUModel &cpu,
                                             unsigned columns, unsigned rows,
                                             int64_t n, unsigned elementBits);

/// chooseTileColumns for the register tile `tile` (its columns counted in
/// f32 lanes: elements of other widths take as many registers, so wider
/// elements are fewer columns), as pb-register-tile-contraction plans it.
std::optional<TileColumns> chooseTileColumns(const CPUModel &cpu,
                                             const RegisterTile &tile,
                                             int64_t n, unsigned elementBits);

/// The most rows, up to `rows`, that a register tile may have when its row
/// factor is read in place, its rows `rowStrideBytes` apart: each k step
/// broadcasts one element of every row, so the tile's rows of the row
/// factor are live in L1 together. Rows whose lines fall into the same L1
/// set (a stride of a multiple of 4 KiB puts them all into one) beyond
/// the set's ways less two (the panel's and the results' lines) evict one
/// another on every pass over them: the tile keeps to that many.
unsigned limitRowsToCacheSets(const CPUModel &cpu, int64_t rowStrideBytes,
                              unsigned rows);

/// The register tile of a depthwise convolution (pb-register-tile-depthwise):
/// output columns by one vector of channels.
struct DepthwiseTile {
  /// Most output columns held in registers, one accumulator vector each.
  unsigned columns;
  /// f32 lanes of a vector.
  unsigned f32Lanes;
};

/// Half the vector registers less two hold accumulators (the other half is
/// left to the input vectors the loads of consecutive columns keep in
/// flight, and one holds the filter): 6 columns with AVX2's 16 registers,
/// 14 with AVX-512's 32.
DepthwiseTile chooseDepthwiseTile(const CPUModel &cpu);

/// The Winograd form of a 3x3 stride-1 convolution
/// (pb-winograd-convolutions): F(m x m, 3 x 3) computes each m x m tile of
/// the output from a (m + 2) x (m + 2) tile of the input with (m + 2)^2
/// products per channel pair where the direct convolution takes 9 m^2 (4x
/// fewer for m = 4, 2.25x for m = 2), as a batch of (m + 2)^2 matmuls of
/// tiles x C by C x F, between an input and an output transform.
struct WinogradTile {
  /// Outputs per tile side: 4 or 2; 0 keeps the direct convolution.
  unsigned m;
  /// The tiles: the rows of each matmul of the batch.
  int64_t tiles;
};

/// Of m = 4 and 2, those whose tiles (ceil(height / m) x ceil(width / m)
/// per image; the last may overhang the output) fill at least one register
/// tile of rows (chooseRegisterTile): with fewer, the transformed filter,
/// (m + 2)^2 / 9 times the filter's size, is read from memory for too few
/// rows. Of those, the one with the fewest products per output, overhang
/// included, when it saves at least a third of the direct convolution's 9
/// (what the transforms cost): a 56 x 56 or 28 x 28 output takes m = 4
/// (2.25); 14 x 14 at batch 1, m = 4 (16 tiles, 2.94); 7 x 7 at batch 1,
/// m = 2 (16 tiles, 5.22: m = 4 leaves 4 tiles), at batch 8 m = 4. None
/// when the channels on either side are no multiple of the vector's f32
/// lanes (the transforms' vectors).
WinogradTile chooseWinogradTile(const CPUModel &cpu, int64_t batch,
                                int64_t height, int64_t width,
                                int64_t inChannels, int64_t outChannels);

/// The keys one step of a fused attention takes (pb-fuse-attention): all of
/// them when a head's scores (queries x keys f32) fit in a quarter of one
/// core's L2 (they then stay in cache from their matmul through the softmax
/// to the product with the values); else the largest multiple of the
/// vector's f32 lanes dividing `keys` whose block of scores does; 0 when
/// none does.
int64_t chooseAttentionKeyBlock(const CPUModel &cpu, int64_t queries,
                                int64_t keys);

/// Whether a batched activation of `bytes` (`batch` images) is better made
/// and used one image at a time (pb-tile-batch): at full batch it outgrows
/// a quarter of the last-level cache, so the op after it reads it back from
/// memory, while one image's share fits in half of that cache, where it
/// stays between the two ops.
bool isBatchTiledActivation(const CPUModel &cpu, int64_t bytes, int64_t batch);

/// How matmuls with few rows are streamed (pb-stream-skinny-contraction).
struct StreamedMatmul {
  /// Largest number of rows streamed: one accumulator per row, half the
  /// vector registers (the rest hold Y and the broadcasts).
  unsigned maxRows;
  /// Largest number of rows streamed when Y is a constant that
  /// pb-register-tile-contraction packs at compile time (a layer's
  /// weights): 1. From two rows on its register tiles do better: each
  /// panel is read contiguously, from L1 by every row tile, and each
  /// broadcast of X feeds the tile's vectors of columns (two), where a
  /// streamed row takes a broadcast per multiply-add (bench/RESULTS.md:
  /// 2 to 8 rows by 784 x 512 and 768 x 3072 constants, 0.64-0.89 of the
  /// streamed time; by arguments, whose panels would be packed at run
  /// time, streaming stays ahead at up to 8 rows, and with one row).
  unsigned maxRowsByConstant;
  /// Cache that holds the block of C, in KiB (one core's L2).
  unsigned cacheKiB;
  /// Threads the column blocks are shared among.
  unsigned threads;
  unsigned vectorBits;
};
StreamedMatmul chooseStreamedMatmul(const CPUModel &cpu);

/// The width of the column blocks a streamed matmul of `m` rows by `n`
/// columns of `elementBytes` takes (pb-stream-skinny-contraction), each
/// block's rows of results within `bytes`, the blocks dealt out to
/// `threads`: the widest multiple of `lanes` dividing n with at least a
/// block per thread; when their count is no multiple of the threads and n
/// is whole vectors, blocks as wide as a multiple of the threads splits n
/// evenly, the last narrower, if that keeps the threads busier (N = 1000 on
/// 2 threads: 504 + 496, not 5 blocks of 200, 3 against 2; on 8, 7 x 128 +
/// 104). With no such width and fewer columns than a vector per thread (a
/// classifier's 10), n: one block. 0: none (N = 1000 with 16 lanes, left
/// to the register tiles).
int64_t chooseStreamedBlockColumns(int64_t m, int64_t n, int64_t elementBytes,
                                   int64_t bytes, int64_t lanes,
                                   int64_t threads);

/// How the threads of a parallel region claim a loop's iterations
/// (pb-barrier-free-worksharing).
struct WorkClaims {
  /// Home ranges a loop is cut into, one per thread: thread t starts with
  /// range t, which it computed in the part before too.
  int64_t ranges;
  /// A claim takes this fraction of what is left of its range (guided
  /// self-scheduling): large chunks first, small ones to even out the end.
  int64_t share;
  /// No chunk is smaller than the loop cut into this many: `chunksPerThread`
  /// (8 when 0) per thread, enough for the threads that have a core to take
  /// the work of one waiting for a core; each chunk costs one
  /// compare-and-swap on a shared cache line.
  int64_t maxChunks;
  /// A thread waiting for the others' chunks spins this many times (a
  /// `pause` each, tens of microseconds in all), then sleeps this long per
  /// look: an idle core is where the scheduler moves a thread that claimed a
  /// chunk and lost its core to another thread pool.
  int64_t spinsBeforeSleep;
  int64_t sleepMicroseconds;
};
WorkClaims chooseWorkClaims(const CPUModel &cpu, unsigned chunksPerThread = 0);

/// The cache budget of producer-consumer fusion with recomputation
/// (pb-fuse-producer-slices): tile buffers are sized to one core's L2.
unsigned chooseFusionCacheKiB(const CPUModel &cpu);

/// The rows of a tile of producer-consumer fusion with recomputation
/// (pb-fuse-producer-slices): the consumer's tile of an intermediate of
/// `rowBytes` per row, along a dimension of `extent` rows, needs `halo`
/// more rows of the producer. The tile buffer takes half of the cache of
/// `cacheBytes` (the consumer's inputs and outputs stream through the other
/// half); where that would recompute more than `maxRecomputePercent` of a
/// tile, the smallest tile that does not, if its buffer fits in the whole
/// cache (less room for the streams, still far cheaper than the
/// intermediate's round trip through memory); nullopt when neither does.
std::optional<int64_t> chooseProducerSliceRows(int64_t rowBytes, int64_t halo,
                                               int64_t extent,
                                               int64_t cacheBytes,
                                               unsigned maxRecomputePercent);

/// Threads per block of a GPU kernel for a band of `iterations`: 256, or
/// the iterations rounded up to whole warps when fewer.
uint64_t chooseThreadsPerBlock(const GPUChipModel &chip, uint64_t iterations,
                               unsigned maxThreads = 256);

/// How the host code of a program is optimized and compiled on several
/// threads, each a part of it (splitModule).
struct CodegenSplit {
  /// At most this many parts.
  unsigned parts;
  /// Programs of fewer LLVM instructions (before -O3) stay in one piece: the
  /// parts' objects are linked into one by the system's linker, which costs
  /// about what the other cores save on a small program (a BERT layer:
  /// bench/RESULTS.md, compile time, fourth step).
  uint64_t minInstructions;
  /// Part 0 also writes the module's constant data (a network's weights)
  /// where it is not detached (emitObjects detaches it for x86-64 ELF):
  /// code generation writes about this many bytes of it in the time it
  /// takes to optimize and compile one LLVM instruction, and the parts are
  /// balanced with part 0 counting its bytes so (0: not counted).
  uint64_t constantBytesPerInstruction;
};
/// For `requested` threads: 0, as many as the host has (at most 8), for
/// programs of 20,000 instructions or more (ResNet-18 has 37,000,
/// MobileNetV2 30,000, a BERT layer 6,500); n, n parts for any program
/// with loops to deal out. Either way 64 KiB of constant data count as one
/// instruction (bench/RESULTS.md, compile time, tenth step: ResNet-18 at
/// batch 8, 160 MB of weights, took part 0 0.1-0.2 s more than part 1 with
/// as many instructions, 12,200, which took 0.8 s).
CodegenSplit chooseCodegenSplit(unsigned requested);

} // namespace polyblocks

#endif // POLYBLOCKS_TARGET_HEURISTICS_H
