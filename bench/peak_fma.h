/* The FMA loops that measure a core's peak f32 arithmetic: each runs
 * `iters` iterations of independent multiply-add chains (acc = acc * m + a),
 * enough of them to cover the FMA latency on both FMA pipes. The caller
 * passes m and a from volatile variables (0.9999999 and 1e-7): constants
 * there let a compiler fold the loops away (clang does). Shared by
 * pb-bench (anchors_stream.cpp) and peak_fma.c (bench/models.py's bound);
 * C and C++. */
#ifndef POLYBLOCKS_BENCH_PEAK_FMA_H
#define POLYBLOCKS_BENCH_PEAK_FMA_H

#include <immintrin.h>

/* Floating-point operations of one iteration of each loop. */
#define PB_FMA_FLOPS_AVX512 (16 * 16 * 2)
#define PB_FMA_FLOPS_AVX2 (12 * 8 * 2)

__attribute__((target("avx512f"))) static inline float
pb_fma_loop_avx512(long iters, float mul, float add) {
  enum { kAcc = 16 };
  __m512 acc[kAcc];
  for (int j = 0; j < kAcc; ++j)
    acc[j] = _mm512_set1_ps(1.0f + j * 1e-3f);
  const __m512 m = _mm512_set1_ps(mul), a = _mm512_set1_ps(add);
  for (long i = 0; i < iters; ++i) {
    /* Unrolled, the accumulators live in registers (GCC's -O2 keeps them
       in memory otherwise). */
#pragma GCC unroll 16
    for (int j = 0; j < kAcc; ++j)
      acc[j] = _mm512_fmadd_ps(acc[j], m, a);
  }
  __m512 s = acc[0];
  for (int j = 1; j < kAcc; ++j)
    s = _mm512_add_ps(s, acc[j]);
  return _mm512_reduce_add_ps(s);
}

/* AVX2 has 16 ymm registers: 12 accumulators and the two constants fit. */
__attribute__((target("avx2,fma"))) static inline float
pb_fma_loop_avx2(long iters, float mul, float add) {
  enum { kAcc = 12 };
  __m256 acc[kAcc];
  for (int j = 0; j < kAcc; ++j)
    acc[j] = _mm256_set1_ps(1.0f + j * 1e-3f);
  const __m256 m = _mm256_set1_ps(mul), a = _mm256_set1_ps(add);
  for (long i = 0; i < iters; ++i) {
    /* Unrolled, the accumulators live in registers (GCC's -O2 keeps them
       in memory otherwise). */
#pragma GCC unroll 16
    for (int j = 0; j < kAcc; ++j)
      acc[j] = _mm256_fmadd_ps(acc[j], m, a);
  }
  __m256 s = acc[0];
  for (int j = 1; j < kAcc; ++j)
    s = _mm256_add_ps(s, acc[j]);
  float out[8];
  _mm256_storeu_ps(out, s);
  float r = 0.0f;
  for (int j = 0; j < 8; ++j)
    r += out[j];
  return r;
}

#endif /* POLYBLOCKS_BENCH_PEAK_FMA_H */
