// RUN: %pbtool crosscheck %s --vector-bits=512 --l2-cache-kib=16 | FileCheck %s
// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --vector-bits=512 --l2-cache-kib=16 --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @attention_blocks
// Covers: pb-fuse-attention against the reference lowering's unfused
// attention (random inputs): 4 heads (2 x 2 split for the softmax) of 32
// queries over 48 keys; with a 16 KiB L2 (a quarter: 4 KiB of scores per
// step) the online softmax takes 3 blocks of 16 keys. The mask hides keys
// 0-15 from queries 16-31 and keys past i + 16 from query i: those queries'
// running maximum is -inf after the first block (nothing subtracted, their
// first block's weights 0), and every query sees some key. With the host's
// L2, all keys in one step.
// S1-LABEL: func.func @attention_blocks
// S1:         scf.forall (%{{.*}}) in (4)
// S1:           scf.for %{{.*}} = %c0 to %c48 step %c16
// S1-NOT:     linalg.batch_matmul
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @attention_blocks(%q: tensor<4x32x8xf32>, %kt: tensor<4x8x48xf32>, %v: tensor<4x48x8xf32>) -> tensor<4x32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<4x32x48xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x32x8xf32>, tensor<4x8x48xf32>) outs(%z3 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, 32, 48] : tensor<4x32x48xf32> into tensor<2x2x32x48xf32>
  %e4 = tensor.empty() : tensor<2x2x32x48xf32>
  %masked = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x2x32x48xf32>) outs(%e4 : tensor<2x2x32x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c16 = arith.constant 16 : index
    %scale = arith.constant 0.35 : f32
    %sc = arith.mulf %x, %scale : f32
    %late = arith.cmpi uge, %i, %c16 : index
    %early = arith.cmpi ult, %j, %c16 : index
    %hidden = arith.andi %late, %early : i1
    %reach = arith.addi %i, %c16 : index
    %future = arith.cmpi ugt, %j, %reach : index
    %off = arith.ori %hidden, %future : i1
    %r = arith.select %off, %ninf, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x2x32x48xf32>
  %er = tensor.empty() : tensor<2x2x32xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %mx = linalg.generic {indexing_maps = [#m4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked : tensor<2x2x32x48xf32>) outs(%mx0 : tensor<2x2x32xf32>) {
  ^bb0(%x: f32, %m: f32):
    %r = arith.maximumf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x32xf32>
  %mx4 = tensor.expand_shape %mx [[0], [1], [2, 3]] output_shape [2, 2, 32, 1] : tensor<2x2x32xf32> into tensor<2x2x32x1xf32>
  %ex = linalg.generic {indexing_maps = [#m4, #row1, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked, %mx4 : tensor<2x2x32x48xf32>, tensor<2x2x32x1xf32>) outs(%e4 : tensor<2x2x32x48xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x2x32x48xf32>
  %es = tensor.empty() : tensor<2x2x32x1xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x32x1xf32>) -> tensor<2x2x32x1xf32>
  %sm = linalg.generic {indexing_maps = [#m4, #row1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x32x48xf32>) outs(%sm0 : tensor<2x2x32x1xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x32x1xf32>
  %p = linalg.generic {indexing_maps = [#m4, #row1, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x2x32x48xf32>, tensor<2x2x32x1xf32>) outs(%e4 : tensor<2x2x32x48xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<2x2x32x48xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x32x48xf32> into tensor<4x32x48xf32>
  %eo = tensor.empty() : tensor<4x32x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x32x8xf32>) -> tensor<4x32x8xf32>
  %out = linalg.batch_matmul ins(%p3, %v : tensor<4x32x48xf32>, tensor<4x48x8xf32>) outs(%zo : tensor<4x32x8xf32>) -> tensor<4x32x8xf32>
  return %out : tensor<4x32x8xf32>
}
