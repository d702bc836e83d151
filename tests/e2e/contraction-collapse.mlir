// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @dense_general_layer
// Covers: a Flax-style attention projection, x[b, s, e] * w[e, h, d] + bias
// (DenseGeneral, weights as arguments), then the output projection back,
// y[b, s, h, d] * wo[h, d, o]: pb-collapse-contraction-dims turns both
// into matmuls on reshapes (b * s rows); checked against the reference
// lowering, which computes them as written. The rows (2 * 9 = 18) and the
// columns (3 * 16 = 48; then 20) are no multiples of the register tile.
// S1-LABEL: func.func @dense_general_layer
// S1-COUNT-2: memref.collapse_shape %arg{{[0-9]}}
// S1: return
#x = affine_map<(b, s, h, d, e) -> (b, s, e)>
#w = affine_map<(b, s, h, d, e) -> (e, h, d)>
#y = affine_map<(b, s, h, d, e) -> (b, s, h, d)>
#ox = affine_map<(b, s, o, h, d) -> (b, s, h, d)>
#ow = affine_map<(b, s, o, h, d) -> (h, d, o)>
#oy = affine_map<(b, s, o, h, d) -> (b, s, o)>
#id = affine_map<(b, s, h, d) -> (b, s, h, d)>
#bias = affine_map<(b, s, h, d) -> (h, d)>
module {
  func.func @dense_general_layer(%x: tensor<2x9x24xf32>, %w: tensor<24x3x16xf32>, %bias: tensor<3x16xf32>, %wo: tensor<3x16x20xf32>) -> tensor<2x9x20xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x9x3x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x3x16xf32>) -> tensor<2x9x3x16xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%x, %w : tensor<2x9x24xf32>, tensor<24x3x16xf32>) outs(%f : tensor<2x9x3x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<2x9x3x16xf32>
    %pb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%p, %bias : tensor<2x9x3x16xf32>, tensor<3x16xf32>) outs(%e : tensor<2x9x3x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<2x9x3x16xf32>
    %eo = tensor.empty() : tensor<2x9x20xf32>
    %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x9x20xf32>) -> tensor<2x9x20xf32>
    %o = linalg.generic {indexing_maps = [#ox, #ow, #oy], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%pb, %wo : tensor<2x9x3x16xf32>, tensor<3x16x20xf32>) outs(%fo : tensor<2x9x20xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<2x9x20xf32>
    return %o : tensor<2x9x20xf32>
  }
}
