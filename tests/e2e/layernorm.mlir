// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @layernorm_last_axis
// Covers: layer normalization over the last axis: mean, variance, rsqrt(var + eps), then per-feature scale (gamma) and shift (beta).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm_last_axis(%x: tensor<33x96xf32>, %gamma: tensor<96xf32>, %beta: tensor<96xf32>) -> tensor<33x96xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<33xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<33xf32>) -> tensor<33xf32>
    %sum = linalg.reduce ins(%x : tensor<33x96xf32>) outs(%z0 : tensor<33xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    %e1 = tensor.empty() : tensor<33xf32>
    %mean = linalg.map ins(%sum : tensor<33xf32>) outs(%e1 : tensor<33xf32>)
      (%s: f32, %o: f32) {
        %n = arith.constant 96.0 : f32
        %m = arith.divf %s, %n : f32
        linalg.yield %m : f32
      }
    %e2 = tensor.empty() : tensor<33xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<33xf32>) -> tensor<33xf32>
    %sqsum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x, %mean : tensor<33x96xf32>, tensor<33xf32>) outs(%z2 : tensor<33xf32>) {
    ^bb0(%v: f32, %m: f32, %acc: f32):
      %d = arith.subf %v, %m : f32
      %d2 = arith.mulf %d, %d : f32
      %a = arith.addf %d2, %acc : f32
      linalg.yield %a : f32
    } -> tensor<33xf32>
    %e3 = tensor.empty() : tensor<33xf32>
    %rstd = linalg.map ins(%sqsum : tensor<33xf32>) outs(%e3 : tensor<33xf32>)
      (%s: f32, %o: f32) {
        %n = arith.constant 96.0 : f32
        %eps = arith.constant 1.0e-5 : f32
        %var = arith.divf %s, %n : f32
        %ve = arith.addf %var, %eps : f32
        %r = math.rsqrt %ve : f32
        linalg.yield %r : f32
      }
    %e4 = tensor.empty() : tensor<33x96xf32>
    %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean, %rstd, %gamma, %beta : tensor<33x96xf32>, tensor<33xf32>, tensor<33xf32>, tensor<96xf32>, tensor<96xf32>)
        outs(%e4 : tensor<33x96xf32>) {
    ^bb0(%v: f32, %m: f32, %r: f32, %g: f32, %b: f32, %o: f32):
      %d = arith.subf %v, %m : f32
      %n = arith.mulf %d, %r : f32
      %s = arith.mulf %n, %g : f32
      %t = arith.addf %s, %b : f32
      linalg.yield %t : f32
    } -> tensor<33x96xf32>
    return %y : tensor<33x96xf32>
  }
}
