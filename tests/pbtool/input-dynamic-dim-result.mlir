// A dynamic dimension in a result of a public function is reported at the
// function (and at the op producing it) with exit code 1; nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

// CHECK: input-dynamic-dim-result.mlir:[[@LINE+1]]:1: error: dynamic dimension in result #0 of @f: 'tensor<?xf32>' (only static shapes are supported)
func.func @f(%a: tensor<4xf32>) -> tensor<?xf32> {
  // CHECK: input-dynamic-dim-result.mlir:[[@LINE+1]]:8: error: dynamic dimension in result of 'tensor.cast': 'tensor<?xf32>'
  %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  return %c : tensor<?xf32>
}
// CHECK: exit code: 1
