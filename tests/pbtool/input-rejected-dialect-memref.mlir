// An op of a registered dialect that PolyBlocks does not accept as input
// (memref.alloc) is reported at the op with exit code 1, and nothing is
// written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: input-rejected-dialect-memref.mlir:[[@LINE+1]]:8: error: 'memref.alloc' is not supported in an input program
  %m = memref.alloc() : memref<4xf32>
  return %a : tensor<4xf32>
}
// CHECK: exit code: 1
