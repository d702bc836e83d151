// RUN: pb-opt %s -split-input-file -pb-fold-scale-shift | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-fold-scale-shift=max-bytes=4 | FileCheck %s --check-prefix=BUDGET

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c3 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Batch norm after a channels-last convolution: both multiplies go into
// the filter (its last dimension is the channel) and scale the mean the
// subtraction before them reads; the shifts stay for pb-fuse-elementwise.
// CHECK-LABEL: func @batch_norm_nhwc
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[1.000000e+00, 1.000000e+01]], {{\[}}[3.000000e+00, 2.000000e+01]]], {{\[}}{{\[}}[5.000000e+00, 3.000000e+01]], {{\[}}[7.000000e+00, 4.000000e+01]]]]> : tensor<2x2x1x2xf32>
// CHECK-DAG:     %[[MEAN:.*]] = arith.constant dense<[1.000000e+00, 5.000000e+00]> : tensor<2xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] :
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[MEAN]] :
// CHECK:           arith.subf
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%[[S]], %{{.*}} :
// CHECK:           arith.addf
// CHECK-NOT:     arith.mulf
// CHECK:         return %[[B]]
func.func @batch_norm_nhwc(%x: tensor<1x3x3x1xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]], [[[5.0, 6.0]], [[7.0, 8.0]]]]> : tensor<2x2x1x2xf32>
  %mean = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %invstd = arith.constant dense<[2.0, 10.0]> : tensor<2xf32>
  %gamma = arith.constant dense<[0.5, 0.5]> : tensor<2xf32>
  %beta = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x3x1xf32>, tensor<2x2x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %mean : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %1 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0, %invstd : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %2 = linalg.generic {indexing_maps = [#c3, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%gamma, %1 : tensor<2xf32>, tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%b: f32, %a: f32, %o: f32):
    %r = arith.mulf %b, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %3 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %beta : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %3 : tensor<1x2x2x2xf32>
}

// -----

// NCHW: the channel is the output's dimension 1 and the filter's 0; the
// scale is read through a reshape (64x1x1 in PyTorch's exports), divided.
// CHECK-LABEL: func @nchw_divide
// CHECK:         arith.constant dense<{{\[}}{{\[}}{{\[}}[5.000000e-01, 1.000000e+00], [1.500000e+00, 2.000000e+00]]], {{\[}}{{\[}}[2.500000e-01, 5.000000e-01], [7.500000e-01, 1.000000e+00]]]]> : tensor<2x1x2x2xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C]]
func.func @nchw_divide(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<2x1x2x2xf32>
  %k = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %kr = tensor.expand_shape %k [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %kr : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c3 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Depthwise: the channel indexes input and filter; the filter is the
// constant one.
// CHECK-LABEL: func @depthwise
// CHECK:         arith.constant dense<{{\[}}{{\[}}[2.000000e+00, 3.000000e+01]]]> : tensor<1x1x2xf32>
// CHECK:         %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C]]
func.func @depthwise(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[1.0, 3.0]]]> : tensor<1x1x2xf32>
  %k = arith.constant dense<[2.0, 10.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x2x2xf32>, tensor<1x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %k : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c3 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Two multiplies in a row fold at once: one new blob, the filter times
// 2 * 3 and 10 * 0.5 (f32 1, 2 -> 6, 10); over the budget, nothing.
// CHECK-LABEL: func @chain_resource
// CHECK:         %[[W:.*]] = arith.constant dense_resource<w_scaled> : tensor<1x1x1x2xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] :
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C]]
// CHECK-NOT:   w_scaled_scaled
// CHECK:       w_scaled: "0x{{[0-9A-F]+}}0000C04000002041"
// BUDGET-LABEL: func @chain_resource
// BUDGET-COUNT-2: linalg.generic
func.func @chain_resource(%x: tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense_resource<w> : tensor<1x1x1x2xf32>
  %k1 = arith.constant dense<[2.0, 10.0]> : tensor<2xf32>
  %k2 = arith.constant dense<[3.0, 0.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %k1 : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %1 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0, %k2 : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c3 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Left alone: the convolution's result read twice; a scale along a
// spatial dimension (the filter does not have it); k / x; a convolution
// accumulating onto ones.
// CHECK-LABEL: func @not_folded
// CHECK-NOT:     2.000000e+01
// CHECK-COUNT-4: linalg.generic
func.func @not_folded(%x: tensor<1x2x2x1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant dense<[2.0, 10.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %w0 = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %w1 = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %w2 = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %w3 = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w0 : tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %g0 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0, %k : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %g1 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %k : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w2 : tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %g2 = linalg.generic {indexing_maps = [#c3, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %c2 : tensor<2xf32>, tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%b: f32, %a: f32, %o: f32):
    %r = arith.divf %b, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %c3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w3 : tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) outs(%f1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %g3 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c3, %k : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %g0, %c0, %g1, %g2, %g3 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c3 = affine_map<(d0, d1, d2, d3) -> (d3)>

// f16: the filter scaled in APFloat (f32 and f64 in float and double).
// CHECK-LABEL: func @f16
// CHECK:         arith.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00, 2.000000e+01]]]]> : tensor<1x1x1x2xf16>
// CHECK-NOT:     linalg.generic
func.func @f16(%x: tensor<1x2x2x1xf16>) -> tensor<1x2x2x2xf16> {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf16>
  %k = arith.constant dense<[2.0, 10.0]> : tensor<2xf16>
  %e = tensor.empty() : tensor<1x2x2x2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x2x1xf16>, tensor<1x1x1x2xf16>) outs(%f : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  %0 = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %k : tensor<1x2x2x2xf16>, tensor<2xf16>) outs(%e : tensor<1x2x2x2xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.mulf %a, %b : f16
    linalg.yield %r : f16
  } -> tensor<1x2x2x2xf16>
  return %0 : tensor<1x2x2x2xf16>
}
