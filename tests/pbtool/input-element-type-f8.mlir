// An unsupported element type (f8E4M3FN) in an argument and a result of a public
// function is reported at each with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

// CHECK: input-element-type-f8.mlir:[[@LINE+2]]:14: error: argument #0 of @f has unsupported element type 'f8E4M3FN' (supported: f32, f64, f16, bf16, i8, i16, i32, i64, i1)
// CHECK: input-element-type-f8.mlir:[[@LINE+1]]:1: error: result #0 of @f has unsupported element type 'f8E4M3FN' (supported: f32, f64, f16, bf16, i8, i16, i32, i64, i1)
func.func @f(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  return %a : tensor<4xf8E4M3FN>
}
// CHECK: exit code: 1
