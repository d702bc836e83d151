// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o /dev/null --explain 2>&1 | FileCheck %s --check-prefix=TILED
// CHECK: PASS @attention_scores
// TILED: pb-register-tile-contraction: register tile
// Covers: pb-transpose-column-factors: JAX's einsum('bqhd,bkhd->bhqk'),
// the keys transposed so that the scores take the register-tiled
// micro-kernel.
#q = affine_map<(b, h, q, k, d) -> (b, q, h, d)>
#k = affine_map<(b, h, q, k, d) -> (b, k, h, d)>
#o = affine_map<(b, h, q, k, d) -> (b, h, q, k)>
func.func @attention_scores(%query: tensor<2x40x3x16xf32>, %key: tensor<2x40x3x16xf32>) -> tensor<2x3x40x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x40x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x40x40xf32>) -> tensor<2x3x40x40xf32>
  %r = linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%query, %key : tensor<2x40x3x16xf32>, tensor<2x40x3x16xf32>) outs(%z : tensor<2x3x40x40xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x40x40xf32>
  return %r : tensor<2x3x40x40xf32>
}
