// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @sumpool_2x2_s2
// CHECK: PASS @avgpool_3x3_s1_pad
// Covers: linalg.pooling_nhwc_sum (2x2 stride 2) and average pooling (3x3 stride 1 over a zero-padded input, sum then divide by 9).
module {
  func.func @sumpool_2x2_s2(%in: tensor<1x16x18x8xf32>) -> tensor<1x8x9x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x8x9x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x9x8xf32>) -> tensor<1x8x9x8xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%in, %win : tensor<1x16x18x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x8x9x8xf32>) -> tensor<1x8x9x8xf32>
    return %r : tensor<1x8x9x8xf32>
  }

  func.func @avgpool_3x3_s1_pad(%in: tensor<1x15x17x6xf32>) -> tensor<1x15x17x6xf32> {
    %zero = arith.constant 0.0 : f32
    %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x15x17x6xf32> to tensor<1x17x19x6xf32>
    %e = tensor.empty() : tensor<1x15x17x6xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x15x17x6xf32>) -> tensor<1x15x17x6xf32>
    %win = tensor.empty() : tensor<3x3xf32>
    %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%padded, %win : tensor<1x17x19x6xf32>, tensor<3x3xf32>) outs(%init : tensor<1x15x17x6xf32>) -> tensor<1x15x17x6xf32>
    %e2 = tensor.empty() : tensor<1x15x17x6xf32>
    %r = linalg.map ins(%s : tensor<1x15x17x6xf32>) outs(%e2 : tensor<1x15x17x6xf32>)
      (%v: f32, %o: f32) {
        %nine = arith.constant 9.0 : f32
        %d = arith.divf %v, %nine : f32
        linalg.yield %d : f32
      }
    return %r : tensor<1x15x17x6xf32>
  }
}
