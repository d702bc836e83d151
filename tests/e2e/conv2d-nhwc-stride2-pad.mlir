// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @conv2d_nhwc_s2_pad
// Covers: linalg.conv_2d_nhwc_hwcf with stride 2 on a zero-padded input (tensor.pad by 1 on H and W), batch 2, plus bias add.
module {
  func.func @conv2d_nhwc_s2_pad(%in: tensor<2x17x17x5xf32>, %f: tensor<3x3x5x12xf32>, %bias: tensor<12xf32>) -> tensor<2x9x9x12xf32> {
    %zero = arith.constant 0.0 : f32
    %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<2x17x17x5xf32> to tensor<2x19x19x5xf32>
    %e = tensor.empty() : tensor<2x9x9x12xf32>
    %init = linalg.broadcast ins(%bias : tensor<12xf32>) outs(%e : tensor<2x9x9x12xf32>) dimensions = [0, 1, 2]
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%padded, %f : tensor<2x19x19x5xf32>, tensor<3x3x5x12xf32>) outs(%init : tensor<2x9x9x12xf32>) -> tensor<2x9x9x12xf32>
    return %r : tensor<2x9x9x12xf32>
  }
}
