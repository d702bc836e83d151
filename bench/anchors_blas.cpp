// OpenBLAS anchor: cblas_sgemm (Debian's OpenMP build of OpenBLAS 0.3.21).
#include "anchors.h"

#include <cblas.h>

#include <string>
#include <vector>

extern "C" {
// Not declared by every cblas.h.
char *openblas_get_corename(void);
int openblas_get_num_threads(void);
int openblas_get_parallel(void);
char *openblas_get_config(void);
}

namespace pbbench {

void openblas_sgemm(int M, int N, int K, const float *A, const float *B,
                    float *C) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B,
              N, 0.0f, C, N);
}

std::string openblas_info() {
  // OpenBLAS' OpenMP build sizes its thread count at load time from
  // omp_get_num_places() (1 under libomp without OMP_PLACES), then follows
  // omp_get_max_threads() on every threaded call. One such call (above the
  // small-matrix threshold) first, so that the count reported is the one used.
  std::vector<float> a(256 * 256, 0.0f), b(256 * 256, 0.0f), c(256 * 256);
  openblas_sgemm(256, 256, 256, a.data(), b.data(), c.data());
  std::string config = openblas_get_config();
  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..." -> "OpenBLAS 0.3.21"
  std::string version =
      config.substr(0, config.find(' ', config.find(' ') + 1));
  const int parallel =
      openblas_get_parallel(); // 0 serial, 1 pthreads, 2 OpenMP
  const char *model = parallel == 2   ? "OpenMP build"
                      : parallel == 1 ? "pthreads build"
                                      : "serial build";
  return version + ", core " + openblas_get_corename() + ", " +
         std::to_string(openblas_get_num_threads()) + " threads (" + model +
         ")";
}

} // namespace pbbench
