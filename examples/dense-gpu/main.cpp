// Runs the dense layer of examples/dense (relu(x * w + b)) compiled for a
// GPU (polyblocks_add_kernel(... TARGET nvgpu) or TARGET amdgpu) and checks
// it against a plain C++ loop nest. Device buffers come from the PolyBlocks
// runtime, so the program needs no CUDA or HIP toolkit; on a machine without
// such a GPU it prints why it could not run and exits with 0.
//
// DENSE_GPU_PLATFORM is the runtime platform the kernel was compiled for
// (PBRT_PLATFORM_CUDA or PBRT_PLATFORM_HIP), DENSE_GPU_NAME the program's
// name.

#include "../dense/dense-reference.h"
#include "polyblocks/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using namespace dense_example;

// A device buffer holding a copy of `host`, freed at scope exit.
constexpr pbrtPlatform kPlatform = DENSE_GPU_PLATFORM;

struct DeviceBuffer {
  void *ptr = nullptr;
  ~DeviceBuffer() { pbrtDeviceFree(kPlatform, ptr); }
  int upload(const std::vector<float> &host) {
    const std::uint64_t bytes = host.size() * sizeof(float);
    if (int status = pbrtDeviceAlloc(kPlatform, &ptr, bytes))
      return status;
    return pbrtCopyToDevice(kPlatform, ptr, host.data(), bytes);
  }
};

} // namespace

int main() {
  std::vector<float> x(DENSE_X_SIZE), w(DENSE_W_SIZE), b(DENSE_B_SIZE);
  std::vector<float> result(DENSE_RESULT0_SIZE, -1.0f),
      expected(DENSE_RESULT0_SIZE);
  fill_random(x, 1);
  fill_random(w, 2);
  fill_random(b, 3);

  DeviceBuffer dx, dw, db, dresult;
  int status = dx.upload(x);
  if (status == PB_STATUS_NO_DRIVER || status == PB_STATUS_NO_DEVICE) {
    std::printf("%s: skipped, no GPU to run on: %s\n", DENSE_GPU_NAME,
                pbrtGetLastError());
    return 0;
  }
  if (!status)
    status = dw.upload(w);
  if (!status)
    status = db.upload(b);
  if (!status)
    status = dresult.upload(result);
  if (!status)
    status = dense(
        static_cast<const float *>(dx.ptr), static_cast<const float *>(dw.ptr),
        static_cast<const float *>(db.ptr), static_cast<float *>(dresult.ptr),
        /*stream=*/nullptr);
  if (!status)
    status = pbrtStreamSynchronize(kPlatform, nullptr);
  if (!status)
    status = pbrtCopyToHost(kPlatform, result.data(), dresult.ptr,
                            result.size() * sizeof(float));
  if (status) {
    std::fprintf(stderr, "%s: failed with status %d: %s\n", DENSE_GPU_NAME,
                 status, pbrtGetLastError());
    return 1;
  }

  dense_reference(x.data(), w.data(), b.data(), expected.data());
  double max_err = 0.0;
  for (std::size_t n = 0; n < result.size(); ++n)
    max_err =
        std::max(max_err, std::fabs(double(result[n]) - expected[n]) /
                              std::max(1.0, std::fabs(double(expected[n]))));
  char device[256] = "?";
  pbrtGetDeviceName(kPlatform, device, sizeof(device));
  std::printf("%s on %s: %dx%d * %dx%d, max relative error %.2g: %s\n",
              DENSE_GPU_NAME, device, M, K, K, N, max_err,
              max_err <= kTolerance ? "OK" : "MISMATCH");
  return max_err <= kTolerance ? 0 : 1;
}
