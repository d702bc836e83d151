// Small helpers shared by pb-bench's translation units: aligned buffers,
// deterministic random data, the error metric and a clock.
#ifndef PB_BENCH_UTIL_H
#define PB_BENCH_UTIL_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace pbbench {

// A 64-byte aligned, zero-initialised float buffer (first touch happens
// here, outside any timed region).
class Buffer {
public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : n_(n) {
    std::size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
    if (bytes == 0)
      bytes = 64;
    data_ = static_cast<float *>(std::aligned_alloc(64, bytes));
    if (!data_)
      throw std::bad_alloc();
    std::memset(data_, 0, bytes);
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&o) noexcept : data_(o.data_), n_(o.n_) {
    o.data_ = nullptr, o.n_ = 0;
  }
  Buffer &operator=(Buffer &&o) noexcept {
    std::swap(data_, o.data_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~Buffer() { std::free(data_); }

  float *data() { return data_; }
  const float *data() const { return data_; }
  std::size_t size() const { return n_; }
  float &operator[](std::size_t i) { return data_[i]; }
  const float &operator[](std::size_t i) const { return data_[i]; }

private:
  float *data_ = nullptr;
  std::size_t n_ = 0;
};

// Deterministic pseudo-random values in [lo, hi) (32-bit LCG).
inline void fill_random(Buffer &b, std::uint32_t seed, float lo = -1.0f,
                        float hi = 1.0f) {
  std::uint32_t s = seed * 2654435761u + 12345u;
  const float scale = (hi - lo) / 16777216.0f;
  for (std::size_t i = 0; i < b.size(); ++i) {
    s = s * 1664525u + 1013904223u;
    b[i] = lo + static_cast<float>(s >> 8) * scale;
  }
}

// Max relative error of `got` against `ref`:
//   max_i |got_i - ref_i| / max(|ref_i|, 0.01 * max_j |ref_j|)
// The floor (1% of the largest reference magnitude) keeps outputs that are
// close to zero by cancellation from dominating. A NaN or infinity in `got`
// gives +inf.
double max_rel_err(const float *got, const float *ref, std::size_t n);

inline double now_s() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace pbbench

#endif // PB_BENCH_UTIL_H
