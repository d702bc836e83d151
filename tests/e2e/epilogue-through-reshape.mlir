// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 --threads=2 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --cpu=x86-64-v3 --explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=S3
// CHECK: PASS @query_and_key_projections
// Covers: pb-fuse-epilogues on a consumer that reads the matmul's result
// through a reshape, against the reference lowering. Two dense layers of
// one input as jaxlib's DenseGeneral spells them (a contraction over the
// last dimension into [heads, features], pb-collapse-contraction-dims makes
// it a matmul of 2 x 7 rows by 4 x 16 columns, its result expanded back),
// each followed by its bias, broadcast as [1, 1, heads, features], and the
// first one's scaled (the queries' 1 / sqrt(features)). The rows leave a
// tile of 4, and the second matmul
// comes between the first and its bias: it moves above the first, both
// biases are computed on the tiles. (The second matmul's result is stored
// too: bufferization gave it the first result's buffer as scratch.)
// S3: remark: @query_and_key_projections, nest 1 ({{.*}}): pb-register-tile-contraction: register tile 5 x 16 of f32 (2 tiles of 5 rows, then 4 rows;
// S3: remark: @query_and_key_projections, nest 1 ({{.*}}): pb-fuse-epilogues: the elementwise nest after it computed on the register tiles as they are stored
// S3: remark: @query_and_key_projections, nest 2 ({{.*}}): pb-register-tile-contraction: register tile 5 x 16 of f32 (2 tiles of 5 rows, then 4 rows;
// S3: remark: @query_and_key_projections, nest 2 ({{.*}}): pb-fuse-epilogues: the elementwise nest after it computed on the register tiles as they are stored, in place of its result
// S3-NOT: remark: @query_and_key_projections, nest 3
#x = affine_map<(b, s, h, f, k) -> (b, s, k)>
#w = affine_map<(b, s, h, f, k) -> (k, h, f)>
#o = affine_map<(b, s, h, f, k) -> (b, s, h, f)>
#id = affine_map<(b, s, h, f) -> (b, s, h, f)>
#bias = affine_map<(b, s, h, f) -> (0, 0, h, f)>
func.func @query_and_key_projections(%x: tensor<2x7x32xf32>, %wq: tensor<32x4x16xf32>, %bq: tensor<4x16xf32>,
                                     %wk: tensor<32x4x16xf32>, %bk: tensor<4x16xf32>)
    -> (tensor<2x7x4x16xf32>, tensor<2x7x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<2x7x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x4x16xf32>) -> tensor<2x7x4x16xf32>
  %q = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wq : tensor<2x7x32xf32>, tensor<32x4x16xf32>) outs(%f : tensor<2x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x7x4x16xf32>
  %k = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wk : tensor<2x7x32xf32>, tensor<32x4x16xf32>) outs(%f : tensor<2x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x7x4x16xf32>
  %bq4 = tensor.expand_shape %bq [[0, 1, 2], [3]] output_shape [1, 1, 4, 16] : tensor<4x16xf32> into tensor<1x1x4x16xf32>
  %bk4 = tensor.expand_shape %bk [[0, 1, 2], [3]] output_shape [1, 1, 4, 16] : tensor<4x16xf32> into tensor<1x1x4x16xf32>
  %kb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k, %bk4 : tensor<2x7x4x16xf32>, tensor<1x1x4x16xf32>) outs(%e : tensor<2x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x7x4x16xf32>
  %qb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %bq4 : tensor<2x7x4x16xf32>, tensor<1x1x4x16xf32>) outs(%e : tensor<2x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %d = arith.divf %s, %quarter : f32
    linalg.yield %d : f32
  } -> tensor<2x7x4x16xf32>
  return %qb, %kb : tensor<2x7x4x16xf32>, tensor<2x7x4x16xf32>
}
