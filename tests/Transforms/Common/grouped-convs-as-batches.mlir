// RUN: pb-opt %s -split-input-file -pb-grouped-convs-as-batches | FileCheck %s

// The named grouped convolution becomes the generic with the group loop
// outermost, its filter [g, f, kh, kw, c] transposed to [g, kh, kw, c, f];
// strides and dilations carried into the image's map.
// CHECK-DAG:   #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2 * 2 + d5 * 3, d3 * 2 + d6 * 3, d0, d7)>
// CHECK-DAG:   #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d6, d7, d4)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d0, d4)>
// CHECK-LABEL: func @named
// CHECK-SAME:    (%[[X:.*]]: tensor<1x12x12x4x2xf32>, %[[W:.*]]: tensor<4x8x3x3x2xf32>, %[[I:.*]]: tensor<1x3x3x4x8xf32>)
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x8x3x3x2xf32>) outs(%{{.*}} : tensor<4x3x3x2x8xf32>) permutation = [0, 2, 3, 4, 1]
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[X]], %[[WT]] : {{.*}}) outs(%[[I]] : tensor<1x3x3x4x8xf32>)
// CHECK:           %[[M:.*]] = arith.mulf
// CHECK:           %[[S:.*]] = arith.addf %{{.*}}, %[[M]]
// CHECK:           linalg.yield %[[S]]
// CHECK:         return %[[Y]]
// CHECK-NOT:     linalg.conv_2d_nhwgc_gfhwc
func.func @named(%x: tensor<1x12x12x4x2xf32>, %w: tensor<4x8x3x3x2xf32>, %init: tensor<1x3x3x4x8xf32>) -> tensor<1x3x3x4x8xf32> {
  %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x12x12x4x2xf32>, tensor<4x8x3x3x2xf32>) outs(%init : tensor<1x3x3x4x8xf32>) -> tensor<1x3x3x4x8xf32>
  return %y : tensor<1x3x3x4x8xf32>
}

// -----

// JAX's spelling (stablehlo-legalize-to-linalg's): loops (g, c, f, oh, kh,
// ow, kw, n), the filter [kh, kw, c, g, f], the product written filter
// first. The same generic results.
#image = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d3 + d4, d5 + d6, d0, d1)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d6, d1, d0, d2)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d3, d5, d0, d2)>
// CHECK-DAG:   #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2 + d5, d3 + d6, d0, d7)>
// CHECK-DAG:   #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d6, d7, d4)>
// CHECK-LABEL: func @jax
// CHECK-SAME:    (%[[X:.*]]: tensor<1x6x6x4x2xf32>, %[[W:.*]]: tensor<3x3x2x4x8xf32>
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<3x3x2x4x8xf32>) outs(%{{.*}} : tensor<4x3x3x2x8xf32>) permutation = [3, 0, 1, 2, 4]
// CHECK:         linalg.generic {indexing_maps = [#[[IMAGE]], #[[FILTER]], #{{.*}}], {{.*}} ins(%[[X]], %[[WT]] :
func.func @jax(%x: tensor<1x6x6x4x2xf32>, %w: tensor<3x3x2x4x8xf32>, %init: tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32> {
  %y = linalg.generic {indexing_maps = [#image, #filter, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]} ins(%x, %w : tensor<1x6x6x4x2xf32>, tensor<3x3x2x4x8xf32>) outs(%init : tensor<1x4x4x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x4x8xf32>
  return %y : tensor<1x4x4x4x8xf32>
}

// -----

// A transpose already on the filter is composed with the pass's: one
// transpose of the original filter.
// CHECK-LABEL: func @transposed_filter
// CHECK-SAME:    (%{{.*}}: tensor<1x6x6x2x4xf32>, %[[W:.*]]: tensor<2x4x8x3x3xf32>
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<2x4x8x3x3xf32>) outs(%{{.*}} : tensor<2x3x3x4x8xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[WT]] :
func.func @transposed_filter(%x: tensor<1x6x6x2x4xf32>, %w: tensor<2x4x8x3x3xf32>, %init: tensor<1x4x4x2x8xf32>) -> tensor<1x4x4x2x8xf32> {
  %e = tensor.empty() : tensor<2x8x3x3x4xf32>
  // [G, C, F, KH, KW] -> [G, F, KH, KW, C]
  %wt = linalg.transpose ins(%w : tensor<2x4x8x3x3xf32>) outs(%e : tensor<2x8x3x3x4xf32>) permutation = [0, 2, 3, 4, 1]
  %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %wt : tensor<1x6x6x2x4xf32>, tensor<2x8x3x3x4xf32>) outs(%init : tensor<1x4x4x2x8xf32>) -> tensor<1x4x4x2x8xf32>
  return %y : tensor<1x4x4x2x8xf32>
}

// -----

// Left alone: one group (an ordinary convolution: the named NHWC paths,
// Winograd's among them), and one channel in and out per group (depthwise).
// CHECK-LABEL: func @one_group
// CHECK:         linalg.conv_2d_nhwgc_gfhwc
// CHECK-LABEL: func @depthwise
// CHECK:         linalg.conv_2d_nhwgc_gfhwc
// CHECK-NOT:     linalg.generic
func.func @one_group(%x: tensor<1x6x6x1x8xf32>, %w: tensor<1x8x3x3x8xf32>, %init: tensor<1x4x4x1x8xf32>) -> tensor<1x4x4x1x8xf32> {
  %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x6x1x8xf32>, tensor<1x8x3x3x8xf32>) outs(%init : tensor<1x4x4x1x8xf32>) -> tensor<1x4x4x1x8xf32>
  return %y : tensor<1x4x4x1x8xf32>
}
func.func @depthwise(%x: tensor<1x6x6x8x1xf32>, %w: tensor<8x1x3x3x1xf32>, %init: tensor<1x4x4x8x1xf32>) -> tensor<1x4x4x8x1xf32> {
  %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x6x8x1xf32>, tensor<8x1x3x3x1xf32>) outs(%init : tensor<1x4x4x8x1xf32>) -> tensor<1x4x4x8x1xf32>
  return %y : tensor<1x4x4x8x1xf32>
}

// -----

// Not a multiply-accumulate (a max): left alone.
#image = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2 + d5, d3 + d6, d0, d7)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d6, d7, d4)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d0, d4)>
// CHECK-LABEL: func @not_multiply_accumulate
// CHECK-NOT:     linalg.transpose
// CHECK:         arith.maximumf
func.func @not_multiply_accumulate(%x: tensor<1x6x6x2x4xf32>, %w: tensor<2x3x3x4x8xf32>, %init: tensor<1x4x4x2x8xf32>) -> tensor<1x4x4x2x8xf32> {
  %y = linalg.generic {indexing_maps = [#image, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x6x6x2x4xf32>, tensor<2x3x3x4x8xf32>) outs(%init : tensor<1x4x4x2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.maximumf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x2x8xf32>
  return %y : tensor<1x4x4x2x8xf32>
}
