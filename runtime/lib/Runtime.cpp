//===- Runtime.cpp - The PolyBlocks GPU runtime ---------------------------===//
//
// Loads a GPU platform's driver with dlopen on first use (the CUDA driver,
// or the HIP runtime for AMD GPUs) and forwards launches, allocations and
// copies to it. The drivers' functions are declared here (the documented
// ABIs of the CUDA driver API and of HIP's module API), so the library
// builds without either toolkit.
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
#include <vector>

namespace {

// Device pointers are declared `void *` for both platforms: CUDA's
// CUdeviceptr is a 64-bit integer, passed like a pointer on the 64-bit
// ABIs this runtime is built for. Modules, functions, streams and contexts
// are opaque pointers on both.
static_assert(sizeof(void *) == 8, "the runtime needs a 64-bit platform");

// Result codes both platforms share.
constexpr int kSuccess = 0;
constexpr int kOutOfMemory = 2;
// CUDA's.
constexpr int CUDA_ERROR_STUB_LIBRARY = 34;
constexpr int CUDA_ERROR_NO_DEVICE = 100;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
// HIP's: no device, no usable device (what HIP reports without a GPU or
// without the kernel driver), a driver older than the runtime.
constexpr int hipErrorInsufficientDriver = 35;
constexpr int hipErrorNoDevice = 100;
constexpr int hipErrorInvalidDevice = 101;

/// One platform's driver: the same calls under CUDA's and HIP's names.
struct Driver {
  pbrtPlatform platform;
  const char *name; ///< "CUDA driver" or "HIP runtime"

  int (*init)(unsigned);
  int (*deviceGet)(int *, int);
  int (*deviceGetName)(char *, int, int);
  int (*moduleLoadData)(void **, const void *);
  int (*moduleGetFunction)(void **, void *, const char *);
  int (*launchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                      unsigned, unsigned, void *, void **, void **);
  int (*memAlloc)(void **, size_t);
  int (*memFree)(void *);
  int (*memcpyHtoD)(void *, const void *, size_t);
  int (*memcpyDtoH)(void *, const void *, size_t);
  int (*streamSynchronize)(void *);
  // CUDA only: stream-ordered allocation (where the device has memory
  // pools), contexts, error strings.
  int (*memAllocAsync)(void **, size_t, void *) = nullptr;
  int (*memFreeAsync)(void *, void *) = nullptr;
  int (*deviceGetAttribute)(int *, int, int) = nullptr;
  int (*devicePrimaryCtxRetain)(void **, int) = nullptr;
  int (*ctxGetCurrent)(void **) = nullptr;
  int (*ctxSetCurrent)(void *) = nullptr;
  int (*cuGetErrorString)(int, const char **) = nullptr;
  // HIP only.
  const char *(*hipGetErrorString)(int) = nullptr;

  /// CUDA: the primary context of device 0, for threads that have none.
  void *primary = nullptr;
  bool asyncAllocation = false;

  const char *errorString(int rc) const {
    const char *text = nullptr;
    if (cuGetErrorString)
      cuGetErrorString(rc, &text);
    else if (hipGetErrorString)
      text = hipGetErrorString(rc);
    return text ? text : "unknown error";
  }
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

/// Guards loading the drivers and filling the module and function slots;
/// launches, copies and synchronization run outside it.
std::mutex mutex;

/// Opens the first of `candidates` that loads, or the library named by
/// `$variable`; says which it tried on failure.
void *openLibrary(const char *variable,
                  std::initializer_list<const char *> candidates,
                  std::string &path, std::string &error) {
  const char *chosen = std::getenv(variable);
  std::vector<const char *> names(candidates);
  if (chosen && *chosen)
    names = {chosen};
  for (const char *candidate : names) {
    path = candidate;
    if (void *lib = dlopen(candidate, RTLD_NOW | RTLD_LOCAL))
      return lib;
    const char *why = dlerror();
    error = std::string(why ? why : "unknown error");
  }
  return nullptr;
}

/// The names of the calls both platforms make, in the order of Driver.
struct CommonSymbols {
  const char *init, *deviceGet, *deviceGetName, *moduleLoadData,
      *moduleGetFunction, *launchKernel, *memAlloc, *memFree, *memcpyHtoD,
      *memcpyDtoH, *streamSynchronize;
};
constexpr CommonSymbols kCUDASymbols = {
    "cuInit",           "cuDeviceGet",         "cuDeviceGetName",
    "cuModuleLoadData", "cuModuleGetFunction", "cuLaunchKernel",
    "cuMemAlloc_v2",    "cuMemFree_v2",        "cuMemcpyHtoD_v2",
    "cuMemcpyDtoH_v2",  "cuStreamSynchronize"};
constexpr CommonSymbols kHIPSymbols = {"hipInit",
                                       "hipDeviceGet",
                                       "hipDeviceGetName",
                                       "hipModuleLoadData",
                                       "hipModuleGetFunction",
                                       "hipModuleLaunchKernel",
                                       "hipMalloc",
                                       "hipFree",
                                       "hipMemcpyHtoD",
                                       "hipMemcpyDtoH",
                                       "hipStreamSynchronize"};

/// Binds function pointers to a library's symbols; the first missing one
/// is the error.
struct Binder {
  void *lib;
  const Driver &driver;
  const std::string &path;
  int32_t status = PB_STATUS_SUCCESS;
  std::string error;

