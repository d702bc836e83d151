// An op of a registered dialect that PolyBlocks does not accept as input
// (scf.for) is reported at the op with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h %t.d
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h --depfile %t.d 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: test ! -e %t.d

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: input-rejected-dialect-scf.mlir:[[@LINE+1]]:8: error: 'scf.for' is not supported in an input program: PolyBlocks accepts ops from the builtin, func, linalg, tensor, arith, math and tosa dialects
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> (tensor<4xf32>) {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK: exit code: 1
