// RUN: pb-opt %s -split-input-file -pb-fold-copy-generics | FileCheck %s

// A row maximum as jaxlib exports it: a copy (stop_gradient), then a
// broadcast to [b, h, q, 1] that the exponentials read. The copy is its
// input, the broadcast an expand_shape of it; no generic is left between
// the reduction and its reader.
// CHECK-LABEL: func.func @row_copies
// CHECK:         %[[MAX:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
// CHECK:         %[[ROW:.*]] = tensor.expand_shape %[[MAX]] {{\[}}[0], [1], [2, 3]] output_shape [2, 3, 32, 1] : tensor<2x3x32xf32> into tensor<2x3x32x1xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[ROW]] : tensor<2x3x32x32xf32>, tensor<2x3x32x1xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.subf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[EXP]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#unit4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @row_copies(%s: tensor<2x3x32x32xf32>) -> tensor<2x3x32x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x3x32xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3x32xf32>) -> tensor<2x3x32xf32>
  %mx = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x3x32x32xf32>) outs(%fm : tensor<2x3x32xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x32xf32>
  %cp = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mx : tensor<2x3x32xf32>) outs(%er : tensor<2x3x32xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x32xf32>
  %eu = tensor.empty() : tensor<2x3x32x1xf32>
  %mu = linalg.generic {indexing_maps = [#row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cp : tensor<2x3x32xf32>) outs(%eu : tensor<2x3x32x1xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x32x1xf32>
  %es = tensor.empty() : tensor<2x3x32x32xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #unit4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mu : tensor<2x3x32x32xf32>, tensor<2x3x32x1xf32>) outs(%es : tensor<2x3x32x32xf32>) {
  ^bb0(%a: f32, %m: f32, %c: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x3x32x32xf32>
  return %ex : tensor<2x3x32x32xf32>
}

// -----

// Dims of 1 added before, between and after the input's, a scalar spread
// to a tensor of ones, and an identity copy of dynamic shape: each added
// dim joins the group of the dim before it (the first dim's, for those
// before it); the identity copy is its input whatever its shape.
// CHECK-LABEL: func.func @unit_dims
// CHECK-SAME:    %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<f32>, %[[D:.*]]: tensor<?x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[A:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4]] output_shape [1, 4, 1, 8, 1] : tensor<4x8xf32> into tensor<1x4x1x8x1xf32>
// CHECK:         %[[B:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[A]], %[[B]], %[[D]]
func.func @unit_dims(%x: tensor<4x8xf32>, %y: tensor<f32>, %d: tensor<?x8xf32>) -> (tensor<1x4x1x8x1xf32>, tensor<1x1xf32>, tensor<?x8xf32>) {
  %e = tensor.empty() : tensor<1x4x1x8x1xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<1x4x1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x8x1xf32>
  %f = tensor.empty() : tensor<1x1xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<f32>) outs(%f : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x8xf32>
  %ed = tensor.empty(%n) : tensor<?x8xf32>
  %dd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<?x8xf32>) outs(%ed : tensor<?x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x8xf32>
  return %a, %b, %dd : tensor<1x4x1x8x1xf32>, tensor<1x1xf32>, tensor<?x8xf32>
}

// -----

// Not copies that change no value, left as they are: a broadcast to a dim
// of more than one element, a transpose, a conversion, a copy that yields
// its init, and dims of 1 added to a tensor of dynamic shape.
// CHECK-LABEL: func.func @not_folded
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT:     tensor.expand_shape
func.func @not_folded(%x: tensor<4x8xf32>, %h: tensor<4x8xf16>, %d: tensor<?x8xf32>)
    -> (tensor<4x8x2xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8x1xf32>) {
  %e3 = tensor.empty() : tensor<4x8x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e3 : tensor<4x8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x2xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %out : f32
  } -> tensor<4x8xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x8xf32>
  %ed = tensor.empty(%n) : tensor<?x8x1xf32>
  %dd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<?x8xf32>) outs(%ed : tensor<?x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x8x1xf32>
  return %a, %b, %c, %g, %dd : tensor<4x8x2xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8x1xf32>
}
