// A causal softmax over 256 x 256 scores: each row's later keys masked to -inf
// (as a decoder's attention has them), then the row max, exp, sum and
// division. Used in bench/RESULTS.md (pb-vectorize-max-reductions).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @causal_softmax(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %later = arith.cmpi ugt, %j, %i : index
    %r = arith.select %later, %ninf, %v : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %er = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%masked : tensor<256x256xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%masked, %max : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<256x256xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%sub : tensor<256x256xf32>) outs(%zi : tensor<256xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%sub, %sum : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %d = arith.divf %v, %s : f32
    linalg.yield %d : f32
  } -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
