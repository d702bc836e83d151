// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @transpose_2d
// CHECK: PASS @transpose_3d_perm
// CHECK: PASS @transpose_generic_add
// Covers: linalg.transpose (2-D and 3-D permutation [2, 0, 1]) and a transposed-operand add expressed with linalg.generic maps.
module {
  func.func @transpose_2d(%x: tensor<33x65xf32>) -> tensor<65x33xf32> {
    %e = tensor.empty() : tensor<65x33xf32>
    %r = linalg.transpose ins(%x : tensor<33x65xf32>) outs(%e : tensor<65x33xf32>) permutation = [1, 0]
    return %r : tensor<65x33xf32>
  }

  func.func @transpose_3d_perm(%x: tensor<5x17x33xf32>) -> tensor<33x5x17xf32> {
    %e = tensor.empty() : tensor<33x5x17xf32>
    %r = linalg.transpose ins(%x : tensor<5x17x33xf32>) outs(%e : tensor<33x5x17xf32>) permutation = [2, 0, 1]
    return %r : tensor<33x5x17xf32>
  }

  func.func @transpose_generic_add(%a: tensor<31x47xf32>, %b: tensor<47x31xf32>) -> tensor<31x47xf32> {
    %e = tensor.empty() : tensor<31x47xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<31x47xf32>, tensor<47x31xf32>) outs(%e : tensor<31x47xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %s = arith.addf %u, %v : f32
      linalg.yield %s : f32
    } -> tensor<31x47xf32>
    return %r : tensor<31x47xf32>
  }
}
