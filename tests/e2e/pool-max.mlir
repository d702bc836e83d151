// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @maxpool_3x3_s2
// CHECK: PASS @maxpool_2x2_s1
// Covers: linalg.pooling_nhwc_max with a 3x3 window stride 2 and a 2x2 window stride 1, accumulator initialized to -inf.
module {
  func.func @maxpool_3x3_s2(%in: tensor<1x17x17x8xf32>) -> tensor<1x8x8x8xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<1x8x8x8xf32>
    %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %win = tensor.empty() : tensor<3x3xf32>
    %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%in, %win : tensor<1x17x17x8xf32>, tensor<3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    return %r : tensor<1x8x8x8xf32>
  }

  func.func @maxpool_2x2_s1(%in: tensor<2x13x11x5xf32>) -> tensor<2x12x10x5xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<2x12x10x5xf32>
    %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x12x10x5xf32>) -> tensor<2x12x10x5xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%in, %win : tensor<2x13x11x5xf32>, tensor<2x2xf32>) outs(%init : tensor<2x12x10x5xf32>) -> tensor<2x12x10x5xf32>
    return %r : tensor<2x12x10x5xf32>
  }
}
