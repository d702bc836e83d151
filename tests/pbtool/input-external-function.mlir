// A function declared but not defined in the module is reported at the
// declaration with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

// CHECK: input-external-function.mlir:[[@LINE+1]]:1: error: function @ext has no body: every function of a kernel module must be defined in it
func.func private @ext(%a: tensor<2xf32>) -> tensor<2xf32>
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = call @ext(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK: exit code: 1
