// Halide 14 anchor: the separable 5-tap blur of examples/blur, JIT-compiled
// with a hand-written CPU schedule.
#include "anchors.h"

#include <Halide.h>

#include <cstdint>
#include <string>

namespace pbbench {
namespace {

// Halide's parallel loops on the process's OpenMP pool (see HalideBlur).
int openmp_do_par_for(Halide::JITUserContext *ctx,
                      int (*f)(Halide::JITUserContext *, int, uint8_t *),
                      int min, int extent, uint8_t *closure) {
  int result = 0;
#pragma omp parallel for schedule(static)
  for (int i = min; i < min + extent; ++i) {
    const int r = f(ctx, i, closure);
    if (r != 0) {
#pragma omp atomic write
      result = r;
    }
  }
  return result;
}

// Rows of the output per parallel task (a full-width tile), and vector width.
// Measured on the 2-core Zen 3 machine: strips of 16 to 64 rows run at the
// DRAM bandwidth (~4.8 ms); 256 x 32 tiles took ~7 ms, 512 x 8 ~6.8 ms.
constexpr int kRows = 16;
constexpr int kVector = 16;

} // namespace

struct HalideBlur::Impl {
  Halide::Buffer<float> in, out;
  Halide::Pipeline pipeline;
  bool use_openmp;
};

HalideBlur::HalideBlur(const float *img, float *out, bool use_openmp)
    : impl_(new Impl) {
  using namespace Halide;
  impl_->use_openmp = use_openmp;
  // tensor<3x2048x2048xf32> is x innermost, then y, then c.
  impl_->in = Buffer<float>(const_cast<float *>(img), 2048, 2048, 3);
  impl_->out = Buffer<float>(out, 2044, 2044, 3);

  Var x("x"), y("y"), c("c"), yo("yo"), yi("yi"), t("t");
  const float w0 = 0.0625f, w1 = 0.25f, w2 = 0.375f;
  Func bx("blur_x"), by("blur_y");
  bx(x, y, c) = w0 * impl_->in(x, y, c) + w1 * impl_->in(x + 1, y, c) +
                w2 * impl_->in(x + 2, y, c) + w1 * impl_->in(x + 3, y, c) +
                w0 * impl_->in(x + 4, y, c);
  by(x, y, c) = w0 * bx(x, y, c) + w1 * bx(x, y + 1, c) + w2 * bx(x, y + 2, c) +
                w1 * bx(x, y + 3, c) + w0 * bx(x, y + 4, c);

  // Schedule: the output in full-width tiles of kRows rows; the tiles of all
  // three channels form one parallel loop; the x pass is computed per tile
  // (2044 x (kRows + 4) values, in L2); both passes vectorized by 16.
  by.split(y, yo, yi, kRows).fuse(yo, c, t).parallel(t).vectorize(x, kVector);
  bx.compute_at(by, t).vectorize(x, kVector);

  impl_->pipeline = Pipeline(by);
  if (use_openmp)
    impl_->pipeline.jit_handlers().custom_do_par_for = openmp_do_par_for;
  impl_->pipeline.compile_jit(get_host_target());
}

HalideBlur::~HalideBlur() = default;

void HalideBlur::run() { impl_->pipeline.realize(impl_->out); }

std::string HalideBlur::description() const {
  return "Halide 14 JIT, target " + Halide::get_host_target().to_string() +
         ", full-width tiles of " + std::to_string(kRows) +
         " rows over rows x channels in parallel, " +
         "x pass computed per tile, vectorized by " + std::to_string(kVector) +
         (impl_->use_openmp ? ", parallel loop on the OpenMP pool"
                            : ", Halide's thread pool");
}

} // namespace pbbench
