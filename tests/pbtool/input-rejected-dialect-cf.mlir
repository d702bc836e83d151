// An op of a registered dialect that PolyBlocks does not accept as input
// (a cf branch: of cf only cf.assert is accepted) is reported at the op with
// exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: input-rejected-dialect-cf.mlir:[[@LINE+1]]:3: error: 'cf.br' is not supported in an input program: PolyBlocks accepts ops from the builtin, func, linalg, tensor, arith, math, scf, tosa and tm_tensor dialects, and cf.assert
  cf.br ^bb1(%a : tensor<4xf32>)
^bb1(%t: tensor<4xf32>):
  return %t : tensor<4xf32>
}
// CHECK: exit code: 1
