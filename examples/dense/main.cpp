// Runs the PolyBlocks-compiled dense layer (dense.mlir), checks it against a
// plain C++ loop nest computing relu(x * w + b), and compares their run times.

#include "dense-reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

using namespace dense_example;

// Calls fn once as a warm-up, then returns the best time of `runs` calls in ms.
template <typename Fn> double best_time_ms(Fn &&fn, int runs) {
  fn();
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    const auto stop = std::chrono::steady_clock::now();
    best = std::min(
        best, std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return best;
}

} // namespace

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
    max_err =
        std::max(max_err, diff / std::max(1.0, std::fabs(double(expected[n]))));
  }
  const bool ok = max_err <= kTolerance;

  // The layer takes microseconds, so take the best of many runs. The status
  // was checked above; the timed calls only repeat that same call.
  const int runs = 100;
  const double pb_ms = best_time_ms(
      [&] { dense(x.data(), w.data(), b.data(), result.data()); }, runs);
  const double ref_ms = best_time_ms(
      [&] { dense_reference(x.data(), w.data(), b.data(), expected.data()); },
      runs);

  std::printf("dense relu(%dx%d * %dx%d + %d) -> %dx%d: max relative error = "
              "%.1e  %s\n",
              M, K, K, N, N, M, N, max_err, ok ? "OK" : "MISMATCH");
  std::printf("polyblocks: %.1f us   plain C++ loop: %.1f us   (%.1fx)\n",
              pb_ms * 1e3, ref_ms * 1e3, ref_ms / pb_ms);
  return ok ? 0 : 1;
}
