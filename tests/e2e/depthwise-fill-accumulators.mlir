// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @depthwise_from_fill
// CHECK: PASS @depthwise_padded
// Covers: a depthwise convolution whose output a fill set first (a bias of
// 0.25, then zero after padding, as MobileNetV2's blocks have it):
// pb-register-tile-depthwise starts its accumulators from the fill value
// and removes the fill nest; checked against the reference lowering.
// S3-LABEL: func.func @depthwise_from_fill
// S3: fill_folded = true
// S3-LABEL: func.func @depthwise_padded
// S3: fill_folded = true
module {
  func.func @depthwise_from_fill(%x: tensor<1x18x20x32xf32>, %f: tensor<3x3x32xf32>) -> tensor<1x16x18x32xf32> {
    %bias = arith.constant 0.25 : f32
    %e = tensor.empty() : tensor<1x16x18x32xf32>
    %init = linalg.fill ins(%bias : f32) outs(%e : tensor<1x16x18x32xf32>) -> tensor<1x16x18x32xf32>
    %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %f : tensor<1x18x20x32xf32>, tensor<3x3x32xf32>) outs(%init : tensor<1x16x18x32xf32>) -> tensor<1x16x18x32xf32>
    return %y : tensor<1x16x18x32xf32>
  }
  func.func @depthwise_padded(%x: tensor<2x14x14x64xf32>, %f: tensor<3x3x64xf32>) -> tensor<2x7x7x64xf32> {
    %zero = arith.constant 0.0 : f32
    %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %zero : f32
    } : tensor<2x14x14x64xf32> to tensor<2x16x16x64xf32>
    %e = tensor.empty() : tensor<2x7x7x64xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x64xf32>) -> tensor<2x7x7x64xf32>
    %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %f : tensor<2x16x16x64xf32>, tensor<3x3x64xf32>) outs(%init : tensor<2x7x7x64xf32>) -> tensor<2x7x7x64xf32>
    return %y : tensor<2x7x7x64xf32>
  }
}
