// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @depthwise_s1
// CHECK: PASS @depthwise_s2_pad
// Covers: linalg.depthwise_conv_2d_nhwc_hwc, stride 1 and stride 2 with tensor.pad zero padding.
module {
  func.func @depthwise_s1(%in: tensor<1x18x17x12xf32>, %f: tensor<3x3x12xf32>) -> tensor<1x16x15x12xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x15x12xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x15x12xf32>) -> tensor<1x16x15x12xf32>
    %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%in, %f : tensor<1x18x17x12xf32>, tensor<3x3x12xf32>) outs(%init : tensor<1x16x15x12xf32>) -> tensor<1x16x15x12xf32>
    return %r : tensor<1x16x15x12xf32>
  }

  func.func @depthwise_s2_pad(%in: tensor<2x15x15x7xf32>, %f: tensor<3x3x7xf32>) -> tensor<2x8x8x7xf32> {
    %zero = arith.constant 0.0 : f32
    %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<2x15x15x7xf32> to tensor<2x17x17x7xf32>
    %e = tensor.empty() : tensor<2x8x8x7xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x7xf32>) -> tensor<2x8x8x7xf32>
    %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%padded, %f : tensor<2x17x17x7xf32>, tensor<3x3x7xf32>) outs(%init : tensor<2x8x8x7xf32>) -> tensor<2x8x8x7xf32>
    return %r : tensor<2x8x8x7xf32>
  }
}
