// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @conv2d_nhwc_dil2
// Covers: linalg.conv_2d_nhwc_hwcf with dilation 2 (effective 5x5 receptive field), stride 1, followed by relu.
module {
  func.func @conv2d_nhwc_dil2(%in: tensor<1x20x18x6xf32>, %f: tensor<3x3x6x8xf32>) -> tensor<1x16x14x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x14x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x8xf32>) -> tensor<1x16x14x8xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%in, %f : tensor<1x20x18x6xf32>, tensor<3x3x6x8xf32>) outs(%init : tensor<1x16x14x8xf32>) -> tensor<1x16x14x8xf32>
    %e2 = tensor.empty() : tensor<1x16x14x8xf32>
    %r = linalg.map ins(%c : tensor<1x16x14x8xf32>) outs(%e2 : tensor<1x16x14x8xf32>)
      (%v: f32, %o: f32) {
        %z = arith.constant 0.0 : f32
        %m = arith.maximumf %v, %z : f32
        linalg.yield %m : f32
      }
    return %r : tensor<1x16x14x8xf32>
  }
}
