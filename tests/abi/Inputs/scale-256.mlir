// The elementwise product of two 256x256 f32 tensors: a second kernel with
// parallel regions, linked into one program with another (two-kernels.c).
func.func @scale(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.mul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
