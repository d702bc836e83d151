// A scalar (non-tensor) argument of a public function is reported at the
// argument with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

// CHECK: input-scalar-argument.mlir:[[@LINE+1]]:14: error: argument #0 of @f has type 'f32': kernel arguments and results must be ranked tensors
func.func @f(%a: f32) -> tensor<f32> {
  %t = tensor.from_elements %a : tensor<f32>
  return %t : tensor<f32>
}
// CHECK: exit code: 1
