// A dense layer with a ReLU: a fill, a matmul, an elementwise nest.
func.func @mlp(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%z : tensor<64x512xf32>) -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x512xf32>) outs(%e2 : tensor<64x512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}
