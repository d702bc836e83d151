// An op (generic form) of a dialect that does not exist is reported at the
// op with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: input-unknown-dialect-generic.mlir:[[@LINE+1]]:17: error: operation from an unregistered dialect
  %r = "foo.bar"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK: exit code: 1
