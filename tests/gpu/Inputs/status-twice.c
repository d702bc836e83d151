// Calls the bias-exp kernel twice and allocates a device buffer of platform
// PLATFORM (PBRT_PLATFORM_CUDA or PBRT_PLATFORM_HIP), printing each status
// and the runtime's reason: the program for the tests of a GPU program on
// a machine without the platform's driver.
#include "bias-exp.h"
#include "polyblocks/runtime.h"

#include <stdio.h>

int main(void) {
  for (int call = 1; call <= 2; ++call) {
    int status = bias_exp(NULL, NULL, NULL, NULL);
    printf("call %d: status %d (%s): %s\n", call, status,
           status == PB_STATUS_NO_DRIVER   ? "no driver"
           : status == PB_STATUS_NO_DEVICE ? "no device"
                                           : "other",
           pbrtGetLastError());
  }
  void *buffer = NULL;
  printf("alloc: status %d, %s\n", pbrtDeviceAlloc(PLATFORM, &buffer, 16),
         buffer ? "a buffer" : "no buffer");
  printf("done\n");
  return 0;
}
