// C = A * B, square 1024x1024x1024, f32: zero-filled accumulator + linalg.matmul.
func.func @gemm_1024(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1024x1024xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%c0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
