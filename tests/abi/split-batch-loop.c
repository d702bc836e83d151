// A loop over the images of a batch around the leading layers (pb-tile-batch,
// a 256 KiB L3 asked for) holds most of the program. Compiled in parts
// (--codegen-threads=2) it is outlined by the layers' loops it holds, not as
// one function that would leave the other part idle: the parts' object has
// more nests than the three top-level loops. Its results equal, bit for bit,
// those of the same program compiled in one piece (--codegen-threads=1).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: sed 's/@block/@block_parts/' %S/../e2e/tile-batch.mlir > %t.dir/parts.mlir
// RUN: %pbtool compile %S/../e2e/tile-batch.mlir --l3-cache-kib=256 --codegen-threads=1 -o %t.one.o --header %t.dir/block.h
// RUN: %pbtool compile %t.dir/parts.mlir --l3-cache-kib=256 --codegen-threads=2 -o %t.parts.o --header %t.dir/block_parts.h
// RUN: llvm-nm --defined-only %t.parts.o | grep -c '\.nest' > %t.count
// RUN: not grep -x '[0-3]' %t.count
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.one.o %t.parts.o %libomp -lpthread -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: BATCH LOOP IN PARTS OK

#include "block.h"
#include "block_parts.h"

#include <stdio.h>
#include <string.h>

enum { X = 4 * 32 * 32 * 16, R0 = 4 * 16 * 16 * 8, R1 = X };
static float x[X], w[3 * 3 * 16 * 16], b[16], dw[3 * 3 * 16], w1[16 * 8];
static float one0[R0], one1[R1], parts0[R0], parts1[R1];

static void fill(float *a, int n, int seed) {
  for (int i = 0; i < n; ++i)
    a[i] = (float)((i * 7 + seed * 13) % 23) / 23.0f - 0.5f;
}

int main(void) {
  fill(x, X, 1);
  fill(w, 3 * 3 * 16 * 16, 2);
  fill(b, 16, 3);
  fill(dw, 3 * 3 * 16, 4);
  fill(w1, 16 * 8, 5);
  for (int round = 0; round < 3; ++round) {
    if (block(x, w, b, dw, w1, one0, one1) != 0 ||
        block_parts(x, w, b, dw, w1, parts0, parts1) != 0) {
      printf("a call failed\n");
      return 1;
    }
    if (memcmp(one0, parts0, sizeof one0) != 0 ||
        memcmp(one1, parts1, sizeof one1) != 0) {
      printf("the results differ\n");
      return 1;
    }
  }
  printf("BATCH LOOP IN PARTS OK\n");
  return 0;
}
