// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @sum_all
// CHECK: PASS @mean_sq_all
// Covers: full reduction of a 2-D tensor to a 0-d tensor<f32> result (linalg.reduce over all dims and a linalg.generic mean of squares).
module {
  func.func @sum_all(%x: tensor<33x47xf32>) -> tensor<f32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %r = linalg.reduce ins(%x : tensor<33x47xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<f32>
  }

  func.func @mean_sq_all(%x: tensor<17x9x5xf32>) -> tensor<f32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>],
                         iterator_types = ["reduction", "reduction", "reduction"]}
        ins(%x : tensor<17x9x5xf32>) outs(%init : tensor<f32>) {
    ^bb0(%in: f32, %acc: f32):
      %sq = arith.mulf %in, %in : f32
      %a = arith.addf %sq, %acc : f32
      linalg.yield %a : f32
    } -> tensor<f32>
    %e2 = tensor.empty() : tensor<f32>
    %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
        ins(%s : tensor<f32>) outs(%e2 : tensor<f32>) {
    ^bb0(%in: f32, %o: f32):
      %n = arith.constant 765.0 : f32
      %d = arith.divf %in, %n : f32
      linalg.yield %d : f32
    } -> tensor<f32>
    return %r : tensor<f32>
  }
}
