// RUN: pb-opt %s -split-input-file -pb-propagate-transposes | FileCheck %s

// A convolution's NCHW result through bias + ReLU and the next convolution's
// pad meets that convolution's NHWC transpose: both transposes disappear, the
// bias is read along the channels-last dim and the pad amounts are permuted.
// CHECK-LABEL: func @sink_through_relu_bias_pad
// CHECK-SAME:    (%[[C:.*]]: tensor<1x4x4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[CH:.*]], #[[ID]]], {{.*}}} ins(%[[C]], %[[B]] : tensor<1x4x4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         %[[P:.*]] = tensor.pad %[[R]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } : tensor<1x4x4x8xf32> to tensor<1x6x6x8xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[P]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @sink_through_relu_bias_pad(%c: tensor<1x4x4x8xf32>, %b: tensor<8xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%c : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %b : tensor<1x8x4x4xf32>, tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %s = arith.addf %x, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  %e2 = tensor.empty() : tensor<1x6x6x8xf32>
  %back = linalg.transpose ins(%p : tensor<1x8x6x6xf32>) outs(%e2 : tensor<1x6x6x8xf32>) permutation = [0, 2, 3, 1]
  return %back : tensor<1x6x6x8xf32>
}

// -----

// A residual add of two transposed values is computed in their input layout,
// and its result transposed once.
// CHECK-LABEL: func @residual_add
// CHECK-SAME:    (%[[A:.*]]: tensor<1x4x4x8xf32>, %[[B:.*]]: tensor<1x4x4x8xf32>)
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[S]] : tensor<1x4x4x8xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[T]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @residual_add(%a: tensor<1x4x4x8xf32>, %b: tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %ta = linalg.transpose ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %tb = linalg.transpose ins(%b : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ta, %tb : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A reduction reads the transpose's input through its indexing map.
// CHECK-DAG:   #[[SWAP:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func @into_reduction
// CHECK-SAME:    (%[[A:.*]]: tensor<16x8xf32>,
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {indexing_maps = [#[[SWAP]], #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[A]] : tensor<16x8xf32>)
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @into_reduction(%a: tensor<16x8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%a : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<8x16xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Transposes of constants stay for pb-fold-constant-transposes.
// CHECK-LABEL: func @constant_left
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<4x8xf32>)
func.func @constant_left(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %w = arith.constant dense<1.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
