// Copied from examples/blur/blur.mlir (same algorithm, same shapes) for the benchmark.
// Separable 5-tap binomial blur of a 3-channel 2048x2048 image.
//
// Weights [1 4 6 4 1] / 16 are applied first along x (width), then along y
// (height). Borders are "valid": only pixels whose whole 5x5 footprint lies
// inside the image are produced, so each spatial dimension shrinks by 4.
//
// Each pass is a linalg.generic with a reduction dimension %k over the five
// taps: the input is read at offset (j + k) resp. (i + k), and the weight at k.
func.func @blur(%img: tensor<3x2048x2048xf32>) -> tensor<3x2044x2044xf32> {
  %taps = arith.constant dense<[0.0625, 0.25, 0.375, 0.25, 0.0625]> : tensor<5xf32>
  %zero = arith.constant 0.0 : f32

  // x pass: tmp[c, i, j] = sum_k taps[k] * img[c, i, j + k]
  %tmp_init = tensor.empty() : tensor<3x2048x2044xf32>
  %tmp_zero = linalg.fill ins(%zero : f32) outs(%tmp_init : tensor<3x2048x2044xf32>)
      -> tensor<3x2048x2044xf32>
  %tmp = linalg.generic {
      indexing_maps = [affine_map<(c, i, j, k) -> (c, i, j + k)>,
                       affine_map<(c, i, j, k) -> (k)>,
                       affine_map<(c, i, j, k) -> (c, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%img, %taps : tensor<3x2048x2048xf32>, tensor<5xf32>)
      outs(%tmp_zero : tensor<3x2048x2044xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %prod = arith.mulf %w, %in : f32
    %sum = arith.addf %acc, %prod : f32
    linalg.yield %sum : f32
  } -> tensor<3x2048x2044xf32>

  // y pass: out[c, i, j] = sum_k taps[k] * tmp[c, i + k, j]
  %out_init = tensor.empty() : tensor<3x2044x2044xf32>
  %out_zero = linalg.fill ins(%zero : f32) outs(%out_init : tensor<3x2044x2044xf32>)
      -> tensor<3x2044x2044xf32>
  %out = linalg.generic {
      indexing_maps = [affine_map<(c, i, j, k) -> (c, i + k, j)>,
                       affine_map<(c, i, j, k) -> (k)>,
                       affine_map<(c, i, j, k) -> (c, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%tmp, %taps : tensor<3x2048x2044xf32>, tensor<5xf32>)
      outs(%out_zero : tensor<3x2044x2044xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %prod = arith.mulf %w, %in : f32
    %sum = arith.addf %acc, %prod : f32
    linalg.yield %sum : f32
  } -> tensor<3x2044x2044xf32>

  return %out : tensor<3x2044x2044xf32>
}
