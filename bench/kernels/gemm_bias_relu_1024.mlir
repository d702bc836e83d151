// Fused dense layer: C = relu(A * B + bias), 1024x1024x1024 f32, bias broadcast over rows.
func.func @gemm_bias_relu_1024(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                               %bias: tensor<1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1024x1024xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %acc = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                       outs(%c0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<1024xf32>) outs(%acc : tensor<1024x1024xf32>) {
  ^bb0(%bv: f32, %v: f32):
    %s = arith.addf %v, %bv : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
