// C = A * B, square 512x512x512, f32: zero-filled accumulator + linalg.matmul.
func.func @gemm_512(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<512x512xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
                     outs(%c0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
