// With the HIP runtime installed but no AMD GPU, the kernel's status is "no
// device", with HIP's own reason.
// REQUIRES: hip-runtime
// UNSUPPORTED: amd-gpu
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/../gpu/Inputs/bias-exp.mlir --target=amdgpu -o %t.dir/k.o --header %t.dir/bias-exp.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir -I%pb-runtime-include %s %t.dir/k.o -L%pb-runtime-lib -lpolyblocks_runtime -Wl,-rpath,%pb-runtime-lib -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: status 2: the HIP runtime found no usable device: {{.*}} (hipError_t {{[0-9]+}})
#include "bias-exp.h"
#include "polyblocks/runtime.h"

#include <stdio.h>

int main(void) {
  int status = bias_exp(NULL, NULL, NULL, NULL);
  printf("status %d: %s\n", status, pbrtGetLastError());
  return status == PB_STATUS_SUCCESS;
}
