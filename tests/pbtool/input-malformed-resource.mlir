// A weight whose hex string is not one (a 'G' among its digits) is reported
// by the parser at its entry, with exit code 1, and nothing is written.
// RUN: rm -f %t.o %t.h
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h

func.func @plus_bias(%x: tensor<2xf32>) -> tensor<2xf32> {
  %b = arith.constant dense_resource<bias> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.add ins(%x, %b : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK: input-malformed-resource.mlir:[[@LINE+4]]:13: error: expected hex string blob for key 'bias'
{-#
  dialect_resources: {
    builtin: {
      bias: "0x040000000000003F0000G0BF"
    }
  }
#-}
// CHECK: exit code: 1
