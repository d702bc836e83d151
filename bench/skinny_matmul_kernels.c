// Matmuls of a few rows by constant weights, modelled in C on one thread:
// C[8][N] = X[8][K] * Y[K][N] (f32, AVX2 + FMA), in
//   streamed: the kernel of pb-stream-skinny-contraction, the 8 rows of C
//     for one vector of columns in registers across 8 rows of Y, their
//     block of C loaded and stored between (one broadcast of X per FMA);
//   tiles in place: 4 x 16 register tiles (two vectors of columns per
//     broadcast), each over the whole reduction, Y read where it is;
//   tiles packed: the same tiles on Y packed ahead of time into panels of
//     16 columns, K x 16 contiguous (pb-register-tile-contraction packs a
//     constant's panels at compile time).
// Each kernel: minimum and median of 3000 calls; the maximum absolute
// difference from the streamed kernel's C.
// Build and run (numbers: bench/RESULTS.md, notes on the passes):
//   clang -O3 -march=native bench/skinny_matmul_kernels.c -o /tmp/skinny
//   /tmp/skinny 784 512
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { M = 8, CALLS = 3000 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void streamed(int K, int N, const float *X, const float *Y, float *C) {
  for (int kt = 0; kt < K; kt += 8)
    for (int j = 0; j < N; j += 8) {
      __m256 acc[M];
      for (int r = 0; r < M; ++r)
        acc[r] = _mm256_load_ps(C + r * N + j);
      for (int k = kt; k < kt + 8; ++k) {
        __m256 y = _mm256_load_ps(Y + (size_t)k * N + j);
        for (int r = 0; r < M; ++r)
          acc[r] =
              _mm256_fmadd_ps(_mm256_broadcast_ss(X + r * K + k), y, acc[r]);
      }
      for (int r = 0; r < M; ++r)
        _mm256_store_ps(C + r * N + j, acc[r]);
    }
}

// One 4 x 16 tile at rows r0, columns j: Y's row k at y + k * stride.
static void tile(int K, int N, const float *X, const float *y, size_t stride,
                 int r0, int j, float *C) {
  __m256 acc[4][2];
  for (int r = 0; r < 4; ++r)
    for (int v = 0; v < 2; ++v)
      acc[r][v] = _mm256_load_ps(C + (r0 + r) * N + j + 8 * v);
  for (int k = 0; k < K; ++k) {
    __m256 y0 = _mm256_load_ps(y + k * stride);
    __m256 y1 = _mm256_load_ps(y + k * stride + 8);
    for (int r = 0; r < 4; ++r) {
      __m256 x = _mm256_broadcast_ss(X + (r0 + r) * K + k);
      acc[r][0] = _mm256_fmadd_ps(x, y0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(x, y1, acc[r][1]);
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int v = 0; v < 2; ++v)
      _mm256_store_ps(C + (r0 + r) * N + j + 8 * v, acc[r][v]);
}

static void tilesInPlace(int K, int N, const float *X, const float *Y,
                         float *C) {
  for (int j = 0; j < N; j += 16)
    for (int r0 = 0; r0 < M; r0 += 4)
      tile(K, N, X, Y + j, N, r0, j, C);
}

// P: the panels of 16 columns, P[j / 16][k][16].
static void tilesPacked(int K, int N, const float *X, const float *P,
                        float *C) {
  for (int j = 0; j < N; j += 16)
    for (int r0 = 0; r0 < M; r0 += 4)
      tile(K, N, X, P + (size_t)j * K, 16, r0, j, C);
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s K N (K a multiple of 8, N of 16)\n", argv[0]);
    return 2;
  }
  int K = atoi(argv[1]), N = atoi(argv[2]);
  if (K <= 0 || N <= 0 || K % 8 || N % 16) {
    fprintf(stderr, "K must be a multiple of 8 and N of 16\n");
    return 2;
  }
  size_t yBytes = sizeof(float) * (size_t)K * N;
  float *X = aligned_alloc(64, sizeof(float) * M * K);
  float *Y = aligned_alloc(64, yBytes);
  float *P = aligned_alloc(64, yBytes);
  float *C = aligned_alloc(64, sizeof(float) * M * N);
  float *R = aligned_alloc(64, sizeof(float) * M * N);
  srand(1);
  for (int i = 0; i < M * K; ++i)
    X[i] = rand() / (float)RAND_MAX - 0.5f;
  for (size_t i = 0; i < (size_t)K * N; ++i)
    Y[i] = rand() / (float)RAND_MAX - 0.5f;
  for (int j = 0; j < N; j += 16)
    for (int k = 0; k < K; ++k)
      memcpy(P + (size_t)j * K + k * 16, Y + (size_t)k * N + j,
             16 * sizeof(float));
  memset(R, 0, sizeof(float) * M * N);
  streamed(K, N, X, Y, R);

  struct {
    const char *name;
    void (*run)(int, int, const float *, const float *, float *);
    const float *y;
  } kernels[] = {{"streamed", streamed, Y},
                 {"tiles in place", tilesInPlace, Y},
                 {"tiles packed", tilesPacked, P}};
  static double times[CALLS];
  for (unsigned i = 0; i < sizeof kernels / sizeof *kernels; ++i) {
    for (int call = 0; call < CALLS; ++call) {
      memset(C, 0, sizeof(float) * M * N);
      double start = now();
      kernels[i].run(K, N, X, kernels[i].y, C);
      times[call] = now() - start;
    }
    qsort(times, CALLS, sizeof *times, compare);
    double error = 0;
    for (int q = 0; q < M * N; ++q)
      error = fmax(error, fabs(C[q] - R[q]));
    printf("%-15s min %8.2f us  median %8.2f us  %6.1f GFLOP/s (min)  "
           "max abs difference %.1e\n",
           kernels[i].name, times[0] * 1e6, times[CALLS / 2] * 1e6,
           2.0 * M * K * N / times[0] * 1e-9, error);
  }
  return 0;
}
