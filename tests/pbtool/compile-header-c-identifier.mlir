// A public function whose name is not a usable C identifier (it contains a
// '.', or is a C keyword) cannot be declared in the header: compile --header
// must report it at the function with exit code 1 and write nothing.
// RUN: rm -f %t.o %t.h
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h

// CHECK: compile-header-c-identifier.mlir:[[@LINE+1]]:1: error: {{.*}}my.fn
func.func @"my.fn"(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// CHECK: compile-header-c-identifier.mlir:[[@LINE+1]]:1: error: {{.*}}float
func.func @float(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// CHECK: exit code: 1
