// The anchors pb-bench measures our kernels against. Each library lives in
// its own translation unit (anchors_*.cpp) so that dnnl.hpp and Halide.h are
// compiled once and kept out of pb-bench.cpp.
#ifndef PB_BENCH_ANCHORS_H
#define PB_BENCH_ANCHORS_H

#include <cstddef>
#include <memory>
#include <string>

namespace pbbench {

// --- OpenBLAS (anchors_blas.cpp) -------------------------------------------
// C = A * B, row-major, A MxK, B KxN, C MxN (cblas_sgemm).
void openblas_sgemm(int M, int N, int K, const float *A, const float *B,
                    float *C);
// "OpenBLAS 0.3.21, core Zen, 2 threads (OpenMP build)".
std::string openblas_info();

// --- oneDNN (anchors_dnnl.cpp) ---------------------------------------------
// C = A * B, row-major (dnnl_sgemm).
void dnnl_sgemm_rowmajor(int M, int N, int K, const float *A, const float *B,
                         float *C);
// "oneDNN 2.6.3, CPU ISA avx2, OpenMP runtime".
std::string dnnl_info();

// relu(A * B + bias): a oneDNN matmul primitive with a bias and an
// eltwise_relu post-op, plain row-major (ab) tensors wrapping the caller's
// buffers (no reorders).
class DnnlMatmulBiasRelu {
public:
  DnnlMatmulBiasRelu(int M, int N, int K, const float *A, const float *B,
                     const float *bias, float *C);
  ~DnnlMatmulBiasRelu();
  void run();               // executes the primitive and waits for it
  std::string impl() const; // oneDNN's implementation name, e.g. "brg:avx2"

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A batch-1 2-D convolution, no bias. Input NHWC, filter HWCF (= oneDNN's
// hwio), output NHWC. oneDNN picks its own layouts (format_tag::any); the
// input and filter are reordered into them when the object is built, and
// run() executes only the convolution primitive. output_nhwc() reorders the
// last result back to NHWC (untimed, for the correctness check).
struct ConvShape {
  int H, W, C, F, K, stride, pad;
  int OH() const { return (H + 2 * pad - K) / stride + 1; }
  int OW() const { return (W + 2 * pad - K) / stride + 1; }
  double flops() const { return 2.0 * OH() * OW() * F * K * K * C; }
};
class DnnlConv {
public:
  DnnlConv(const ConvShape &s, const float *in_nhwc, const float *filter_hwcf);
  ~DnnlConv();
  void run();
  void output_nhwc(float *out);
  std::string impl() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Softmax over the last axis of a rows x cols row-major f32 matrix: a oneDNN
// softmax_v2 primitive (softmax_accurate: subtracts the row max) on plain
// tensors wrapping the caller's buffers.
class DnnlSoftmax {
public:
  DnnlSoftmax(int rows, int cols, const float *x, float *y);
  ~DnnlSoftmax();
  void run();
  std::string impl() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Layer normalization over the last axis of a rows x cols row-major f32
// matrix, (x - mean) / sqrt(var + epsilon) * gamma + beta: a oneDNN
// layer_normalization primitive (forward inference, statistics computed,
// use_scale | use_shift; the mean and variance stay inside the primitive)
// on plain tensors wrapping the caller's buffers.
class DnnlLayerNorm {
public:
  DnnlLayerNorm(int rows, int cols, float epsilon, const float *x,
                const float *gamma, const float *beta, float *y);
  ~DnnlLayerNorm();
  void run();
  std::string impl() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --- Halide 14 (anchors_halide.cpp) ------------------------------------------
// The separable 5-tap blur of examples/blur over a 3 x 2048 x 2048 image
// (channel-major, like the MLIR tensor<3x2048x2048xf32>) into 3 x 2044 x 2044,
// JIT-compiled once in the constructor with a hand-written CPU schedule.
// With use_openmp, Halide's parallel loops run on the process's OpenMP pool
// (JITHandlers::custom_do_par_for) instead of Halide's own thread pool.
class HalideBlur {
public:
  HalideBlur(const float *img, float *out, bool use_openmp);
  ~HalideBlur();
  void run();
  std::string description() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --- STREAM triad and peak FMA (anchors_stream.cpp)
// --------------------------- a[i] = b[i] + s * c[i] over n floats per array,
// OpenMP static schedule.
class StreamTriad {
public:
  explicit StreamTriad(std::size_t n);
  ~StreamTriad();
  void run();
  double bytes() const { return 3.0 * sizeof(float) * static_cast<double>(n_); }
  bool check() const; // a[i] == b[i] + s * c[i] after run()

private:
  std::size_t n_;
  float *a_, *b_, *c_;
};

// Peak single-precision FMA throughput of all OpenMP threads, in GFLOP/s
// (best of `reps` runs of ~0.25 s). AVX-512 (16 zmm accumulators) where the
// CPU has it, otherwise AVX2 + FMA (12 ymm accumulators). `isa` receives a
// description of the loop that ran.
double peak_fma_gflops(int reps, std::string *isa);

// Which OpenMP runtime GOMP_parallel (what GCC-compiled code, oneDNN and
// OpenBLAS call) and omp_get_max_threads resolve to, and its thread count.
std::string openmp_runtime_info();

} // namespace pbbench

#endif // PB_BENCH_ANCHORS_H
