// exp on f64 over its whole range: random inputs in [-1, 1] times 800 reach
// overflow (x > 709.78 gives inf), the subnormals and zero (x < -745.13).
#id = affine_map<(d0) -> (d0)>
func.func @exp_f64_wide(%x: tensor<1031xf64>) -> tensor<1031xf64> {
  %e = tensor.empty() : tensor<1031xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1031xf64>) outs(%e : tensor<1031xf64>) {
  ^bb0(%v: f64, %o: f64):
    %s = arith.constant 800.0 : f64
    %w = arith.mulf %v, %s : f64
    %y = math.exp %w : f64
    linalg.yield %y : f64
  } -> tensor<1031xf64>
  return %r : tensor<1031xf64>
}

// For chosen inputs (times 800): 0, 0.8, overflow, zero, near the largest
// finite result, subnormal results, below the smallest one, 400.
func.func @exp_f64_special(%x: tensor<10xf64>) -> tensor<10xf64> {
  %e = tensor.empty() : tensor<10xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<10xf64>) outs(%e : tensor<10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %s = arith.constant 800.0 : f64
    %w = arith.mulf %v, %s : f64
    %y = math.exp %w : f64
    linalg.yield %y : f64
  } -> tensor<10xf64>
  return %r : tensor<10xf64>
}
