//===- Runtime.cpp - The PolyBlocks GPU runtime ---------------------------===//
//
// Loads the CUDA driver with dlopen on first use and forwards launches,
// allocations and copies to it. The driver's types are declared here (the
// documented ABI of the CUDA driver API), so the library builds without a
// CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/runtime.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {

// The CUDA driver API, as far as the runtime uses it.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;

struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuGetErrorString)(CUresult, const char **);

  /// The primary context of device 0, for threads that have none.
  CUcontext primary = nullptr;
  bool asyncAllocation = false;
};

thread_local std::string lastError;

int32_t fail(int32_t status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
int32_t fail(int32_t status, const char *format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  lastError = buffer;
  return status;
}

/// Guards loading the driver and filling the module and function slots;
/// launches, copies and synchronization run outside it.
std::mutex mutex;

/// Loads the driver once. On failure the reason is kept and reported again
/// on every later call.
int32_t loadDriver(CudaDriver *&out) {
  static CudaDriver driver;
  static int32_t status = -1;
  static std::string error;
  if (status == -1) {
    const char *path = std::getenv("PB_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    status = PB_STATUS_SUCCESS;
    if (!lib) {
      status = PB_STATUS_NO_DRIVER;
      const char *why = dlerror();
      error = std::string("cannot load the CUDA driver (") + path +
              "): " + (why ? why : "unknown error");
    }
    auto bind = [&](auto &fn, const char *name) {
      if (status != PB_STATUS_SUCCESS)
        return;
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn) {
        status = PB_STATUS_NO_DRIVER;
        error = std::string("the CUDA driver (") + path + ") lacks " + name;
      }
    };
    bind(driver.cuInit, "cuInit");
    bind(driver.cuDeviceGet, "cuDeviceGet");
    bind(driver.cuDeviceGetName, "cuDeviceGetName");
    bind(driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    bind(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(driver.cuCtxGetCurrent, "cuCtxGetCurrent");
    bind(driver.cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(driver.cuModuleLoadData, "cuModuleLoadData");
    bind(driver.cuModuleGetFunction, "cuModuleGetFunction");
    bind(driver.cuLaunchKernel, "cuLaunchKernel");
    bind(driver.cuMemAlloc, "cuMemAlloc_v2");
    bind(driver.cuMemFree, "cuMemFree_v2");
    bind(driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    bind(driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    bind(driver.cuStreamSynchronize, "cuStreamSynchronize");
    bind(driver.cuGetErrorString, "cuGetErrorString");
    if (status == PB_STATUS_SUCCESS) {
      // Stream-ordered allocation (CUDA 11.2 on) where the device has it.
      driver.cuMemAllocAsync = reinterpret_cast<decltype(driver.cuMemAllocAsync)>(
          dlsym(lib, "cuMemAllocAsync"));
      driver.cuMemFreeAsync = reinterpret_cast<decltype(driver.cuMemFreeAsync)>(
          dlsym(lib, "cuMemFreeAsync"));
      CUresult rc = driver.cuInit(0);
      CUdevice device = 0;
      if (rc == CUDA_SUCCESS)
        rc = driver.cuDeviceGet(&device, 0);
      if (rc == CUDA_SUCCESS)
        rc = driver.cuDevicePrimaryCtxRetain(&driver.primary, device);
      if (rc != CUDA_SUCCESS) {
        const char *text = nullptr;
        driver.cuGetErrorString(rc, &text);
        status = rc == CUDA_ERROR_NO_DEVICE     ? PB_STATUS_NO_DEVICE
                 : rc == CUDA_ERROR_STUB_LIBRARY ? PB_STATUS_NO_DRIVER
                                                 : PB_STATUS_DRIVER_ERROR;
        error = rc == CUDA_ERROR_STUB_LIBRARY
                    ? "the CUDA driver is the toolkit's stub library (no "
                      "driver installed)"
                    : std::string("the CUDA driver found no usable device: ") +
                          (text ? text : "unknown error");
        error += " (CUresult " + std::to_string(rc) + ")";
      } else {
        int pools = 0;
        driver.asyncAllocation =
            driver.cuMemAllocAsync && driver.cuMemFreeAsync &&
            driver.cuDeviceGetAttribute(
                &pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device) ==
                CUDA_SUCCESS &&
            pools != 0;
      }
    }
  }
  if (status != PB_STATUS_SUCCESS)
    return fail(status, "%s", error.c_str());
  out = &driver;
  return PB_STATUS_SUCCESS;
}

/// Turns a driver error into a status and message.
int32_t check(CudaDriver &driver, CUresult rc, int32_t status,
              const char *what) {
  if (rc == CUDA_SUCCESS)
    return PB_STATUS_SUCCESS;
  const char *text = nullptr;
  driver.cuGetErrorString(rc, &text);
  if (rc == CUDA_ERROR_OUT_OF_MEMORY)
    status = PB_STATUS_OUT_OF_MEMORY;
  return fail(status, "%s: %s (CUresult %d)", what,
              text ? text : "unknown error", rc);
}

/// Loads the driver (once, for all threads) and makes sure the calling
/// thread has a context.
int32_t getDriver(CudaDriver *&driver) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (int32_t status = loadDriver(driver))
      return status;
  }
  CUcontext current = nullptr;
  if (int32_t status = check(*driver, driver->cuCtxGetCurrent(&current),
                             PB_STATUS_DRIVER_ERROR, "cuCtxGetCurrent"))
    return status;
  if (!current)
    return check(*driver, driver->cuCtxSetCurrent(driver->primary),
                 PB_STATUS_DRIVER_ERROR, "cuCtxSetCurrent");
  return PB_STATUS_SUCCESS;
}

/// Fills the module slot (loading `image`) and the function slot of a
/// kernel on first use.
int32_t loadKernel(CudaDriver &driver, void **module, const void *image,
                   void **function, const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!*module) {
    CUmodule loaded = nullptr;
    if (int32_t rc = check(driver, driver.cuModuleLoadData(&loaded, image),
                           PB_STATUS_MODULE_LOAD_FAILED,
                           "cannot load the kernels' device code"))
      return rc;
    *module = loaded;
  }
  if (!*function) {
    CUfunction fn = nullptr;
    if (int32_t rc = check(
            driver,
            driver.cuModuleGetFunction(&fn, static_cast<CUmodule>(*module), name),
            PB_STATUS_MODULE_LOAD_FAILED,
            "cannot find a kernel in the device code"))
      return rc;
    *function = fn;
  }
  return PB_STATUS_SUCCESS;
}

int32_t unsupportedPlatform(int32_t platform) {
  return fail(PB_STATUS_UNSUPPORTED_PLATFORM,
              "this PolyBlocks runtime launches CUDA code only (platform %d "
              "requested)",
              platform);
}

/// The start of the calls generated code makes: a failure so far is passed
/// on, the platform must be CUDA, the driver is loaded.
int32_t startCall(int32_t status, int32_t platform, CudaDriver *&driver) {
  if (status != PB_STATUS_SUCCESS)
    return status;
  if (platform != PBRT_PLATFORM_CUDA)
    return unsupportedPlatform(platform);
  return getDriver(driver);
}

CUdeviceptr toDevicePointer(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

} // namespace

extern "C" {

const char *pbrtGetLastError(void) { return lastError.c_str(); }

int32_t pbrtLaunch(int32_t status, int32_t platform, void **module,
                   const void *image, uint64_t imageSize, void **function,
                   const char *name, uint32_t gridX, uint32_t gridY,
                   uint32_t gridZ, uint32_t blockX, uint32_t blockY,
                   uint32_t blockZ, uint32_t sharedBytes, void *stream,
                   void **args) {
  (void)imageSize; // the image's format says its size to the driver
  CudaDriver *driver;
  if (int32_t rc = startCall(status, platform, driver))
    return rc;
  if (int32_t rc = loadKernel(*driver, module, image, function, name))
    return rc;
  CUresult rc = driver->cuLaunchKernel(
      static_cast<CUfunction>(*function), gridX, gridY, gridZ, blockX, blockY,
      blockZ, sharedBytes, static_cast<CUstream>(stream), args, nullptr);
  if (rc != CUDA_SUCCESS) {
    check(*driver, rc, PB_STATUS_LAUNCH_FAILED, "cuLaunchKernel");
    lastError = "launching " + std::string(name) + ": " + lastError;
    return PB_STATUS_LAUNCH_FAILED;
  }
  return PB_STATUS_SUCCESS;
}

int32_t pbrtAlloc(int32_t status, int32_t platform, void **ptr,
                  uint64_t bytes, void *stream) {
  *ptr = nullptr;
  CudaDriver *driver;
  if (int32_t rc = startCall(status, platform, driver))
    return rc;
  CUdeviceptr p = 0;
  CUresult rc = driver->asyncAllocation
                    ? driver->cuMemAllocAsync(&p, bytes, static_cast<CUstream>(stream))
                    : driver->cuMemAlloc(&p, bytes);
  if (int32_t failed = check(*driver, rc, PB_STATUS_DRIVER_ERROR,
                             "cannot allocate a device buffer"))
    return failed;
  *ptr = reinterpret_cast<void *>(p);
  return PB_STATUS_SUCCESS;
}

void pbrtFree(int32_t platform, void *ptr, void *stream) {
  CudaDriver *driver;
  if (!ptr || platform != PBRT_PLATFORM_CUDA || getDriver(driver))
    return;
  if (driver->asyncAllocation)
    driver->cuMemFreeAsync(toDevicePointer(ptr), static_cast<CUstream>(stream));
  else
    driver->cuMemFree(toDevicePointer(ptr));
}

int32_t pbrtDeviceAlloc(void **ptr, uint64_t bytes) {
  *ptr = nullptr;
  CudaDriver *driver;
  if (int32_t rc = getDriver(driver))
    return rc;
  CUdeviceptr p = 0;
  if (int32_t rc = check(*driver, driver->cuMemAlloc(&p, bytes ? bytes : 1),
                         PB_STATUS_DRIVER_ERROR, "cuMemAlloc"))
    return rc;
  *ptr = reinterpret_cast<void *>(p);
  return PB_STATUS_SUCCESS;
}

int32_t pbrtDeviceFree(void *ptr) {
  CudaDriver *driver;
  if (!ptr)
    return PB_STATUS_SUCCESS;
  if (int32_t rc = getDriver(driver))
    return rc;
  return check(*driver, driver->cuMemFree(toDevicePointer(ptr)),
               PB_STATUS_DRIVER_ERROR, "cuMemFree");
}

int32_t pbrtCopyToDevice(void *device, const void *host, uint64_t bytes) {
  CudaDriver *driver;
  if (int32_t rc = getDriver(driver))
    return rc;
  return check(*driver, driver->cuMemcpyHtoD(toDevicePointer(device), host, bytes),
               PB_STATUS_DRIVER_ERROR, "cuMemcpyHtoD");
}

int32_t pbrtCopyToHost(void *host, const void *device, uint64_t bytes) {
  CudaDriver *driver;
  if (int32_t rc = getDriver(driver))
    return rc;
  return check(*driver, driver->cuMemcpyDtoH(host, toDevicePointer(device), bytes),
               PB_STATUS_DRIVER_ERROR, "cuMemcpyDtoH");
}

int32_t pbrtStreamSynchronize(void *stream) {
  CudaDriver *driver;
  if (int32_t rc = getDriver(driver))
    return rc;
  return check(*driver, driver->cuStreamSynchronize(static_cast<CUstream>(stream)),
               PB_STATUS_LAUNCH_FAILED, "a kernel failed on the stream");
}

int32_t pbrtGetDeviceName(char *name, int32_t size) {
  CudaDriver *driver;
  if (int32_t rc = getDriver(driver))
    return rc;
  CUdevice device = 0;
  if (int32_t rc = check(*driver, driver->cuDeviceGet(&device, 0),
                         PB_STATUS_DRIVER_ERROR, "cuDeviceGet"))
    return rc;
  return check(*driver, driver->cuDeviceGetName(name, size, device),
               PB_STATUS_DRIVER_ERROR, "cuDeviceGetName");
}

} // extern "C"
