// Dense (fully connected) layer: result = relu(x * w + b).
//
//   x: 64x256 activations, w: 256x128 weights, b: 128 bias (broadcast over rows).
func.func @dense(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>,
                 %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32

  // acc = x * w, accumulated into a zero-filled tensor.
  %init = tensor.empty() : tensor<64x128xf32>
  %acc_zero = linalg.fill ins(%zero : f32) outs(%init : tensor<64x128xf32>)
      -> tensor<64x128xf32>
  %acc = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>)
                       outs(%acc_zero : tensor<64x128xf32>) -> tensor<64x128xf32>

  // result[i, j] = max(acc[i, j] + b[j], 0), computed in place on acc.
  %result = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128xf32>)
      outs(%acc : tensor<64x128xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x128xf32>

  return %result : tensor<64x128xf32>
}
