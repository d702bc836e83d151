// RUN: pb-opt %s -split-input-file -pb-collapse-contraction-dims | FileCheck %s

// Flax's DenseGeneral, x[b, s, e] * w[e, h, d] -> y[b, s, h, d]: (b, s) and
// (h, d) are read together by every operand that reads them, so the
// contraction is the matmul [b * s, e] x [e, h * d].
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[Y:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @dense_general
// CHECK-SAME:    (%[[XA:.*]]: tensor<2x4x6xf32>, %[[WA:.*]]: tensor<6x3x5xf32>, %[[INIT:.*]]: tensor<2x4x3x5xf32>)
// CHECK-DAG:     %[[XC:.*]] = tensor.collapse_shape %[[XA]] {{\[}}[0, 1], [2]] : tensor<2x4x6xf32> into tensor<8x6xf32>
// CHECK-DAG:     %[[WC:.*]] = tensor.collapse_shape %[[WA]] {{\[}}[0], [1, 2]] : tensor<6x3x5xf32> into tensor<6x15xf32>
// CHECK-DAG:     %[[IC:.*]] = tensor.collapse_shape %[[INIT]] {{\[}}[0, 1], [2, 3]] : tensor<2x4x3x5xf32> into tensor<8x15xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[Y]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[XC]], %[[WC]] : tensor<8x6xf32>, tensor<6x15xf32>) outs(%[[IC]] : tensor<8x15xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2, 3]] output_shape [2, 4, 3, 5] : tensor<8x15xf32> into tensor<2x4x3x5xf32>
// CHECK:         return %[[R]]
func.func @dense_general(%x: tensor<2x4x6xf32>, %w: tensor<6x3x5xf32>, %init: tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, h, d, e) -> (b, s, e)>,
                                        affine_map<(b, s, h, d, e) -> (e, h, d)>,
                                        affine_map<(b, s, h, d, e) -> (b, s, h, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x4x6xf32>, tensor<6x3x5xf32>) outs(%init : tensor<2x4x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3x5xf32>
  return %y : tensor<2x4x3x5xf32>
}

// -----

// The attention's output projection, x[b, s, h, d] * w[h, d, o] -> y[b, s,
// o]: the reduction loops (h, d) collapse too, into K = h * d.
// CHECK-LABEL: func @output_projection
// CHECK-DAG:     tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<2x4x3x5xf32> into tensor<8x15xf32>
// CHECK-DAG:     tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<3x5x7xf32> into tensor<15x7xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      tensor<8x15xf32>, tensor<15x7xf32>) outs(%{{.*}} : tensor<8x7xf32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 4, 7] : tensor<8x7xf32> into tensor<2x4x7xf32>
func.func @output_projection(%x: tensor<2x4x3x5xf32>, %w: tensor<3x5x7xf32>, %init: tensor<2x4x7xf32>) -> tensor<2x4x7xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, o, h, d) -> (b, s, h, d)>,
                                        affine_map<(b, s, o, h, d) -> (h, d, o)>,
                                        affine_map<(b, s, o, h, d) -> (b, s, o)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<2x4x3x5xf32>, tensor<3x5x7xf32>) outs(%init : tensor<2x4x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x7xf32>
  return %y : tensor<2x4x7xf32>
}

// -----

// Attention's scores, q[b, i, h, d] * k[b, j, h, d] -> s[b, h, i, j]: b and h
// are apart in q and k, no two loops run together in every operand; left
// alone. So are elementwise ops and named contractions.
// CHECK-LABEL: func @scores
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK:         linalg.batch_matmul
// CHECK-NOT:     tensor.collapse_shape
func.func @scores(%q: tensor<2x4x3x5xf32>, %k: tensor<2x4x3x5xf32>, %init: tensor<2x3x4x4xf32>, %e: tensor<2x3x4x4xf32>,
                  %a: tensor<6x4x5xf32>, %b: tensor<6x5x4xf32>, %c: tensor<6x4x4xf32>) -> (tensor<2x3x4x4xf32>, tensor<6x4x4xf32>) {
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) outs(%init : tensor<2x3x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %z, %m : f32
    linalg.yield %t : f32
  } -> tensor<2x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x4x4xf32>) outs(%e : tensor<2x3x4x4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %t = arith.negf %x : f32
    linalg.yield %t : f32
  } -> tensor<2x3x4x4xf32>
  %bm = linalg.batch_matmul ins(%a, %b : tensor<6x4x5xf32>, tensor<6x5x4xf32>) outs(%c : tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  return %r, %bm : tensor<2x3x4x4xf32>, tensor<6x4x4xf32>
}
