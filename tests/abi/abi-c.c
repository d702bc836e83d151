// The generated header compiles as strict C99 and the object links into a C
// program whose results match plain C loops.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/Inputs/abi-kernels.mlir -o %t.o --header %t.dir/abi-kernels.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -pedantic -I%t.dir -I%S/Inputs %s %t.o %libomp -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: ABI C OK

#include "abi-check.inc"

int main(void) {
  if (run_checks() != 0)
    return 1;
  printf("ABI C OK\n");
  return 0;
}
