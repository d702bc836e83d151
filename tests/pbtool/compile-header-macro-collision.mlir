// Shape macros of different functions must not collide: @f_a(%b) and
// @f(%a_b) would both define F_A_B_DIM0 with different values, so compile
// reports it at the second argument, exits 1 and writes nothing.
// RUN: rm -f %t.o %t.h
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// Without a header there is nothing to collide.
// RUN: %pbtool compile %s -o %t.o

func.func @f_a(%b: tensor<2xf32>) -> tensor<2xf32> {
  return %b : tensor<2xf32>
}
// CHECK: compile-header-macro-collision.mlir:[[@LINE+1]]:14: error: the shape macros of %a_b of @f and of %b of @f_a would both be named F_A_B_*: rename one of them
func.func @f(%a_b: tensor<3xf32>) -> tensor<3xf32> {
  return %a_b : tensor<3xf32>
}
// CHECK: exit code: 1
