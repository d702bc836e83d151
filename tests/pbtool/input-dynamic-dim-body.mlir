// A dynamic dimension inside a function body (the boundary being static) is
// reported at the op with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: input-dynamic-dim-body.mlir:[[@LINE+1]]:8: error: dynamic dimension in result of 'tensor.cast': 'tensor<?xf32>' (only static shapes are supported)
  %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %d = tensor.cast %c : tensor<?xf32> to tensor<4xf32>
  return %d : tensor<4xf32>
}
// CHECK: exit code: 1
