// RUN: %pbtool crosscheck %s --vector-bits=512 --l2-cache-kib=16 | FileCheck %s
// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --vector-bits=512 --l2-cache-kib=16 --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @jax_attention
// Covers: pb-fuse-attention (after pb-fold-copy-generics) on attention as
// jaxlib exports a Flax layer's:
// the scores a linalg.generic contraction of the queries [b, q, h, d] and
// the keys transposed to [b, h, d, k]; a per-head bias on the scores
// ([h, k], the prologue, read at each head's split indices); the row
// maximum through a copy (stop_gradient) and a broadcast to [b, h, q, 1];
// the product with the values [b, k, h, d], its first operand, written as
// [b, q, h, d]. Against the reference lowering's unfused attention (random
// inputs), with a 16 KiB L2 (3 blocks of 16 keys of the online softmax) and
// the host's; at S1 the heads' queries read in place (rows 48 floats apart)
// and the output written in place, nothing transposed but the keys.
// S1-LABEL: func.func @jax_attention
// S1:         linalg.transpose ins(%arg1
// S1-NOT:     linalg.generic
// S1:         scf.forall (%{{.*}}) in (6)
// S1:           memref.subview %arg0[%{{.*}}, 0, %{{.*}}, 0] [1, 48, 1, 16] [1, 1, 1, 1] : memref<2x48x3x16xf32> to memref<48x16xf32, strided<[48, 1], offset: ?>>
// S1:           scf.for %{{.*}} = %c0 to %c48 step %c16
// S1:             linalg.matmul
// S1:             linalg.matmul
// S1-NOT:     linalg.transpose
// S1:         return
#q5 = affine_map<(b, h, q, k, d) -> (b, q, h, d)>
#kt5 = affine_map<(b, h, q, k, d) -> (b, h, d, k)>
#s5 = affine_map<(b, h, q, k, d) -> (b, h, q, k)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#hk4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#unit4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#v5 = affine_map<(b, h, e, q, k) -> (b, k, h, e)>
#p5 = affine_map<(b, h, e, q, k) -> (b, h, q, k)>
#o5 = affine_map<(b, h, e, q, k) -> (b, q, h, e)>
func.func @jax_attention(%q: tensor<2x48x3x16xf32>, %k: tensor<2x48x3x16xf32>, %v: tensor<2x48x3x16xf32>, %bias: tensor<3x48xf32>) -> tensor<2x48x3x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x3x16x48xf32>
  %kt = linalg.transpose ins(%k : tensor<2x48x3x16xf32>) outs(%ekt : tensor<2x3x16x48xf32>) permutation = [0, 2, 3, 1]
  %es = tensor.empty() : tensor<2x3x48x48xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x48x48xf32>) -> tensor<2x3x48x48xf32>
  %s = linalg.generic {indexing_maps = [#q5, #kt5, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<2x48x3x16xf32>, tensor<2x3x16x48xf32>) outs(%zs : tensor<2x3x48x48xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48x48xf32>
  %sb = linalg.generic {indexing_maps = [#id4, #hk4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x3x48x48xf32>, tensor<3x48xf32>) outs(%es : tensor<2x3x48x48xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48x48xf32>
  %er = tensor.empty() : tensor<2x3x48xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %mx = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sb : tensor<2x3x48x48xf32>) outs(%fm : tensor<2x3x48xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48xf32>
  %cp = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mx : tensor<2x3x48xf32>) outs(%er : tensor<2x3x48xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x48xf32>
  %eu = tensor.empty() : tensor<2x3x48x1xf32>
  %mu = linalg.generic {indexing_maps = [#row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cp : tensor<2x3x48xf32>) outs(%eu : tensor<2x3x48x1xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x48x1xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #unit4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sb, %mu : tensor<2x3x48x48xf32>, tensor<2x3x48x1xf32>) outs(%es : tensor<2x3x48x48xf32>) {
  ^bb0(%a: f32, %m: f32, %c: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x3x48x48xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %sm = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x3x48x48xf32>) outs(%fz : tensor<2x3x48xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48xf32>
  %su = linalg.generic {indexing_maps = [#row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm : tensor<2x3x48xf32>) outs(%eu : tensor<2x3x48x1xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x48x1xf32>
  %p = linalg.generic {indexing_maps = [#id4, #unit4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %su : tensor<2x3x48x48xf32>, tensor<2x3x48x1xf32>) outs(%es : tensor<2x3x48x48xf32>) {
  ^bb0(%a: f32, %n: f32, %c: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48x48xf32>
  %eo = tensor.empty() : tensor<2x48x3x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x48x3x16xf32>) -> tensor<2x48x3x16xf32>
  %o = linalg.generic {indexing_maps = [#v5, #p5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%v, %p : tensor<2x48x3x16xf32>, tensor<2x3x48x48xf32>) outs(%zo : tensor<2x48x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x48x3x16xf32>
  return %o : tensor<2x48x3x16xf32>
}
