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

// -----

// Flax's attention: softmax(QK^T) . V computed as [b, h, d, q], then
// transposed by a permuting linalg.generic to [b, q, h, d]. The transpose
// folds into the contraction's output map, which accumulates onto a fill of
// the transposed shape.
// CHECK-DAG:   #[[V:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d2)>
// CHECK-DAG:   #[[P:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func @attention_values
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x5x3x4xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<2x5x3x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[V]], #[[P]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      outs(%[[FILL]] : tensor<2x5x3x4xf32>)
// CHECK:           arith.mulf
// CHECK:         return %[[R]] : tensor<2x5x3x4xf32>
func.func @attention_values(%v: tensor<2x6x3x4xf32>, %p: tensor<2x3x5x6xf32>) -> tensor<2x5x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, d, q, k) -> (b, k, h, d)>,
                                        affine_map<(b, h, d, q, k) -> (b, h, q, k)>,
                                        affine_map<(b, h, d, q, k) -> (b, h, d, q)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%v, %p : tensor<2x6x3x4xf32>, tensor<2x3x5x6xf32>) outs(%f : tensor<2x3x4x5xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4x5xf32>
  %et = tensor.empty() : tensor<2x5x3x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(b, q, h, d) -> (b, h, d, q)>,
                                        affine_map<(b, q, h, d) -> (b, q, h, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x3x4x5xf32>) outs(%et : tensor<2x5x3x4xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x5x3x4xf32>
  return %t : tensor<2x5x3x4xf32>
}

// -----

// A linalg.transpose of a row sum folds the same way; a reduction whose
// result has a second reader, or whose init is no fill, keeps its layout.
// CHECK-LABEL: func @transposed_sum
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x3xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%[[FILL]] : tensor<5x3xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[R]]
// CHECK-LABEL: func @two_readers
// CHECK:         linalg.transpose
// CHECK-LABEL: func @accumulated
// CHECK:         linalg.transpose
func.func @transposed_sum(%x: tensor<3x5x7xf32>) -> tensor<5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x7xf32>) outs(%f : tensor<3x5xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %et = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%s : tensor<3x5xf32>) outs(%et : tensor<5x3xf32>) permutation = [1, 0]
  return %t : tensor<5x3xf32>
}
func.func @two_readers(%x: tensor<3x5x7xf32>) -> (tensor<5x3xf32>, tensor<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x7xf32>) outs(%f : tensor<3x5xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %et = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%s : tensor<3x5xf32>) outs(%et : tensor<5x3xf32>) permutation = [1, 0]
  return %t, %s : tensor<5x3xf32>, tensor<3x5xf32>
}
func.func @accumulated(%x: tensor<3x5x7xf32>, %acc: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x7xf32>) outs(%acc : tensor<3x5xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %et = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%s : tensor<3x5xf32>) outs(%et : tensor<5x3xf32>) permutation = [1, 0]
  return %t : tensor<5x3xf32>
}
