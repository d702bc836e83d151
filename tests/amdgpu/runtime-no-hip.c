// A program using AMD GPU kernels builds, links and starts without the HIP
// runtime: the kernel returns a status saying why it could not run, every
// time, and never crashes or exits.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/../gpu/Inputs/bias-exp.mlir --target=amdgpu -o %t.dir/k.o --header %t.dir/bias-exp.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir -I%pb-runtime-include %s %t.dir/k.o -L%pb-runtime-lib -lpolyblocks_runtime -Wl,-rpath,%pb-runtime-lib -o %t.exe
// RUN: env PB_HIP_RUNTIME=%t.dir/no-such-libamdhip64.so %t.exe | FileCheck %s
// CHECK: call 1: status 1 (no driver): cannot load the HIP runtime ({{.*}}no-such-libamdhip64.so)
// CHECK: call 2: status 1 (no driver): cannot load the HIP runtime
// CHECK: alloc: status 1, no buffer
// CHECK: done
#include "bias-exp.h"
#include "polyblocks/runtime.h"

#include <stdio.h>

int main(void) {
  for (int call = 1; call <= 2; ++call) {
    int status = bias_exp(NULL, NULL, NULL, NULL);
    printf("call %d: status %d (%s): %s\n", call, status,
           status == PB_STATUS_NO_DRIVER ? "no driver"
           : status == PB_STATUS_NO_DEVICE ? "no device"
                                           : "other",
           pbrtGetLastError());
  }
  void *buffer = NULL;
  printf("alloc: status %d, %s\n",
         pbrtDeviceAlloc(PBRT_PLATFORM_HIP, &buffer, 16),
         buffer ? "a buffer" : "no buffer");
  printf("done\n");
  return 0;
}
