// C = A * B, square 256x256x256, f32: zero-filled accumulator + linalg.matmul.
func.func @gemm_256(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x256xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%c0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
