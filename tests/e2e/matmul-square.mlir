// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_square
// CHECK: PASS @matmul_accumulate
// Covers: linalg.matmul on a 64x64x64 square problem, and a matmul accumulating into a non-zero (input-derived) accumulator.
module {
  func.func @matmul_square(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }

  func.func @matmul_accumulate(%a: tensor<17x33xf32>, %b: tensor<33x19xf32>, %c: tensor<17x19xf32>) -> tensor<17x19xf32> {
    %e = tensor.empty() : tensor<17x19xf32>
    %acc = linalg.copy ins(%c : tensor<17x19xf32>) outs(%e : tensor<17x19xf32>) -> tensor<17x19xf32>
    %r = linalg.matmul ins(%a, %b : tensor<17x33xf32>, tensor<33x19xf32>) outs(%acc : tensor<17x19xf32>) -> tensor<17x19xf32>
    return %r : tensor<17x19xf32>
  }
}
