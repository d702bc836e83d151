// Layers of one shape, each with its own constant weights, compiled in parts
// (--codegen-threads=2): the loop nests of the layers alike become one
// function, each call passing its layer's weights. Past the first and last
// layers, which differ (they read the argument, write the result), more
// layers add no nest: the eight-layer network defines as many as the
// four-layer one. The weights are no part's: the linked object gets them in
// a section of their own, each a hidden symbol the code refers to (a shared
// library made in parts has them in part 0's object, as code generation
// writes them). Both compute what plain C loops do with every layer's own
// weights; compiled in one piece, and as shared libraries in parts, they
// agree too.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python %S/Inputs/equal-layers.py equal_layers4 4 > %t.dir/four.mlir
// RUN: %python %S/Inputs/equal-layers.py equal_layers8 8 > %t.dir/eight.mlir
// RUN: %pbtool compile %t.dir/four.mlir --codegen-threads=2 -o %t.four.o --header %t.dir/equal_layers4.h
// RUN: %pbtool compile %t.dir/eight.mlir --codegen-threads=2 -o %t.eight.o --header %t.dir/equal_layers8.h
// RUN: llvm-nm --defined-only %t.four.o | grep -c '\.nest' > %t.four.count
// RUN: llvm-nm --defined-only %t.eight.o | grep -c '\.nest' > %t.eight.count
// RUN: not grep -x 0 %t.four.count
// RUN: diff %t.four.count %t.eight.count
// RUN: llvm-readelf --sections %t.eight.o | FileCheck %s --check-prefix=SECTION
// RUN: llvm-readelf --symbols %t.eight.o | FileCheck %s --check-prefix=WEIGHTS
// RUN: llvm-readelf --symbols %t.eight.o | FileCheck %s --check-prefix=DEFINED
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.four.o %t.eight.o %libomp -lpthread -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: %pbtool compile %t.dir/four.mlir --codegen-threads=1 -o %t.four1.o
// RUN: %pbtool compile %t.dir/eight.mlir --codegen-threads=1 -o %t.eight1.o
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s %t.four1.o %t.eight1.o %libomp -lpthread -lm -o %t.one.exe
// RUN: %t.one.exe | FileCheck %s
// RUN: llvm-readelf --sections %t.four1.o | FileCheck %s --check-prefix=ONE-PIECE
// RUN: %pbtool compile %t.dir/four.mlir --codegen-threads=2 --emit=shared -o %t.dir/libfour.so
// RUN: %pbtool compile %t.dir/eight.mlir --codegen-threads=2 --emit=shared -o %t.dir/libeight.so
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t.dir %s -L%t.dir -lfour -leight -Wl,-rpath,%t.dir -lm -o %t.shared.exe
// RUN: %t.shared.exe | FileCheck %s
// CHECK: EQUAL NESTS OK
// SECTION: .rodata.polyblocks PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 020000 00 A 0 0 64
// WEIGHTS-COUNT-8: 16384 OBJECT GLOBAL HIDDEN {{[0-9]+}} __constant_64x64xf32{{(_[0-9]+)?}}_packed.pb.
// DEFINED-NOT: UND __constant
// ONE-PIECE-NOT: .rodata.polyblocks

#include "equal_layers4.h"
#include "equal_layers8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = 64 };
static float x[N * N], y[N * N], a[N * N], b[N * N];

/// Inputs/equal-layers.py's weights and biases.
static float weight(int layer, int k, int j) {
  return (float)((5 * k + 3 * j + 7 * layer) % 17 - 8) / 64.0f;
}
static float bias(int layer, int j) {
  return (float)((j + layer) % 5 - 2) / 8.0f;
}

/// `layers` layers of y = relu(x w_l + b_l) on x, into y, in plain C.
static void reference(int layers) {
  memcpy(a, x, sizeof a);
  for (int l = 0; l < layers; ++l) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0.0;
        for (int k = 0; k < N; ++k)
          s += (double)a[i * N + k] * weight(l, k, j);
        float v = (float)s + bias(l, j);
        b[i * N + j] = v > 0.0f ? v : 0.0f;
      }
    memcpy(a, b, sizeof a);
  }
  memcpy(y, a, sizeof y);
}

static int check(const char *name, const float *got) {
  for (int i = 0; i < N * N; ++i)
    if (fabsf(got[i] - y[i]) > 1e-4f * (1.0f + fabsf(y[i]))) {
      printf("%s: element %d is %g, expected %g\n", name, i, got[i], y[i]);
      return 1;
    }
  return 0;
}

int main(void) {
  for (int i = 0; i < N * N; ++i)
    x[i] = (float)((3 * i + i / N) % 13) * 0.125f - 0.75f;
  static float got[N * N];
  int failures = 0;
  for (int round = 0; round < 3; ++round) {
    reference(4);
    if (equal_layers4(x, got) != 0) {
      printf("equal_layers4 failed\n");
      return 1;
    }
    failures += check("equal_layers4", got);
    reference(8);
    if (equal_layers8(x, got) != 0) {
      printf("equal_layers8 failed\n");
      return 1;
    }
    failures += check("equal_layers8", got);
  }
  if (failures)
    return 1;
  printf("EQUAL NESTS OK\n");
  return 0;
}
