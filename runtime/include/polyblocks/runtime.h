/* runtime.h - The PolyBlocks GPU runtime.
 *
 * One small shared library (libpolyblocks_runtime.so) that every GPU kernel
 * compiled by PolyBlocks launches through, on NVIDIA GPUs (CUDA) and AMD GPUs
 * (HIP). It loads the platform's driver when first needed -- the CUDA driver
 * (libcuda.so.1) or the HIP runtime (libamdhip64.so) -- so programs build,
 * link and start on machines without a GPU. Each device binary is loaded
 * once: CUDA, into the context current at its first launch (the primary
 * context of device 0 when the thread has none); HIP, onto the thread's
 * current device (device 0 unless the program chose another). Failures are
 * returned as a pbStatus, with a message from pbrtGetLastError(); the
 * runtime never exits the process or prints.
 *
 * PB_CUDA_DRIVER and PB_HIP_RUNTIME, when set, name the library to load
 * instead.
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
  /* The GPU driver library could not be loaded (no driver or HIP runtime
   * installed, or only the CUDA toolkit's stub). */
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
  /* A platform this runtime does not know. */
  PB_STATUS_UNSUPPORTED_PLATFORM = 7,
  /* A run-time check of the program failed (a cf.assert of the input, e.g.
   * an index out of range); the work it guarded was skipped, so the results
   * are not valid. Returned by CPU entry points too. */
  PB_STATUS_CHECK_FAILED = 8
} pbStatus;

/* The platform a device binary is for. */
typedef enum pbrtPlatform {
  PBRT_PLATFORM_CUDA = 0,
  PBRT_PLATFORM_HIP = 1
} pbrtPlatform;

/* The message of the last failure on this thread ("" if none). */
PBRT_EXPORT const char *pbrtGetLastError(void);

/* Launches kernel `name` of the device binary `image` (`imageSize` bytes:
 * a CUDA fatbin or cubin, NUL-terminated PTX, or an AMD code object) of
 * `platform` on `stream` (a CUstream or hipStream_t). `*module` and `*function`
 * cache the loaded module and the kernel; both start null. `args` holds the
 * address of each kernel argument. Does nothing and returns `status` when
 * `status` is not PB_STATUS_SUCCESS. */
PBRT_EXPORT int32_t pbrtLaunch(int32_t status, int32_t platform, void **module,
                               const void *image, uint64_t imageSize,
                               void **function, const char *name,
                               uint32_t gridX, uint32_t gridY, uint32_t gridZ,
                               uint32_t blockX, uint32_t blockY,
                               uint32_t blockZ, uint32_t sharedBytes,
                               void *stream, void **args);

/* Allocates `bytes` of device memory into `*ptr`, ordered on `stream`.
 * Leaves `*ptr` null and returns `status` when `status` is not
 * PB_STATUS_SUCCESS. */
PBRT_EXPORT int32_t pbrtAlloc(int32_t status, int32_t platform, void **ptr,
                              uint64_t bytes, void *stream);

/* Frees memory from pbrtAlloc, ordered on `stream`; a null `ptr` is
 * ignored. */
PBRT_EXPORT void pbrtFree(int32_t platform, void *ptr, void *stream);

/* Device memory of `platform` for programs and tests. */
PBRT_EXPORT int32_t pbrtDeviceAlloc(int32_t platform, void **ptr,
                                    uint64_t bytes);
PBRT_EXPORT int32_t pbrtDeviceFree(int32_t platform, void *ptr);
PBRT_EXPORT int32_t pbrtCopyToDevice(int32_t platform, void *device,
                                     const void *host, uint64_t bytes);
PBRT_EXPORT int32_t pbrtCopyToHost(int32_t platform, void *host,
                                   const void *device, uint64_t bytes);
/* Waits for the work queued on `stream` (null: the default stream). */
PBRT_EXPORT int32_t pbrtStreamSynchronize(int32_t platform, void *stream);
/* The name of device 0 (e.g. "NVIDIA H100"), or the failure. */
PBRT_EXPORT int32_t pbrtGetDeviceName(int32_t platform, char *name,
                                      int32_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYBLOCKS_RUNTIME_H */
