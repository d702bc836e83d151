// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @feed_forward
// Covers: a transformer's feed-forward block as torch exports it (Linear,
// GELU, Linear): the bias add on the first matmul's rows, the erf GELU on
// them reshaped to batch x rows, its result reshaped back for the second
// matmul. pb-fuse-elementwise collapses the GELU to the rows and fuses it
// with the bias add, so pb-fuse-epilogues computes both on the first
// matmul's register tiles (no pass of its own over the 40 x 96 result).
// S3-LABEL: func.func @feed_forward
// S3:         math.erf %{{.*}} : vector<{{[0-9]+}}xf32>
// S3:         pass = "pb-fuse-epilogues", result_stored = false
// S3-NOT:     math.erf %{{.*}} : f32
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @feed_forward(%x: tensor<40x64xf32>, %w1: tensor<64x96xf32>, %b1: tensor<96xf32>, %w2: tensor<96x64xf32>) -> tensor<40x64xf32> {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %e = tensor.empty() : tensor<40x96xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x96xf32>) -> tensor<40x96xf32>
    %mm = linalg.matmul ins(%x, %w1 : tensor<40x64xf32>, tensor<64x96xf32>) outs(%c : tensor<40x96xf32>) -> tensor<40x96xf32>
    %biased = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b1 : tensor<40x96xf32>, tensor<96xf32>) outs(%e : tensor<40x96xf32>) {
    ^bb0(%v: f32, %bv: f32, %o: f32):
      %s = arith.addf %v, %bv : f32
      linalg.yield %s : f32
    } -> tensor<40x96xf32>
    %h = tensor.expand_shape %biased [[0, 1], [2]] output_shape [1, 40, 96] : tensor<40x96xf32> into tensor<1x40x96xf32>
    %e3 = tensor.empty() : tensor<1x40x96xf32>
    %halved = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%h : tensor<1x40x96xf32>) outs(%e3 : tensor<1x40x96xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.mulf %v, %half : f32
      linalg.yield %m : f32
    } -> tensor<1x40x96xf32>
    %erf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%h : tensor<1x40x96xf32>) outs(%e3 : tensor<1x40x96xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.mulf %v, %rsqrt2 : f32
      %r = math.erf %s : f32
      %p = arith.addf %r, %one : f32
      linalg.yield %p : f32
    } -> tensor<1x40x96xf32>
    %g = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%halved, %erf : tensor<1x40x96xf32>, tensor<1x40x96xf32>) outs(%e3 : tensor<1x40x96xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<1x40x96xf32>
    %flat = tensor.collapse_shape %g [[0, 1], [2]] : tensor<1x40x96xf32> into tensor<40x96xf32>
    %e2 = tensor.empty() : tensor<40x64xf32>
    %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40x64xf32>) -> tensor<40x64xf32>
    %out = linalg.matmul ins(%flat, %w2 : tensor<40x96xf32>, tensor<96x64xf32>) outs(%c2 : tensor<40x64xf32>) -> tensor<40x64xf32>
    return %out : tensor<40x64xf32>
  }
}
