func.func @matvec(%x: tensor<1x256xf32>, %w: tensor<256x512xf32>) -> tensor<1x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512xf32>) -> tensor<1x512xf32>
  %r = linalg.matmul ins(%x, %w : tensor<1x256xf32>, tensor<256x512xf32>) outs(%f : tensor<1x512xf32>) -> tensor<1x512xf32>
  return %r : tensor<1x512xf32>
}
