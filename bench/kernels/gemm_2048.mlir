// C = A * B, square 2048x2048x2048, f32: zero-filled accumulator + linalg.matmul.
func.func @gemm_2048(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2048x2048xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>)
                     outs(%c0 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}
