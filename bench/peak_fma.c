/* The machine's peak f32 arithmetic on its OpenMP threads (OMP_NUM_THREADS):
 * the best of five runs of the FMA loops of peak_fma.h, each about 0.25 s.
 * bench/models.py builds and runs it to give each network's arithmetic a
 * time at this peak. Prints one line: "<GFLOP/s> <threads> <ISA>".
 *
 *   cc -O2 -fopenmp bench/peak_fma.c -o peak_fma && ./peak_fma */
#include "peak_fma.h"

#include <omp.h>
#include <stdio.h>

static volatile float sink, mul = 0.9999999f, add = 1e-7f;

/* GFLOP/s of `iters` iterations of the loop on every thread. */
static double run(int avx512, double perIter, long iters, int *threads) {
  double start = omp_get_wtime();
#pragma omp parallel
  {
    float m = mul, a = add;
    float r = avx512 ? pb_fma_loop_avx512(iters, m, a)
                     : pb_fma_loop_avx2(iters, m, a);
#pragma omp single nowait
    *threads = omp_get_num_threads();
    sink = r;
  }
  double seconds = omp_get_wtime() - start;
  return *threads * perIter * (double)iters / seconds / 1e9;
}

int main(void) {
  __builtin_cpu_init();
  int avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !__builtin_cpu_supports("fma")) {
    fprintf(stderr, "peak_fma: the CPU has neither AVX-512 nor FMA\n");
    return 1;
  }
  double perIter = avx512 ? PB_FMA_FLOPS_AVX512 : PB_FMA_FLOPS_AVX2;
  int threads = 1;
  long iters = 1L << 20;
  double gflops = run(avx512, perIter, iters, &threads);
  long calibrated = (long)(0.25 * gflops * 1e9 / (perIter * threads));
  if (calibrated > iters)
    iters = calibrated;
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    double g = run(avx512, perIter, iters, &threads);
    if (g > best)
      best = g;
  }
  printf("%.1f %d %s\n", best, threads, avx512 ? "AVX-512" : "AVX2");
  return 0;
}
