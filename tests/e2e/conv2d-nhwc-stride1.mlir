// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @conv2d_nhwc_s1
// Covers: linalg.conv_2d_nhwc_hwcf, stride 1, no padding (1x17x19x8 input, 3x3x8x16 filter).
module {
  func.func @conv2d_nhwc_s1(%in: tensor<1x17x19x8xf32>, %f: tensor<3x3x8x16xf32>) -> tensor<1x15x17x16xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x15x17x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x15x17x16xf32>) -> tensor<1x15x17x16xf32>
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%in, %f : tensor<1x17x19x8xf32>, tensor<3x3x8x16xf32>) outs(%init : tensor<1x15x17x16xf32>) -> tensor<1x15x17x16xf32>
    return %r : tensor<1x15x17x16xf32>
  }
}