  template <typename Fn> void operator()(Fn &fn, const char *symbol) {
    if (status != PB_STATUS_SUCCESS)
      return;
    fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
    if (!fn) {
      status = PB_STATUS_NO_DRIVER;
      error =
          std::string("the ") + driver.name + " (" + path + ") lacks " + symbol;
    }
  }
};

/// Loads the platform's driver library: the CUDA driver (libcuda.so.1, or
/// $PB_CUDA_DRIVER) or the HIP runtime (libamdhip64: the unversioned name,
/// then ROCm 6's and 5's sonames; or $PB_HIP_RUNTIME).
int32_t openDriver(Driver &d, std::string &error) {
  bool cuda = d.platform == PBRT_PLATFORM_CUDA;
  std::string path;
  void *lib = cuda
                  ? openLibrary("PB_CUDA_DRIVER", {"libcuda.so.1"}, path, error)
                  : openLibrary("PB_HIP_RUNTIME",
                                {"libamdhip64.so", "libamdhip64.so.6",
                                 "libamdhip64.so.5"},
                                path, error);
  if (!lib) {
    error =
        std::string("cannot load the ") + d.name + " (" + path + "): " + error;
    return PB_STATUS_NO_DRIVER;
  }
  Binder bind{lib, d, path};
  const CommonSymbols &symbols = cuda ? kCUDASymbols : kHIPSymbols;
  bind(d.init, symbols.init);
  bind(d.deviceGet, symbols.deviceGet);
  bind(d.deviceGetName, symbols.deviceGetName);
  bind(d.moduleLoadData, symbols.moduleLoadData);
  bind(d.moduleGetFunction, symbols.moduleGetFunction);
  bind(d.launchKernel, symbols.launchKernel);
  bind(d.memAlloc, symbols.memAlloc);
  bind(d.memFree, symbols.memFree);
  bind(d.memcpyHtoD, symbols.memcpyHtoD);
  bind(d.memcpyDtoH, symbols.memcpyDtoH);
  bind(d.streamSynchronize, symbols.streamSynchronize);
  if (cuda) {
    bind(d.deviceGetAttribute, "cuDeviceGetAttribute");
    bind(d.devicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(d.ctxGetCurrent, "cuCtxGetCurrent");
    bind(d.ctxSetCurrent, "cuCtxSetCurrent");
    bind(d.cuGetErrorString, "cuGetErrorString");
    // Stream-ordered allocation (CUDA 11.2 on) where the device has it.
    d.memAllocAsync = reinterpret_cast<decltype(d.memAllocAsync)>(
        dlsym(lib, "cuMemAllocAsync"));
    d.memFreeAsync = reinterpret_cast<decltype(d.memFreeAsync)>(
        dlsym(lib, "cuMemFreeAsync"));
  } else {
    bind(d.hipGetErrorString, "hipGetErrorString");
  }
  error = bind.error;
  return bind.status;
}

/// Initializes the driver and finds device 0 (CUDA: retains its primary
/// context, sees whether it has memory pools).
int32_t startDriver(Driver &d, std::string &error) {
  int device = 0;
  int rc = d.init(0);
  if (rc == kSuccess)
    rc = d.deviceGet(&device, 0);
  if (rc == kSuccess && d.platform == PBRT_PLATFORM_CUDA)
    rc = d.devicePrimaryCtxRetain(&d.primary, device);
  if (rc != kSuccess) {
    bool cuda = d.platform == PBRT_PLATFORM_CUDA;
    if (cuda && rc == CUDA_ERROR_STUB_LIBRARY) {
      error = "the CUDA driver is the toolkit's stub library (no driver "
              "installed) (CUresult " +
              std::to_string(rc) + ")";
      return PB_STATUS_NO_DRIVER;
    }
    error = std::string("the ") + d.name +
            " found no usable device: " + d.errorString(rc) +
            (cuda ? " (CUresult " : " (hipError_t ") + std::to_string(rc) + ")";
    bool noDevice = cuda ? rc == CUDA_ERROR_NO_DEVICE
                         : rc == hipErrorNoDevice ||
                               rc == hipErrorInvalidDevice ||
                               rc == hipErrorInsufficientDriver;
    return noDevice ? PB_STATUS_NO_DEVICE : PB_STATUS_DRIVER_ERROR;
  }
  int pools = 0;
  d.asyncAllocation =
      d.memAllocAsync && d.memFreeAsync &&
      d.deviceGetAttribute(&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                           device) == kSuccess &&
      pools != 0;
  return PB_STATUS_SUCCESS;
}

/// Loads `platform`'s driver once. On failure the reason is kept and
/// reported again on every later call. Called with `mutex` held.
int32_t loadDriver(int32_t platform, Driver *&out) {
  struct Loaded {
    Driver driver;
    int32_t status = -1;
    std::string error;
  };
  static Loaded cuda{{PBRT_PLATFORM_CUDA, "CUDA driver"}};
  static Loaded hip{{PBRT_PLATFORM_HIP, "HIP runtime"}};
  if (platform != PBRT_PLATFORM_CUDA && platform != PBRT_PLATFORM_HIP)
    return fail(PB_STATUS_UNSUPPORTED_PLATFORM,
                "unknown GPU platform %d (expected CUDA = 0 or HIP = 1)",
                platform);
  Loaded &loaded = platform == PBRT_PLATFORM_CUDA ? cuda : hip;
  if (loaded.status == -1) {
    Driver &d = loaded.driver;
    loaded.status = openDriver(d, loaded.error);
    if (loaded.status == PB_STATUS_SUCCESS)
      loaded.status = startDriver(d, loaded.error);
  }
  if (loaded.status != PB_STATUS_SUCCESS)
    return fail(loaded.status, "%s", loaded.error.c_str());
  out = &loaded.driver;
  return PB_STATUS_SUCCESS;
}

/// Turns a driver error into a status and message.
int32_t check(const Driver &driver, int rc, int32_t status, const char *what) {
  if (rc == kSuccess)
    return PB_STATUS_SUCCESS;
  if (rc == kOutOfMemory)
    status = PB_STATUS_OUT_OF_MEMORY;
  return fail(status, "%s: %s (%s %d)", what, driver.errorString(rc),
              driver.platform == PBRT_PLATFORM_CUDA ? "CUresult" : "hipError_t",
              rc);
}

/// Loads the driver (once, for all threads) and, for CUDA, makes sure the
/// calling thread has a context. (HIP threads start on device 0.)
int32_t getDriver(int32_t platform, Driver *&driver) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (int32_t status = loadDriver(platform, driver))
      return status;
  }
  if (driver->platform != PBRT_PLATFORM_CUDA)
    return PB_STATUS_SUCCESS;
  void *current = nullptr;
  if (int32_t status = check(*driver, driver->ctxGetCurrent(&current),
                             PB_STATUS_DRIVER_ERROR, "cuCtxGetCurrent"))
    return status;
  if (!current)
    return check(*driver, driver->ctxSetCurrent(driver->primary),
                 PB_STATUS_DRIVER_ERROR, "cuCtxSetCurrent");
  return PB_STATUS_SUCCESS;
}

/// Fills the module slot (loading `image`) and the function slot of a
/// kernel on first use.
int32_t loadKernel(const Driver &driver, void **module, const void *image,
                   void **function, const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!*module) {
    void *loaded = nullptr;
    if (int32_t rc = check(driver, driver.moduleLoadData(&loaded, image),
                           PB_STATUS_MODULE_LOAD_FAILED,
                           "cannot load the kernels' device code"))
      return rc;
    *module = loaded;
  }
  if (!*function) {
    void *fn = nullptr;
    if (int32_t rc = check(driver, driver.moduleGetFunction(&fn, *module, name),
                           PB_STATUS_MODULE_LOAD_FAILED,
                           "cannot find a kernel in the device code"))
      return rc;
    *function = fn;
  }
  return PB_STATUS_SUCCESS;
}

