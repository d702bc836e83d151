// Runs the PolyBlocks-compiled separable blur (blur.mlir), checks it against a
// plain C++ loop nest computing the same thing, and compares their run times.

#include "blur.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

// Sizes come from the generated header, so they always match blur.mlir.
constexpr int C = BLUR_IMG_DIM0;
constexpr int H = BLUR_IMG_DIM1;
constexpr int W = BLUR_IMG_DIM2;
constexpr int OH = BLUR_RESULT0_DIM1;
constexpr int OW = BLUR_RESULT0_DIM2;

constexpr int kTaps = 5;
constexpr float kWeights[kTaps] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

static_assert(BLUR_RESULT0_DIM0 == C && OH == H - (kTaps - 1) &&
                  OW == W - (kTaps - 1),
              "blur.mlir is expected to be a 5-tap blur with valid borders");

constexpr double kTolerance = 1e-4;

// Deterministic pseudo-random values in [0, 1) (a 32-bit LCG).
void fill_random(std::vector<float> &data, std::uint32_t seed) {
  for (float &v : data) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(seed >> 8) / 16777216.0f;
  }
}

// Reference: x pass into tmp (C x H x OW), then y pass into out (C x OH x OW),
// accumulating the taps in the same order as blur.mlir.
void blur_reference(const float *img, float *tmp, float *out) {
  for (int c = 0; c < C; ++c)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < OW; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < kTaps; ++k)
          acc += kWeights[k] * img[(c * H + i) * W + j + k];
        tmp[(c * H + i) * OW + j] = acc;
      }
  for (int c = 0; c < C; ++c)
    for (int i = 0; i < OH; ++i)
      for (int j = 0; j < OW; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < kTaps; ++k)
          acc += kWeights[k] * tmp[(c * H + i + k) * OW + j];
        out[(c * OH + i) * OW + j] = acc;
      }
}

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
  std::vector<float> img(BLUR_IMG_SIZE);
  std::vector<float> result(BLUR_RESULT0_SIZE);
  std::vector<float> tmp(static_cast<std::size_t>(C) * H * OW);
  std::vector<float> expected(BLUR_RESULT0_SIZE);
  fill_random(img, 42);

  if (int status = blur(img.data(), result.data())) {
    std::fprintf(stderr, "blur failed with status %d\n", status);
    return 1;
  }
  blur_reference(img.data(), tmp.data(), expected.data());

  double max_err = 0.0;
  for (std::size_t n = 0; n < result.size(); ++n)
    max_err =
        std::max(max_err, std::fabs(double(result[n]) - double(expected[n])));
  const bool ok = max_err <= kTolerance;

  // The status was checked above; the timed calls only repeat that same call.
  const int runs = 5;
  const double pb_ms =
      best_time_ms([&] { blur(img.data(), result.data()); }, runs);
  const double ref_ms = best_time_ms(
      [&] { blur_reference(img.data(), tmp.data(), expected.data()); }, runs);

  std::printf(
      "blur %dx%dx%d -> %dx%dx%d: max |polyblocks - reference| = %.1e  %s\n", C,
      H, W, C, OH, OW, max_err, ok ? "OK" : "MISMATCH");
  std::printf("polyblocks: %.2f ms   plain C++ loop: %.2f ms   (%.1fx)\n",
              pb_ms, ref_ms, ref_ms / pb_ms);
  return ok ? 0 : 1;
}
