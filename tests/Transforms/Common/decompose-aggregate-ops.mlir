// RUN: pb-opt %s -split-input-file -pb-decompose-aggregate-ops | FileCheck %s

// linalg.softmax becomes its max reduction, exponential of the difference,
// sum reduction and division.
// CHECK-LABEL: func @softmax
// CHECK-NOT:     linalg.softmax
// CHECK:         linalg.generic
// CHECK:           arith.max
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK:           arith.divf
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
