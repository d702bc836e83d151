// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_bias_relu
// Covers: fully-connected layer: linalg.matmul followed by a broadcast bias add and relu in a linalg.generic.
module {
  func.func @matmul_bias_relu(%x: tensor<33x64xf32>, %w: tensor<64x17xf32>, %bias: tensor<17xf32>) -> tensor<33x17xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<33x17xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x17xf32>) -> tensor<33x17xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<33x64xf32>, tensor<64x17xf32>) outs(%c : tensor<33x17xf32>) -> tensor<33x17xf32>
    %e2 = tensor.empty() : tensor<33x17xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<33x17xf32>, tensor<17xf32>) outs(%e2 : tensor<33x17xf32>) {
    ^bb0(%v: f32, %bv: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %s = arith.addf %v, %bv : f32
      %m = arith.maximumf %s, %z : f32
      linalg.yield %m : f32
    } -> tensor<33x17xf32>
    return %r : tensor<33x17xf32>
  }
}