/// Loads `platform`'s driver and makes one call to it (`call` on the
/// driver), whose result becomes `status` with the message `what` on failure.
template <typename Call>
int32_t callDriver(int32_t platform, int32_t status, const char *what,
                   Call call) {
  Driver *driver;
  if (int32_t rc = getDriver(platform, driver))
    return rc;
  return check(*driver, call(*driver), status, what);
}

/// The start of the calls generated code makes: a failure so far is passed
/// on, the platform's driver is loaded.
int32_t startCall(int32_t status, int32_t platform, Driver *&driver) {
  if (status != PB_STATUS_SUCCESS)
    return status;
  return getDriver(platform, driver);
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
  Driver *driver;
  if (int32_t rc = startCall(status, platform, driver))
    return rc;
  if (int32_t rc = loadKernel(*driver, module, image, function, name))
    return rc;
  int rc = driver->launchKernel(*function, gridX, gridY, gridZ, blockX, blockY,
                                blockZ, sharedBytes, stream, args, nullptr);
  if (rc != kSuccess) {
    check(*driver, rc, PB_STATUS_LAUNCH_FAILED, "launching the kernel");
    lastError = "launching " + std::string(name) + ": " + lastError;
    return PB_STATUS_LAUNCH_FAILED;
  }
  return PB_STATUS_SUCCESS;
}

