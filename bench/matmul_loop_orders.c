// Loop orders of the register-tiled matmul, modelled in C on one thread:
// C[M][N] = A[M][K] * B[K][N] with the micro-kernel of
// pb-register-tile-contraction (14 x 32 f32 accumulators with AVX-512, 6 x 16
// with AVX2), in
//   0: k blocks of KC outside the column tiles, each panel packed per
//      (k block, column tile), the row factor read in place (the nest for
//      a matmul by an argument);
//   1: the same with the panels packed ahead of time;
//   2: the same, the row factor also packed into 14-row slivers per k block;
//   3: blocks of MC rows outside the column tiles, the whole reduction per
//      tile, the panels packed ahead (the nest for a matmul by a constant);
//   4: as 3 with k blocks of KC inside the row blocks, outside the column
//      tiles;
//   5: as 3 with k blocks of KC inside the column tiles (each column
//      tile's block of its panel read by every tile of the row block);
//   6: as 5 with the row factor packed into MR-row slivers first (its
//      whole reduction; the packing timed).
// The micro-kernel is 6 x 16 (AVX2) where the compiler has no AVX-512.
// Build and run (numbers: bench/RESULTS.md, notes on the passes):
//   clang -O3 -march=native bench/matmul_loop_orders.c -o /tmp/orders
//   /tmp/orders VARIANT KC MC [M K N]     (KC 0: the whole reduction)
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __AVX512F__
enum { MR = 14, NR = 32, LANES = 16 };
typedef __m512 vec;
#define VLOAD _mm512_load_ps
#define VLOADU _mm512_loadu_ps
#define VSTOREU _mm512_storeu_ps
#define VZERO _mm512_setzero_ps
#define VSET1 _mm512_set1_ps
#define VFMA _mm512_fmadd_ps
#else // AVX2 and FMA: 6 x 16, as the machine model's tile there
enum { MR = 6, NR = 16, LANES = 8 };
typedef __m256 vec;
#define VLOAD _mm256_load_ps
#define VLOADU _mm256_loadu_ps
#define VSTOREU _mm256_storeu_ps
#define VZERO _mm256_setzero_ps
#define VSET1 _mm256_set1_ps
#define VFMA _mm256_fmadd_ps
#endif
static long M = 1024, K = 768, N = 3072;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// One register tile: C[0..MR)[0..NR) (+)= sum over kc steps of a(r, k) *
// b[k][0..NR); a(r, k) = a[r * lda + k * sa]; the panel b is contiguous.
static void tile(const float *a, long lda, long sa, const float *b, long kc,
                 float *c, int first) {
  vec acc[MR][2];
  for (int r = 0; r < MR; r++) {
    acc[r][0] = first ? VZERO() : VLOADU(c + r * N);
    acc[r][1] = first ? VZERO() : VLOADU(c + r * N + LANES);
  }
  for (long k = 0; k < kc; k++) {
    vec b0 = VLOAD(b + k * NR), b1 = VLOAD(b + k * NR + LANES);
#pragma GCC unroll 14
    for (int r = 0; r < MR; r++) {
      vec x = VSET1(a[r * lda + k * sa]);
      acc[r][0] = VFMA(x, b0, acc[r][0]);
      acc[r][1] = VFMA(x, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < MR; r++) {
    VSTOREU(c + r * N, acc[r][0]);
    VSTOREU(c + r * N + LANES, acc[r][1]);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s VARIANT KC MC [M K N]\n", argv[0]);
    return 2;
  }
  int variant = atoi(argv[1]);
  long kcArg = atol(argv[2]), mc = atol(argv[3]);
  if (argc > 6) {
    M = atol(argv[4]);
    K = atol(argv[5]);
    N = atol(argv[6]);
  }
  long kc = kcArg ? kcArg : K;
  if (K % kc || N % NR || mc < MR) {
    fprintf(stderr, "KC must divide K, NR = %d N, MC be at least %d\n", NR, MR);
    return 2;
  }
  float *A = aligned_alloc(64, 4 * M * K), *B = aligned_alloc(64, 4 * K * N);
  float *C = aligned_alloc(64, 4 * M * N), *Bp = aligned_alloc(64, 4 * K * N);
  float *Ap = aligned_alloc(64, 4 * M * K),
        *pack = aligned_alloc(64, 4 * K * NR);
  for (long i = 0; i < M * K; i++)
    A[i] = rand() % 7 - 3;
  for (long i = 0; i < K * N; i++)
    B[i] = rand() % 5 - 2;
  for (long j = 0; j < N; j += NR) // Bp[j / NR][k][0..NR)
    for (long k = 0; k < K; k++)
      memcpy(Bp + j * K + k * NR, B + k * N + j, 4 * NR);
  long rows = M / MR * MR; // whole tiles only
  double best = 1e30;
  for (int rep = 0; rep < 7; rep++) {
    memset(C, 0, 4 * M * N);
    double t = now();
    switch (variant) {
    case 0:
    case 1:
      for (long kt = 0; kt < K; kt += kc)
        for (long j = 0; j < N; j += NR) {
          const float *panel = Bp + j * K + kt * NR;
          if (variant == 0) {
            for (long k = 0; k < kc; k++)
              memcpy(pack + k * NR, B + (kt + k) * N + j, 4 * NR);
            panel = pack;
          }
          for (long i = 0; i < rows; i += MR)
            tile(A + i * K + kt, K, 1, panel, kc, C + i * N + j, 0);
        }
      break;
    case 2:
      for (long kt = 0; kt < K; kt += kc) {
        for (long i = 0; i < rows; i += MR)
          for (long k = 0; k < kc; k++)
            for (int r = 0; r < MR; r++)
              Ap[i * kc + k * MR + r] = A[(i + r) * K + kt + k];
        for (long j = 0; j < N; j += NR)
          for (long i = 0; i < rows; i += MR)
            tile(Ap + i * kc, 1, MR, Bp + j * K + kt * NR, kc, C + i * N + j,
                 kt == 0);
      }
      break;
    case 3:
    case 4:
      for (long ib = 0; ib < rows; ib += mc) {
        long ie = ib + mc < rows ? ib + mc : rows;
        long step = variant == 3 ? K : kc;
        for (long kt = 0; kt < K; kt += step)
          for (long j = 0; j < N; j += NR)
            for (long i = ib; i < ie; i += MR)
              tile(A + i * K + kt, K, 1, Bp + j * K + kt * NR, step,
                   C + i * N + j, kt == 0);
      }
      break;
    case 5:
    case 6:
      if (variant == 6) // Ap[i / MR][k][0..MR)
        for (long i = 0; i < rows; i += MR)
          for (long k = 0; k < K; k++)
            for (int r = 0; r < MR; r++)
              Ap[i * K + k * MR + r] = A[(i + r) * K + k];
      for (long ib = 0; ib < rows; ib += mc) {
        long ie = ib + mc < rows ? ib + mc : rows;
        for (long j = 0; j < N; j += NR)
          for (long kt = 0; kt < K; kt += kc)
            for (long i = ib; i < ie; i += MR)
              tile(variant == 6 ? Ap + i * K + kt * MR : A + i * K + kt,
                   variant == 6 ? 1 : K, variant == 6 ? MR : 1,
                   Bp + j * K + kt * NR, kc, C + i * N + j, kt == 0);
      }
      break;
    default:
      fprintf(stderr, "no variant %d\n", variant);
      return 2;
    }
    t = now() - t;
    if (t < best)
      best = t;
  }
  printf("variant %d KC %ld MC %ld, %ld x %ld x %ld: %.2f ms, %.0f GFLOP/s\n",
         variant, variant == 3 ? K : kc, mc, M, K, N, best * 1e3,
         2.0 * rows * K * N / best / 1e9);
  return 0;
}
