// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul
// Covers: linalg.matmul on f32 with non-power-of-two M/K/N (33x65 * 65x47) and a zero-filled accumulator.
module {
  func.func @matmul(%a: tensor<33x65xf32>, %b: tensor<65x47xf32>) -> tensor<33x47xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<33x47xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
    %r = linalg.matmul ins(%a, %b : tensor<33x65xf32>, tensor<65x47xf32>) outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
    return %r : tensor<33x47xf32>
  }
}
