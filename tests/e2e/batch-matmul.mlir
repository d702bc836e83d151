// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @batch_matmul
// Covers: linalg.batch_matmul on f32 (batch 3, 17x33 * 33x29).
module {
  func.func @batch_matmul(%a: tensor<3x17x33xf32>, %b: tensor<3x33x29xf32>) -> tensor<3x17x29xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<3x17x29xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x29xf32>) -> tensor<3x17x29xf32>
    %r = linalg.batch_matmul ins(%a, %b : tensor<3x17x33xf32>, tensor<3x33x29xf32>) outs(%c : tensor<3x17x29xf32>) -> tensor<3x17x29xf32>
    return %r : tensor<3x17x29xf32>
  }
}
