// Two kernels with parallel regions link into one C program: the helpers
// each object generates for its regions (@__pb_claim_chunk, @__pb_wait_done)
// are local to it, and the thread pool both carry (weak) is one. Both run,
// one after the other, many times, and match plain C loops.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/../pbtool/Inputs/add-256.mlir -o %t.add.o --header %t.dir/add-256.h
// RUN: %pbtool compile %S/Inputs/scale-256.mlir -o %t.scale.o --header %t.dir/scale-256.h
// RUN: llvm-nm %t.add.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.add.o %t.scale.o %libomp -lpthread -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// SYMBOLS-DAG: t __pb_claim_chunk
// SYMBOLS-DAG: t __pb_wait_done
// SYMBOLS-DAG: W __pb_parallel_run_v1
// SYMBOLS-DAG: T add
// CHECK: TWO KERNELS OK

#include "add-256.h"
#include "scale-256.h"

#include <stdio.h>

enum { N = 256 * 256 };
static float a[N], b[N], sum[N], product[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 97) * 0.5f;
    b[i] = (float)(i % 13) - 6.0f;
  }
  for (int round = 0; round < 200; ++round) {
    if (add(a, b, sum) != 0 || scale(a, b, product) != 0) {
      printf("a kernel failed\n");
      return 1;
    }
    for (int i = 0; i < N; ++i) {
      if (sum[i] != a[i] + b[i] || product[i] != a[i] * b[i]) {
        printf("round %d, element %d: %g %g\n", round, i, sum[i], product[i]);
        return 1;
      }
    }
  }
  printf("TWO KERNELS OK\n");
  return 0;
}
