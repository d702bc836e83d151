// MobileNetV2 depthwise convolution, batch 1, NHWC input / HWC filter, f32:
// 28x28x192, 3x3 window, stride 1, the input already padded (30x30x192) ->
// 28x28x192. Sensitive to the alignment of its rows: every 64-byte load of
// a row 16 bytes off a cache line splits two lines.
func.func @depthwise_28x28x192_3x3(%x: tensor<1x30x30x192xf32>, %w: tensor<3x3x192xf32>) -> tensor<1x28x28x192xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x28x28x192xf32>
  %out0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1x28x28x192xf32>) -> tensor<1x28x28x192xf32>
  %out = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x30x30x192xf32>, tensor<3x3x192xf32>) outs(%out0 : tensor<1x28x28x192xf32>) -> tensor<1x28x28x192xf32>
  return %out : tensor<1x28x28x192xf32>
}
