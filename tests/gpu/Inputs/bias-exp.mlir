// exp(a + b) with b broadcast along rows: one parallel band of 64 x 1000.
func.func @bias_exp(%a: tensor<64x1000xf32>, %b: tensor<1000xf32>) -> tensor<64x1000xf32> {
  %e = tensor.empty() : tensor<64x1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x1000xf32>, tensor<1000xf32>) outs(%e : tensor<64x1000xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.exp %s : f32
    linalg.yield %t : f32
  } -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}
