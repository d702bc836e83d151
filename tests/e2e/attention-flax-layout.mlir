// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @flax_attention
// Covers: attention as Flax's dot_product_attention spells it: the scores
// einsum q[b, i, h, d] . k[b, j, h, d] -> [b, h, i, j], a softmax, then
// p[b, h, i, j] . v[b, j, h, d] computed as [b, h, d, i] and transposed to
// [b, i, h, d]. pb-propagate-transposes folds the transpose into the
// product's output map; pb-register-tile-contraction then takes the
// product, v packed per (b, h). Checked against the reference lowering.
// S3-LABEL: func.func @flax_attention
// S3: per batch, by the thread of the batch
#q = affine_map<(b, h, i, j, d) -> (b, i, h, d)>
#k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#v = affine_map<(b, h, d, i, j) -> (b, j, h, d)>
#p = affine_map<(b, h, d, i, j) -> (b, h, i, j)>
#o = affine_map<(b, h, d, i, j) -> (b, h, d, i)>
#tin = affine_map<(b, i, h, d) -> (b, h, d, i)>
#tout = affine_map<(b, i, h, d) -> (b, i, h, d)>
module {
  func.func @flax_attention(%q: tensor<2x16x3x32xf32>, %k: tensor<2x16x3x32xf32>, %v: tensor<2x16x3x32xf32>) -> tensor<2x16x3x32xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.17677669 : f32
    %es = tensor.empty() : tensor<2x3x16x16xf32>
    %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
    %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x16x3x32xf32>, tensor<2x16x3x32xf32>) outs(%fs : tensor<2x3x16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %c, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x3x16x16xf32>
    %er = tensor.empty() : tensor<2x3x16xf32>
    %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
    %mx = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%s : tensor<2x3x16x16xf32>) outs(%fm : tensor<2x3x16xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.maximumf %c, %a : f32
      linalg.yield %r : f32
    } -> tensor<2x3x16xf32>
    %ex = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s, %mx : tensor<2x3x16x16xf32>, tensor<2x3x16xf32>) outs(%es : tensor<2x3x16x16xf32>) {
    ^bb0(%a: f32, %m: f32, %c: f32):
      %d = arith.subf %a, %m : f32
      %t = arith.mulf %d, %scale : f32
      %x = math.exp %t : f32
      linalg.yield %x : f32
    } -> tensor<2x3x16x16xf32>
    %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
    %sum = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%ex : tensor<2x3x16x16xf32>) outs(%fz : tensor<2x3x16xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %c, %a : f32
      linalg.yield %r : f32
    } -> tensor<2x3x16xf32>
    %pr = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%ex, %sum : tensor<2x3x16x16xf32>, tensor<2x3x16xf32>) outs(%es : tensor<2x3x16x16xf32>) {
    ^bb0(%a: f32, %n: f32, %c: f32):
      %r = arith.divf %a, %n : f32
      linalg.yield %r : f32
    } -> tensor<2x3x16x16xf32>
    %eo = tensor.empty() : tensor<2x3x32x16xf32>
    %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x32x16xf32>) -> tensor<2x3x32x16xf32>
    %o = linalg.generic {indexing_maps = [#v, #p, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v, %pr : tensor<2x16x3x32xf32>, tensor<2x3x16x16xf32>) outs(%fo : tensor<2x3x32x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %c, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x3x32x16xf32>
    %et = tensor.empty() : tensor<2x16x3x32xf32>
    %t = linalg.generic {indexing_maps = [#tin, #tout], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%o : tensor<2x3x32x16xf32>) outs(%et : tensor<2x16x3x32xf32>) {
    ^bb0(%a: f32, %c: f32):
      linalg.yield %a : f32
    } -> tensor<2x16x3x32xf32>
    return %t : tensor<2x16x3x32xf32>
  }
}
