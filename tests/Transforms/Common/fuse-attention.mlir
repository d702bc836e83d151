// RUN: pb-opt %s -split-input-file -pb-fuse-attention | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-fuse-attention=key-block=32 | FileCheck %s --check-prefix=BLOCKS

// A BERT layer's attention as torch-mlir exports it: the scores' batch
// matmul over the 12 heads, viewed as 1 x 12 x 128 x 128 for the softmax (a
// scale, the row maximum kept as x 1, exp, the row sum, a division), then
// the batch matmul with the values. It becomes one scf.forall over the 12
// heads; all 128 keys in one block (64 KiB of scores fit in a quarter of
// the default 512 KiB L2); the two matmuls in its body; no batch matmul or
// whole-sequence softmax left.
// CHECK-LABEL: func.func @bert_attention
// CHECK:         %[[OUT:.*]] = scf.forall (%[[H:.*]]) in (12) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<12x128x64xf32>) {
// CHECK:           %[[Q:.*]] = tensor.extract_slice %{{.*}}[%[[H]], 0, 0] [1, 128, 64] [1, 1, 1] : tensor<12x128x64xf32> to tensor<128x64xf32>
// CHECK:           %[[R:.*]]:3 = scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %c128 iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
// CHECK:             %[[S:.*]] = linalg.matmul ins(%[[Q]], %{{.*}} : tensor<128x64xf32>, tensor<64x128xf32>)
// CHECK:             linalg.generic {{.*}} ins(%[[S]] : tensor<128x128xf32>)
// CHECK:               arith.divf
// CHECK:             arith.maximumf
// CHECK:             math.exp
// CHECK:             linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x128xf32>, tensor<128x64xf32>) outs(%{{.*}} : tensor<128x64xf32>)
// CHECK:             scf.yield
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[H]], 0, 0] [1, 128, 64] [1, 1, 1]
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         return %[[OUT]]
// With blocks of 32 keys: four steps of the online softmax.
// BLOCKS-LABEL: func.func @bert_attention
// BLOCKS:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// BLOCKS:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x64xf32>, tensor<64x32xf32>)
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @bert_attention(%q: tensor<12x128x64xf32>, %kt: tensor<12x64x128xf32>, %v: tensor<12x128x64xf32>) -> tensor<12x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 8.0 : f32
  %e3 = tensor.empty() : tensor<12x128x128xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%z3 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 12, 128, 128] : tensor<12x128x128xf32> into tensor<1x12x128x128xf32>
  %e4 = tensor.empty() : tensor<1x12x128x128xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<1x12x128x128xf32>) outs(%e4 : tensor<1x12x128x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.divf %x, %scale : f32
    linalg.yield %d : f32
  } -> tensor<1x12x128x128xf32>
  %er = tensor.empty() : tensor<1x12x128xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x12x128xf32>) -> tensor<1x12x128xf32>
  %mx = linalg.generic {indexing_maps = [#map4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled : tensor<1x12x128x128xf32>) outs(%mx0 : tensor<1x12x128xf32>) {
  ^bb0(%x: f32, %m: f32):
    %r = arith.maximumf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x12x128xf32>
  %mx4 = tensor.expand_shape %mx [[0], [1], [2, 3]] output_shape [1, 12, 128, 1] : tensor<1x12x128xf32> into tensor<1x12x128x1xf32>
  %ex = linalg.generic {indexing_maps = [#map4, #row1, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %mx4 : tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>) outs(%e4 : tensor<1x12x128x128xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x12x128x128xf32>
  %es = tensor.empty() : tensor<1x12x128x1xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%es : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %sm = linalg.generic {indexing_maps = [#map4, #row1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x12x128x128xf32>) outs(%sm0 : tensor<1x12x128x1xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x12x128x1xf32>
  %p = linalg.generic {indexing_maps = [#map4, #row1, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>) outs(%e4 : tensor<1x12x128x128xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<1x12x128x128xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x12x128x128xf32> into tensor<12x128x128xf32>
  %eo = tensor.empty() : tensor<12x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %out = linalg.batch_matmul ins(%p3, %v : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%zo : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  return %out : tensor<12x128x64xf32>
}

// -----

// The scores are also returned: they must be written whole, nothing fuses.
// CHECK-LABEL: func.func @scores_read_elsewhere
// CHECK-NOT:     scf.forall
// CHECK-COUNT-2: linalg.batch_matmul
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#red3 = affine_map<(b, i, j) -> (b, i)>
func.func @scores_read_elsewhere(%q: tensor<2x16x8xf32>, %kt: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>) -> (tensor<2x16x8xf32>, tensor<2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<2x16x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x16x8xf32>, tensor<2x8x16xf32>) outs(%z3 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %er = tensor.empty() : tensor<2x16xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %mx = linalg.reduce ins(%s : tensor<2x16x16xf32>) outs(%mx0 : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %ex = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x16x16xf32>, tensor<2x16xf32>) outs(%e3 : tensor<2x16x16xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x16x16xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %sm = linalg.reduce ins(%ex : tensor<2x16x16xf32>) outs(%sm0 : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %p = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x16x16xf32>, tensor<2x16xf32>) outs(%e3 : tensor<2x16x16xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<2x16x16xf32>
  %eo = tensor.empty() : tensor<2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %out, %s : tensor<2x16x8xf32>, tensor<2x16x16xf32>
}

// -----

// A BERT layer's attention as jaxlib exports it: the scores a
// linalg.generic contraction of the queries [b, q, h, d] and the keys
// transposed to [b, h, d, k], into [b, h, q, k]; the row maximum and sum
// read as [b, h, q, 1] through expand_shapes (jaxlib's stop_gradient and
// broadcasts, after pb-fold-copy-generics); the product with
// the values [b, k, h, d] (the first operand) written as [b, q, h, d]. The
// 2 x 3 heads run as one scf.forall that reads each head's queries, keys and
// values as slices of the tensors as they are (the head split into b and h)
// and writes its output into a slice of the [b, q, h, d] result: nothing
// transposed, no contraction or whole-sequence softmax left. (The head's
// split indices: tests/e2e/attention-jax-layout.mlir, against the
// reference lowering.)
// CHECK-LABEL: func.func @jax_attention
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x32x3x8xf32>, %[[K:.*]]: tensor<2x32x3x8xf32>, %[[V:.*]]: tensor<2x32x3x8xf32>)
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<2x32x3x8xf32>) outs(%{{.*}} : tensor<2x3x8x32xf32>) permutation = [0, 2, 3, 1]
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[F:.*]] = scf.forall (%{{.*}}) in (6) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<2x32x3x8xf32>) {
// CHECK:           tensor.extract_slice %[[Q]][%{{.*}}, 0, %{{.*}}, 0] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<2x32x3x8xf32> to tensor<32x8xf32>
// CHECK:           tensor.extract_slice %[[KT]][%{{.*}}, %{{.*}}, 0, 0] [1, 1, 8, 32] [1, 1, 1, 1] : tensor<2x3x8x32xf32> to tensor<8x32xf32>
// CHECK:           tensor.extract_slice %[[V]][%{{.*}}, 0, %{{.*}}, 0] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<2x32x3x8xf32> to tensor<32x8xf32>
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x8xf32>, tensor<8x32xf32>)
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x32xf32>, tensor<32x8xf32>)
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[O]][%{{.*}}, 0, %{{.*}}, 0] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<32x8xf32> into tensor<2x32x3x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[F]]
#q5 = affine_map<(b, h, q, k, d) -> (b, q, h, d)>
#kt5 = affine_map<(b, h, q, k, d) -> (b, h, d, k)>
#s5 = affine_map<(b, h, q, k, d) -> (b, h, q, k)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#unit4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#v5 = affine_map<(b, h, e, q, k) -> (b, k, h, e)>
#p5 = affine_map<(b, h, e, q, k) -> (b, h, q, k)>
#o5 = affine_map<(b, h, e, q, k) -> (b, q, h, e)>
func.func @jax_attention(%q: tensor<2x32x3x8xf32>, %k: tensor<2x32x3x8xf32>, %v: tensor<2x32x3x8xf32>) -> tensor<2x32x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x3x8x32xf32>
  %kt = linalg.transpose ins(%k : tensor<2x32x3x8xf32>) outs(%ekt : tensor<2x3x8x32xf32>) permutation = [0, 2, 3, 1]
  %es = tensor.empty() : tensor<2x3x32x32xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x32x32xf32>) -> tensor<2x3x32x32xf32>
  %s = linalg.generic {indexing_maps = [#q5, #kt5, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<2x32x3x8xf32>, tensor<2x3x8x32xf32>) outs(%zs : tensor<2x3x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x32x32xf32>
  %er = tensor.empty() : tensor<2x3x32xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3x32xf32>) -> tensor<2x3x32xf32>
  %mx = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x3x32x32xf32>) outs(%fm : tensor<2x3x32xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x32xf32>
  %mu = tensor.expand_shape %mx [[0], [1], [2, 3]] output_shape [2, 3, 32, 1] : tensor<2x3x32xf32> into tensor<2x3x32x1xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #unit4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mu : tensor<2x3x32x32xf32>, tensor<2x3x32x1xf32>) outs(%es : tensor<2x3x32x32xf32>) {
  ^bb0(%a: f32, %m: f32, %c: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x3x32x32xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3x32xf32>) -> tensor<2x3x32xf32>
  %sm = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x3x32x32xf32>) outs(%fz : tensor<2x3x32xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %c, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x32xf32>
  %su = tensor.expand_shape %sm [[0], [1], [2, 3]] output_shape [2, 3, 32, 1] : tensor<2x3x32xf32> into tensor<2x3x32x1xf32>
  %p = linalg.generic {indexing_maps = [#id4, #unit4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %su : tensor<2x3x32x32xf32>, tensor<2x3x32x1xf32>) outs(%es : tensor<2x3x32x32xf32>) {
  ^bb0(%a: f32, %n: f32, %c: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<2x3x32x32xf32>
  %eo = tensor.empty() : tensor<2x32x3x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x32x3x8xf32>) -> tensor<2x32x3x8xf32>
  %o = linalg.generic {indexing_maps = [#v5, #p5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%v, %p : tensor<2x32x3x8xf32>, tensor<2x3x32x32xf32>) outs(%zo : tensor<2x32x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x32x3x8xf32>
  return %o : tensor<2x32x3x8xf32>
}
