// With the CUDA toolkit's stub driver (it loads, but cuInit answers that it
// is a stub), the kernel's status is "no driver", saying so.
// REQUIRES: cuda-stub, ptxas
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/Inputs/bias-exp.mlir --target=nvgpu -o %t.dir/k.o --header %t.dir/bias-exp.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir -I%pb-runtime-include %s %t.dir/k.o -L%pb-runtime-lib -lpolyblocks_runtime -Wl,-rpath,%pb-runtime-lib -o %t.exe
// RUN: env PB_CUDA_DRIVER=%cuda-stub %t.exe | FileCheck %s
// CHECK: status 1: the CUDA driver is the toolkit's stub library (no driver installed) (CUresult 34)
#include "bias-exp.h"
#include "polyblocks/runtime.h"

#include <stdio.h>

int main(void) {
  int status = bias_exp(NULL, NULL, NULL, NULL);
  printf("status %d: %s\n", status, pbrtGetLastError());
  return status == PB_STATUS_SUCCESS;
}
