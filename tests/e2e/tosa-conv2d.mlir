// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_conv2d_s2_pad
// CHECK: PASS @tosa_conv2d_dil2
// Covers: tosa.conv2d (NHWC input, OHWI weights, bias) with pad 1 / stride 2, and with dilation 2 / no padding.
module {
  func.func @tosa_conv2d_s2_pad(%in: tensor<1x17x17x8xf32>, %w: tensor<16x3x3x8xf32>, %bias: tensor<16xf32>) -> tensor<1x9x9x16xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.conv2d %in, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
        : (tensor<1x17x17x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x16xf32>
    return %r : tensor<1x9x9x16xf32>
  }

  func.func @tosa_conv2d_dil2(%in: tensor<2x15x14x5xf32>, %w: tensor<7x3x3x5xf32>, %bias: tensor<7xf32>) -> tensor<2x11x10x7xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.conv2d %in, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
        : (tensor<2x15x14x5xf32>, tensor<7x3x3x5xf32>, tensor<7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x11x10x7xf32>
    return %r : tensor<2x11x10x7xf32>
  }
}
