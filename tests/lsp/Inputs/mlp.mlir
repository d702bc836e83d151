// A dense layer with a ReLU, for the language server's tests.
func.func @mlp(%x: tensor<256x256xf32>, %w: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<256x128xf32>) -> tensor<256x128xf32>
  %y = linalg.matmul ins(%x, %w : tensor<256x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = call @relu(%y) : (tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

func.func private @relu(%v: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %r = tosa.clamp %v {min_val = 0.0 : f32, max_val = 3.0e38 : f32} : (tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
