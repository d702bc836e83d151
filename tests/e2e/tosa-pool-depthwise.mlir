// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_max_pool
// CHECK: PASS @tosa_avg_pool
// CHECK: PASS @tosa_depthwise_conv
// Covers: tosa.max_pool2d (3x3 stride 2 pad 1), tosa.avg_pool2d (2x2 stride 2 with padding, divisor counts valid elements only) and tosa.depthwise_conv2d (multiplier 2).
module {
  func.func @tosa_max_pool(%x: tensor<1x17x17x8xf32>) -> tensor<1x9x9x8xf32> {
    %r = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>}
        : (tensor<1x17x17x8xf32>) -> tensor<1x9x9x8xf32>
    return %r : tensor<1x9x9x8xf32>
  }

  func.func @tosa_avg_pool(%x: tensor<2x15x13x6xf32>) -> tensor<2x8x7x6xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>}
        : (tensor<2x15x13x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x7x6xf32>
    return %r : tensor<2x8x7x6xf32>
  }

  func.func @tosa_depthwise_conv(%x: tensor<1x16x15x6xf32>, %w: tensor<3x3x6x2xf32>, %bias: tensor<12xf32>) -> tensor<1x16x15x12xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : (tensor<1x16x15x6xf32>, tensor<3x3x6x2xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x15x12xf32>
    return %r : tensor<1x16x15x12xf32>
  }
}
