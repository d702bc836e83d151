// Machine limits: a STREAM triad and a peak FMA loop, both on the OpenMP
// threads; plus which OpenMP runtime the process uses.
#include "anchors.h"
#include "bench_util.h"
#include "peak_fma.h"

#include <dlfcn.h>
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>

namespace pbbench {

// --- STREAM triad
// -------------------------------------------------------------
namespace {
constexpr float kTriadScalar = 3.0f;

float *alloc_floats(std::size_t n) {
  void *p =
      std::aligned_alloc(4096, ((n * sizeof(float) + 4095) / 4096) * 4096);
  if (!p)
    throw std::bad_alloc();
  return static_cast<float *>(p);
}
} // namespace

StreamTriad::StreamTriad(std::size_t n)
    : n_(n), a_(alloc_floats(n)), b_(alloc_floats(n)), c_(alloc_floats(n)) {
  // First touch with the same static schedule as the timed loop.
  const long nn = static_cast<long>(n_);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < nn; ++i) {
    a_[i] = 0.0f;
    b_[i] = 1.0f + static_cast<float>(i & 1023) * 1e-3f;
    c_[i] = 2.0f - static_cast<float>(i & 511) * 1e-3f;
  }
}

StreamTriad::~StreamTriad() {
  std::free(a_);
  std::free(b_);
  std::free(c_);
}

void StreamTriad::run() {
  float *__restrict a = a_;
  const float *__restrict b = b_;
  const float *__restrict c = c_;
  const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + kTriadScalar * c[i];
}

bool StreamTriad::check() const {
  for (std::size_t i = 0; i < n_; i += 4099)
    if (a_[i] != b_[i] + kTriadScalar * c_[i])
      return false;
  return true;
}

// --- peak FMA
// -------------------------------------------------------------------
namespace {

volatile float g_sink, g_mul = 0.9999999f, g_add = 1e-7f;

} // namespace

double peak_fma_gflops(int reps, std::string *isa) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const double flops_per_iter =
      avx512 ? PB_FMA_FLOPS_AVX512 : PB_FMA_FLOPS_AVX2;
  if (isa)
    *isa = avx512 ? "AVX-512 FMA, 16 zmm accumulators"
                  : "AVX2 FMA, 12 ymm accumulators (no AVX-512)";
  auto run = [&](long iters) {
    const double t0 = now_s();
    int threads = 1;
#pragma omp parallel
    {
      const float m = g_mul, a = g_add;
      const float r = avx512 ? pb_fma_loop_avx512(iters, m, a)
                             : pb_fma_loop_avx2(iters, m, a);
#pragma omp single nowait
      threads = omp_get_num_threads();
      g_sink = r;
    }
    const double t = now_s() - t0;
    return threads * flops_per_iter * iters / t / 1e9;
  };
  // Calibrate to ~0.25 s per run.
  long iters = 1 << 20;
  double gf = run(iters);
  iters = std::max<long>(
      iters, static_cast<long>(0.25 * gf * 1e9 /
                               (flops_per_iter * omp_get_max_threads())));
  double best = 0.0;
  for (int r = 0; r < reps; ++r)
    best = std::max(best, run(iters));
  return best;
}

// --- OpenMP runtime
// ---------------------------------------------------------------
std::string openmp_runtime_info() {
  auto lib_of = [](const char *sym) -> std::string {
    void *p = dlsym(RTLD_DEFAULT, sym);
    Dl_info info;
    if (!p || !dladdr(p, &info) || !info.dli_fname)
      return "?";
    std::string f = info.dli_fname;
    return f.substr(f.rfind('/') + 1);
  };
  return "GOMP_parallel from " + lib_of("GOMP_parallel") +
         ", omp_get_max_threads from " + lib_of("omp_get_max_threads") + ", " +
         std::to_string(omp_get_max_threads()) + " threads";
}

} // namespace pbbench
