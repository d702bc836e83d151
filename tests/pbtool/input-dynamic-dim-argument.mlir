// A dynamic dimension in an argument of a public function is reported at the
// argument with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

// CHECK: input-dynamic-dim-argument.mlir:[[@LINE+1]]:14: error: dynamic dimension in argument #0 of @f: 'tensor<?xf32>' (only static shapes are supported)
func.func @f(%a: tensor<?xf32>) -> tensor<4xf32> {
  %c = tensor.cast %a : tensor<?xf32> to tensor<4xf32>
  return %c : tensor<4xf32>
}
// CHECK: exit code: 1
