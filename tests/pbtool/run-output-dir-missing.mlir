// run --output into a directory that does not exist is reported before any
// work with exit code 1, and no result file is written, not even the one
// whose directory exists.
// RUN: rm -f %t.first.npy
// RUN: sh %S/Inputs/exit-code.sh %pbtool run %s --input=2xf32=1 --output=%t.first.npy --output=%t.nodir/second.npy 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.first.npy
// RUN: test ! -e %t.nodir

// CHECK: error: cannot write '{{.*}}.nodir/second.npy': no such directory '{{.*}}.nodir'
// CHECK-NEXT: exit code: 1
func.func @two(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<2xf32>
  %n = linalg.negf ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %a, %n : tensor<2xf32>, tensor<2xf32>
}
