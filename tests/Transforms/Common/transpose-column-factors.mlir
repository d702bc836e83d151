// RUN: pb-opt %s -split-input-file -pb-transpose-column-factors | FileCheck %s

// JAX's attention scores, einsum('bqhd,bkhd->bhqk'): the keys, the column
// factor (they move with k, the result's innermost dimension), have d, the
// reduction, innermost. They are transposed to [b, h, d, k] and read so.
// CHECK-DAG:   #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG:   #[[KT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func @attention_scores
// CHECK-SAME:    (%[[QUERY:.*]]: tensor<2x16x4x8xf32>, %[[KEY:.*]]: tensor<2x16x4x8xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x4x8x16xf32>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[KEY]] : tensor<2x16x4x8xf32>) outs(%[[E]] : tensor<2x4x8x16xf32>) permutation = [0, 2, 3, 1]
// CHECK:         linalg.generic {indexing_maps = [#[[Q]], #[[KT]], {{.*}}]
// CHECK-SAME:        ins(%[[QUERY]], %[[T]] : tensor<2x16x4x8xf32>, tensor<2x4x8x16xf32>)
#q = affine_map<(b, h, q, k, d) -> (b, q, h, d)>
#k = affine_map<(b, h, q, k, d) -> (b, k, h, d)>
#o = affine_map<(b, h, q, k, d) -> (b, h, q, k)>
func.func @attention_scores(%query: tensor<2x16x4x8xf32>, %key: tensor<2x16x4x8xf32>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %r = linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%query, %key : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) outs(%z : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x16x16xf32>
  return %r : tensor<2x4x16x16xf32>
}

// -----

// A matmul whose column factor already has its columns innermost, and one
// whose row factor (not the column factor) is transposed: left alone.
// CHECK-LABEL: func @left_alone
// CHECK-NOT:     linalg.transpose
#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @left_alone(%x: tensor<16x8xf32>, %xt: tensor<8x16xf32>, %y: tensor<8x32xf32>, %acc: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<16x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %r2 = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xt, %y : tensor<8x16xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r, %r2 : tensor<16x32xf32>, tensor<16x32xf32>
}

// -----

// Not a contraction (a max over d): left alone.
// CHECK-LABEL: func @not_a_contraction
// CHECK-NOT:     linalg.transpose
#x = affine_map<(i, j, d) -> (i, d)>
#y = affine_map<(i, j, d) -> (j, d)>
#o = affine_map<(i, j, d) -> (i, j)>
func.func @not_a_contraction(%x: tensor<4x8xf32>, %y: tensor<16x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #y, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.maximumf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
