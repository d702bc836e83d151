// Layer normalization over the last axis of a 4096x1024 f32 tensor:
// mean, variance, rsqrt(var + 1e-5), then per-feature scale (gamma) and shift (beta).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<4096x1024xf32>, %gamma: tensor<1024xf32>,
                     %beta: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e0 = tensor.empty() : tensor<4096xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%z0 : tensor<4096xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %e1 = tensor.empty() : tensor<4096xf32>
  %mean = linalg.map ins(%sum : tensor<4096xf32>) outs(%e1 : tensor<4096xf32>)
    (%s: f32, %o: f32) {
      %m = arith.divf %s, %n : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<4096xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %sqsum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%z2 : tensor<4096xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>
  %e3 = tensor.empty() : tensor<4096xf32>
  %rstd = linalg.map ins(%sqsum : tensor<4096xf32>) outs(%e3 : tensor<4096xf32>)
    (%s: f32, %o: f32) {
      %var = arith.divf %s, %n : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    }
  %e4 = tensor.empty() : tensor<4096x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<1024xf32>, tensor<1024xf32>)
      outs(%e4 : tensor<4096x1024xf32>) {
  ^bb0(%v: f32, %m: f32, %r: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %s = arith.mulf %t, %g : f32
    %u = arith.addf %s, %b : f32
    linalg.yield %u : f32
  } -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
