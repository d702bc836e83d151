// A syntax error in the input is reported at its line and column with exit
// code 1, and no object, header or depfile is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  // CHECK: input-malformed.mlir:[[@LINE+1]]:102: error: expected '>' in tensor type
  %r = linalg.add ins(%a, %a : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32
  return %r : tensor<2xf32>
}
// CHECK: exit code: 1
