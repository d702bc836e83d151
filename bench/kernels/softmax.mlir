// Numerically stable softmax over the last axis of a 4096x1024 f32 tensor:
// row max, exp(x - max), row sum, divide.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4096xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4096xf32>) -> tensor<4096xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%minit : tensor<4096xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4096xf32>
  %e1 = tensor.empty() : tensor<4096x1024xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e1 : tensor<4096x1024xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4096x1024xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4096x1024xf32>) outs(%sinit : tensor<4096xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%ex : tensor<4096x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}
