// sin on f64: no polynomial, no instruction, and AMD kernels link no math library.
#id = affine_map<(d0) -> (d0)>
func.func @sin_f64(%x: tensor<64xf64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%v: f64, %o: f64):
    %y = math.sin %v : f64
    linalg.yield %y : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
