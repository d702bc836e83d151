// ResNet-50 convolution, batch 1, NHWC input / HWCF filter, f32:
// 28x28x128 -> 128 channels, 3x3 window, stride 1, zero padding 1 (tensor.pad) -> 28x28x128.
func.func @conv_28x28x128_3x3(%in: tensor<1x28x28x128xf32>, %f: tensor<3x3x128x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x28x28x128xf32> to tensor<1x30x30x128xf32>
  %init = tensor.empty() : tensor<1x28x28x128xf32>
  %out0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %f : tensor<1x30x30x128xf32>, tensor<3x3x128x128xf32>)
      outs(%out0 : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %out : tensor<1x28x28x128xf32>
}
