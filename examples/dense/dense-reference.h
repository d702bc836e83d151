// The dense layer's shapes, its inputs and a plain C++ reference, shared by
// the CPU example (main.cpp) and the GPU one (../dense-gpu/main.cpp).
#ifndef POLYBLOCKS_EXAMPLES_DENSE_REFERENCE_H
#define POLYBLOCKS_EXAMPLES_DENSE_REFERENCE_H

#include "dense.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dense_example {

// Sizes come from the generated header, so they always match dense.mlir.
constexpr int M = DENSE_X_DIM0; // rows (batch)
constexpr int K = DENSE_X_DIM1; // input features
constexpr int N = DENSE_W_DIM1; // output features

static_assert(DENSE_W_DIM0 == K && DENSE_B_DIM0 == N &&
                  DENSE_RESULT0_DIM0 == M && DENSE_RESULT0_DIM1 == N,
              "dense.mlir shapes must be x: MxK, w: KxN, b: N, result: MxN");

// Each output sums K products, so the error is judged relative to the
// magnitude of the expected value (with an absolute floor of 1 near zero).
constexpr double kTolerance = 1e-3;

// Deterministic pseudo-random values in [-1, 1) (a 32-bit LCG).
inline void fill_random(std::vector<float> &data, std::uint32_t seed) {
  for (float &v : data) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
}

// Reference: result = relu(x * w + b), with the same accumulation order as
// dense.mlir (the k sum first, starting from zero, then the bias).
inline void dense_reference(const float *x, const float *w, const float *b,
                            float *result) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += x[i * K + k] * w[k * N + j];
      result[i * N + j] = std::max(acc + b[j], 0.0f);
    }
}

} // namespace dense_example

#endif // POLYBLOCKS_EXAMPLES_DENSE_REFERENCE_H