int32_t pbrtAlloc(int32_t status, int32_t platform, void **ptr, uint64_t bytes,
                  void *stream) {
  *ptr = nullptr;
  Driver *driver;
  if (int32_t rc = startCall(status, platform, driver))
    return rc;
  void *p = nullptr;
  int rc = driver->asyncAllocation ? driver->memAllocAsync(&p, bytes, stream)
                                   : driver->memAlloc(&p, bytes);
  if (int32_t failed = check(*driver, rc, PB_STATUS_DRIVER_ERROR,
                             "cannot allocate a device buffer"))
    return failed;
  *ptr = p;
  return PB_STATUS_SUCCESS;
}

void pbrtFree(int32_t platform, void *ptr, void *stream) {
  Driver *driver;
  if (!ptr || getDriver(platform, driver))
    return;
  // (hipFree waits for the device's queued work, so the buffer is no
  // longer in use.)
  if (driver->asyncAllocation)
    driver->memFreeAsync(ptr, stream);
  else
    driver->memFree(ptr);
}

int32_t pbrtDeviceAlloc(int32_t platform, void **ptr, uint64_t bytes) {
  *ptr = nullptr;
  void *p = nullptr;
  int32_t status = callDriver(
      platform, PB_STATUS_DRIVER_ERROR, "cannot allocate device memory",
      [&](const Driver &d) { return d.memAlloc(&p, bytes ? bytes : 1); });
  if (status == PB_STATUS_SUCCESS)
    *ptr = p;
  return status;
}

int32_t pbrtDeviceFree(int32_t platform, void *ptr) {
  if (!ptr)
    return PB_STATUS_SUCCESS;
  return callDriver(platform, PB_STATUS_DRIVER_ERROR,
                    "cannot free device memory",
                    [&](const Driver &d) { return d.memFree(ptr); });
}

int32_t pbrtCopyToDevice(int32_t platform, void *device, const void *host,
                         uint64_t bytes) {
  return callDriver(
      platform, PB_STATUS_DRIVER_ERROR, "cannot copy to the device",
      [&](const Driver &d) { return d.memcpyHtoD(device, host, bytes); });
}

int32_t pbrtCopyToHost(int32_t platform, void *host, const void *device,
                       uint64_t bytes) {
  return callDriver(
      platform, PB_STATUS_DRIVER_ERROR, "cannot copy from the device",
      [&](const Driver &d) { return d.memcpyDtoH(host, device, bytes); });
}

int32_t pbrtStreamSynchronize(int32_t platform, void *stream) {
  return callDriver(
      platform, PB_STATUS_LAUNCH_FAILED, "a kernel failed on the stream",
      [&](const Driver &d) { return d.streamSynchronize(stream); });
}

int32_t pbrtGetDeviceName(int32_t platform, char *name, int32_t size) {
  Driver *driver;
  if (int32_t rc = getDriver(platform, driver))
    return rc;
  int device = 0;
  if (int32_t rc = check(*driver, driver->deviceGet(&device, 0),
                         PB_STATUS_DRIVER_ERROR, "cannot find device 0"))
    return rc;
  return check(*driver, driver->deviceGetName(name, size, device),
               PB_STATUS_DRIVER_ERROR, "cannot read the device's name");
}

} // extern "C"
