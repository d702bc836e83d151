// Memory-bound elementwise: y = relu(x * a + b) over 64 Mi floats (a = 1.5, b = -0.25 baked in).
// Moves 512 MiB per call (one read and one write of 256 MiB).
func.func @relu_axpb(%x: tensor<67108864xf32>) -> tensor<67108864xf32> {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -0.25 : f32
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<67108864xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%x : tensor<67108864xf32>) outs(%init : tensor<67108864xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    %s = arith.addf %m, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<67108864xf32>
  return %y : tensor<67108864xf32>
}
