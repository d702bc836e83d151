// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_transpose_b
// CHECK: PASS @matmul_transpose_a_maps
// CHECK: PASS @matvec
// Covers: contractions with non-default layouts: A*B^T as linalg.generic, A^T*B as linalg.matmul with explicit indexing_maps, and linalg.matvec.
module {
  func.func @matmul_transpose_b(%a: tensor<33x40xf32>, %b: tensor<17x40xf32>) -> tensor<33x17xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<33x17xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x17xf32>) -> tensor<33x17xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<33x40xf32>, tensor<17x40xf32>) outs(%c : tensor<33x17xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<33x17xf32>
    return %r : tensor<33x17xf32>
  }

  func.func @matmul_transpose_a_maps(%a: tensor<40x33xf32>, %b: tensor<40x17xf32>) -> tensor<33x17xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<33x17xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x17xf32>) -> tensor<33x17xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b : tensor<40x33xf32>, tensor<40x17xf32>) outs(%c : tensor<33x17xf32>) -> tensor<33x17xf32>
    return %r : tensor<33x17xf32>
  }

  func.func @matvec(%a: tensor<65x33xf32>, %x: tensor<33xf32>) -> tensor<65xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<65xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<65xf32>) -> tensor<65xf32>
    %r = linalg.matvec ins(%a, %x : tensor<65x33xf32>, tensor<33xf32>) outs(%c : tensor<65xf32>) -> tensor<65xf32>
    return %r : tensor<65xf32>
  }
}
