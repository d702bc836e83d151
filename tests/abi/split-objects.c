// Programs compiled in parts on several threads (--codegen-threads=2: the
// loop nests of each parallel region dealt out to two parts, compiled apart
// and linked into one object) link into one C program: what a part shares
// with the other is hidden and named after the object's entry points, so
// the two objects' helpers (@__pb_claim_chunk) stay apart. Both run, many
// times, and match plain C loops; the objects made in one piece agree.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/Inputs/split-mlp_a.mlir --codegen-threads=2 -o %t.a.o --header %t.dir/split-mlp_a.h
// RUN: %pbtool compile %S/Inputs/split-mlp_b.mlir --codegen-threads=2 -o %t.b.o --header %t.dir/split-mlp_b.h
// RUN: llvm-nm %t.a.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-readelf --symbols %t.a.o | FileCheck %s --check-prefix=VISIBILITY
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.a.o %t.b.o %libomp -lpthread -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: %pbtool compile %S/Inputs/split-mlp_a.mlir --codegen-threads=1 -o %t.a1.o
// RUN: %pbtool compile %S/Inputs/split-mlp_b.mlir --codegen-threads=1 -o %t.b1.o
// RUN: llvm-nm %t.a1.o | FileCheck %s --check-prefix=ONE-PIECE
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.a1.o %t.b1.o %libomp -lpthread -lm -o %t.one.exe
// RUN: %t.one.exe | FileCheck %s
// SYMBOLS-DAG: T mlp_a
// SYMBOLS-DAG: T mlp_a.parallel0.nest{{[0-9]+}}.pb.[[TAG:[0-9a-f]+]]
// SYMBOLS-DAG: T __pb_claim_chunk.pb.[[TAG]]
// SYMBOLS-DAG: W __pb_parallel_run_v1
// VISIBILITY: GLOBAL HIDDEN {{.*}} __pb_claim_chunk.pb.
// VISIBILITY: GLOBAL DEFAULT {{.*}} mlp_a{{$}}
// ONE-PIECE-NOT: .pb.
// ONE-PIECE: t __pb_claim_chunk
// ONE-PIECE-NOT: .pb.
// CHECK: SPLIT OBJECTS OK

#include "split-mlp_a.h"
#include "split-mlp_b.h"

#include <math.h>
#include <stdio.h>

enum { N = 64 };
static float x[N * N], w[N * N], ya[N * N], yb[N * N], h[N * N], y[N * N];

/// y = relu(x w) w, in plain C.
static void reference(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < N; ++k)
        s += x[i * N + k] * w[k * N + j];
      h[i * N + j] = s > 0.0f ? s : 0.0f;
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < N; ++k)
        s += h[i * N + k] * w[k * N + j];
      y[i * N + j] = s;
    }
}

int main(void) {
  for (int i = 0; i < N * N; ++i) {
    x[i] = (float)(i % 17) * 0.25f - 2.0f;
    w[i] = (float)(i % 11) * 0.125f - 0.6f;
  }
  reference();
  for (int round = 0; round < 100; ++round) {
    if (mlp_a(x, w, ya) != 0 || mlp_b(x, w, yb) != 0) {
      printf("a kernel failed\n");
      return 1;
    }
    for (int i = 0; i < N * N; ++i) {
      float tolerance = 1e-4f * (1.0f + fabsf(y[i]));
      if (fabsf(ya[i] - y[i]) > tolerance || fabsf(yb[i] - y[i]) > tolerance) {
        printf("round %d, element %d: %g %g, expected %g\n", round, i, ya[i],
               yb[i], y[i]);
        return 1;
      }
    }
  }
  printf("SPLIT OBJECTS OK\n");
  return 0;
}
