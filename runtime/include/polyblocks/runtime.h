/* runtime.h - The PolyBlocks GPU runtime.
 *
 * One small shared library (libpolyblocks_runtime.so) that every GPU kernel
 * compiled by PolyBlocks launches through. It loads the CUDA driver
 * (libcuda.so.1) when first needed, so programs build, link and start on
 * machines without a GPU; each device binary is loaded once, into the
 * context current at its first launch (the primary context of device 0 when
 * the thread has none). Failures are returned as a pbStatus, with a message
 * from pbrtGetLastError(); the runtime never exits the process or prints.
 *
 * PB_CUDA_DRIVER, when set, names the driver library to load instead of
 * libcuda.so.1.
 *
 * The pbrtLaunch / pbrtAlloc / pbrtFree entry points are what generated code
 * calls. The pbrtDevice* functions are for programs and tests that manage
 * device buffers without a GPU toolkit of their own.
 */
#ifndef POLYBLOCKS_RUNTIME_H
#define POLYBLOCKS_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifndef PBRT_EXPORT
#define PBRT_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pbStatus {
  PB_STATUS_SUCCESS = 0,
  /* The GPU driver library could not be loaded (no driver installed, or
   * only the toolkit's stub). */
  PB_STATUS_NO_DRIVER = 1,
  /* The driver loaded but found no usable device. */
  PB_STATUS_NO_DEVICE = 2,
  /* The device binary does not load (e.g. compiled for another chip). */
  PB_STATUS_MODULE_LOAD_FAILED = 3,
  /* The launch was rejected (bad configuration, too many resources). */
  PB_STATUS_LAUNCH_FAILED = 4,
  /* A device allocation failed. */
  PB_STATUS_OUT_OF_MEMORY = 5,
  /* Any other driver error. */
  PB_STATUS_DRIVER_ERROR = 6,
  /* A platform this runtime was not built for. */
  PB_STATUS_UNSUPPORTED_PLATFORM = 7
} pbStatus;

/* The platform a device binary is for. */
typedef enum pbrtPlatform { PBRT_PLATFORM_CUDA = 0, PBRT_PLATFORM_HIP = 1 } pbrtPlatform;

/* The message of the last failure on this thread ("" if none). */
PBRT_EXPORT const char *pbrtGetLastError(void);

/* Launches kernel `name` of the device binary `image` (`imageSize` bytes:
 * a cubin, or NUL-terminated PTX) on `stream`. `*module` and `*function`
 * cache the loaded module and the kernel; both start null. `args` holds the
 * address of each kernel argument. Does nothing and returns `status` when
 * `status` is not PB_STATUS_SUCCESS. */
PBRT_EXPORT int32_t pbrtLaunch(int32_t status, int32_t platform, void **module,
                   const void *image, uint64_t imageSize, void **function,
                   const char *name, uint32_t gridX, uint32_t gridY,
                   uint32_t gridZ, uint32_t blockX, uint32_t blockY,
                   uint32_t blockZ, uint32_t sharedBytes, void *stream,
                   void **args);

/* Allocates `bytes` of device memory into `*ptr`, ordered on `stream`.
 * Leaves `*ptr` null and returns `status` when `status` is not
 * PB_STATUS_SUCCESS. */
PBRT_EXPORT int32_t pbrtAlloc(int32_t status, int32_t platform, void **ptr,
                  uint64_t bytes, void *stream);

/* Frees memory from pbrtAlloc, ordered on `stream`; a null `ptr` is
 * ignored. */
PBRT_EXPORT void pbrtFree(int32_t platform, void *ptr, void *stream);

/* Device memory for programs and tests (CUDA). */
PBRT_EXPORT int32_t pbrtDeviceAlloc(void **ptr, uint64_t bytes);
PBRT_EXPORT int32_t pbrtDeviceFree(void *ptr);
PBRT_EXPORT int32_t pbrtCopyToDevice(void *device, const void *host, uint64_t bytes);
PBRT_EXPORT int32_t pbrtCopyToHost(void *host, const void *device, uint64_t bytes);
/* Waits for the work queued on `stream` (null: the default stream). */
PBRT_EXPORT int32_t pbrtStreamSynchronize(void *stream);
/* The name of device 0 (e.g. "NVIDIA H100"), or the failure. */
PBRT_EXPORT int32_t pbrtGetDeviceName(char *name, int32_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYBLOCKS_RUNTIME_H */
