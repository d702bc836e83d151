// ResNet-50 convolution, batch 1, NHWC input / HWCF filter, f32:
// 224x224x3 -> 64 channels, 7x7 window, stride 2, zero padding 3 (tensor.pad) -> 112x112x64.
func.func @conv_stem_224x224x3_7x7s2(%in: tensor<1x224x224x3xf32>, %f: tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x224x224x3xf32> to tensor<1x230x230x3xf32>
  %init = tensor.empty() : tensor<1x112x112x64xf32>
  %out0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %f : tensor<1x230x230x3xf32>, tensor<7x7x3x64xf32>)
      outs(%out0 : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  return %out : tensor<1x112x112x64xf32>
}
