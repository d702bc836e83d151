// Skinny GEMM C = A * B with M = 8, N = K = 4096 (f32): A 8x4096, B 4096x4096.
func.func @gemm_skinny_m8(%a: tensor<8x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<8x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x4096xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x4096xf32>, tensor<4096x4096xf32>)
                     outs(%c0 : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %c : tensor<8x4096xf32>
}
