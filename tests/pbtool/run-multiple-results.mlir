// run prints each of several results, in order, on its own line; with one
// --output per result it writes them to .npy files instead and prints
// nothing.
// RUN: %pbtool run %s '--input=3xi32=1 -2 3' | FileCheck %s
// RUN: %pbtool run %s '--input=3xi32=1 -2 3' --output=%t.0.npy --output=%t.1.npy | count 0
// RUN: %pbtool run %S/Inputs/identity.mlir --function=i32_3 --input=%t.1.npy | FileCheck %s --check-prefix=SECOND

// CHECK: result0: 3xi32=[1 -2 3]
// CHECK-NEXT: result1: 3xi32=[2 -4 6]
// SECOND: result0: 3xi32=[2 -4 6]
func.func @pair(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %e = tensor.empty() : tensor<3xi32>
  %d = linalg.add ins(%x, %x : tensor<3xi32>, tensor<3xi32>) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  return %x, %d : tensor<3xi32>, tensor<3xi32>
}
