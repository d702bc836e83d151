// Runs the PolyBlocks-compiled dense layer (dense.mlir), checks it against a
// plain C++ loop nest computing relu(x * w + b), and compares their run times.

#include "dense.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

// Sizes come from the generated header, so they always match dense.mlir.
constexpr int M = DENSE_X_DIM0;  // rows (batch)
constexpr int K = DENSE_X_DIM1;  // input features
constexpr int N = DENSE_W_DIM1;  // output features

static_assert(DENSE_W_DIM0 == K && DENSE_B_DIM0 == N && DENSE_RESULT0_DIM0 == M &&
                  DENSE_RESULT0_DIM1 == N,
              "dense.mlir shapes must be x: MxK, w: KxN, b: N, result: MxN");

// Each output sums K products, so the error is judged relative to the
// magnitude of the expected value (with an absolute floor of 1 near zero).
constexpr double kTolerance = 1e-3;

// Deterministic pseudo-random values in [-1, 1) (a 32-bit LCG).
void fill_random(std::vector<float>& data, std::uint32_t seed) {
  for (float& v : data) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
}

// Reference: result = relu(x * w + b), with the same accumulation order as
// dense.mlir (the k sum first, starting from zero, then the bias).
void dense_reference(const float* x, const float* w, const float* b, float* result) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += x[i * K + k] * w[k * N + j];
      result[i * N + j] = std::max(acc + b[j], 0.0f);
    }
}

// Calls fn once as a warm-up, then returns the best time of `runs` calls in ms.
template <typename Fn>
double best_time_ms(Fn&& fn, int runs) {
  fn();
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    const auto stop = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return best;
}

}  // namespace

int main() {
  std::vector<float> x(DENSE_X_SIZE), w(DENSE_W_SIZE), b(DENSE_B_SIZE);
  std::vector<float> result(DENSE_RESULT0_SIZE), expected(DENSE_RESULT0_SIZE);
  fill_random(x, 1);
  fill_random(w, 2);
  fill_random(b, 3);

  if (int status = dense(x.data(), w.data(), b.data(), result.data())) {
    std::fprintf(stderr, "dense failed with status %d\n", status);
    return 1;
  }
  dense_reference(x.data(), w.data(), b.data(), expected.data());

  double max_err = 0.0;
  for (std::size_t n = 0; n < result.size(); ++n) {
    const double diff = std::fabs(double(result[n]) - double(expected[n]));
    max_err = std::max(max_err, diff / std::max(1.0, std::fabs(double(expected[n]))));
  }
  const bool ok = max_err <= kTolerance;

  // The layer takes microseconds, so take the best of many runs. The status
  // was checked above; the timed calls only repeat that same call.
  const int runs = 100;
  const double pb_ms =
      best_time_ms([&] { dense(x.data(), w.data(), b.data(), result.data()); }, runs);
  const double ref_ms =
      best_time_ms([&] { dense_reference(x.data(), w.data(), b.data(), expected.data()); }, runs);

  std::printf("dense relu(%dx%d * %dx%d + %d) -> %dx%d: max relative error = %.1e  %s\n", M, K, K,
              N, N, M, N, max_err, ok ? "OK" : "MISMATCH");
  std::printf("polyblocks: %.1f us   plain C++ loop: %.1f us   (%.1fx)\n", pb_ms * 1e3,
              ref_ms * 1e3, ref_ms / pb_ms);
  return ok ? 0 : 1;
}
