// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @linear_gelu
// CHECK: PASS @linear_residual_kept
// CHECK: PASS @linear_rows_scale
// CHECK: PASS @scores_masked
// Covers: pb-fuse-epilogues: a matmul's bias and erf GELU computed on its
// register tiles (40 rows: two tiles of 14, then 12; in place), a residual
// add whose matmul result is also returned (its tiles stored too), and a
// per-row scale (a scalar broadcast along the tile's lanes).
// S3-LABEL: func.func @linear_gelu
// S3:         math.erf %{{.*}} : vector<{{[0-9]+}}xf32>
// S3:         pass = "pb-fuse-epilogues", result_stored = false
// S3-NOT:     math.erf %{{.*}} : f32
// S3-LABEL: func.func @linear_residual_kept
// S3:         pass = "pb-fuse-epilogues", result_stored = true
// S3-LABEL: func.func @linear_rows_scale
// S3:         pass = "pb-fuse-epilogues", result_stored = false
#map = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
#rows = affine_map<(d0, d1) -> (d0)>
module {
  func.func @linear_gelu(%x: tensor<40x64xf32>, %w: tensor<64x96xf32>, %b: tensor<96xf32>) -> tensor<40x96xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<40x96xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x96xf32>) -> tensor<40x96xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<40x64xf32>, tensor<64x96xf32>) outs(%c : tensor<40x96xf32>) -> tensor<40x96xf32>
    %r = linalg.generic {indexing_maps = [#map, #cols, #map], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b : tensor<40x96xf32>, tensor<96xf32>) outs(%e : tensor<40x96xf32>) {
    ^bb0(%v: f32, %bv: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rs2 = arith.constant 0.707106769 : f32
      %s = arith.addf %v, %bv : f32
      %t = arith.mulf %s, %rs2 : f32
      %er = math.erf %t : f32
      %p = arith.addf %er, %one : f32
      %h = arith.mulf %s, %half : f32
      %g = arith.mulf %h, %p : f32
      linalg.yield %g : f32
    } -> tensor<40x96xf32>
    return %r : tensor<40x96xf32>
  }

  func.func @linear_residual_kept(%x: tensor<30x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>, %res: tensor<30x64xf32>) -> (tensor<30x64xf32>, tensor<30x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<30x64xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<30x64xf32>) -> tensor<30x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<30x32xf32>, tensor<32x64xf32>) outs(%c : tensor<30x64xf32>) -> tensor<30x64xf32>
    %e2 = tensor.empty() : tensor<30x64xf32>
    %r = linalg.generic {indexing_maps = [#map, #cols, #map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b, %res : tensor<30x64xf32>, tensor<64xf32>, tensor<30x64xf32>) outs(%e2 : tensor<30x64xf32>) {
    ^bb0(%v: f32, %bv: f32, %rv: f32, %o: f32):
      %s = arith.addf %v, %bv : f32
      %t = arith.addf %s, %rv : f32
      linalg.yield %t : f32
    } -> tensor<30x64xf32>
    return %r, %mm : tensor<30x64xf32>, tensor<30x64xf32>
  }

  func.func @linear_rows_scale(%x: tensor<28x16xf32>, %w: tensor<16x32xf32>, %scale: tensor<28xf32>) -> tensor<28x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<28x32xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<28x32xf32>) -> tensor<28x32xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<28x16xf32>, tensor<16x32xf32>) outs(%c : tensor<28x32xf32>) -> tensor<28x32xf32>
    %e2 = tensor.empty() : tensor<28x32xf32>
    %r = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %scale : tensor<28x32xf32>, tensor<28xf32>) outs(%e2 : tensor<28x32xf32>) {
    ^bb0(%v: f32, %sv: f32, %o: f32):
      %zero2 = arith.constant 0.0 : f32
      %s = arith.mulf %v, %sv : f32
      %gt = arith.cmpf ogt, %s, %zero2 : f32
      %m = arith.select %gt, %s, %zero2 : f32
      linalg.yield %m : f32
    } -> tensor<28x32xf32>
    return %r : tensor<28x32xf32>
  }

  // A mask of i1 (one byte per element in memory) selecting the scores:
  // not read as vectors of i1 (those are bits), so not computed on the
  // register tiles; checked against the reference.
  func.func @scores_masked(%q: tensor<28x16xf32>, %kt: tensor<16x32xf32>, %mask: tensor<28x32xi1>) -> tensor<28x32xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant -1.0e9 : f32
    %e = tensor.empty() : tensor<28x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<28x32xf32>) -> tensor<28x32xf32>
    %s = linalg.matmul ins(%q, %kt : tensor<28x16xf32>, tensor<16x32xf32>) outs(%f : tensor<28x32xf32>) -> tensor<28x32xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%mask, %s : tensor<28x32xi1>, tensor<28x32xf32>) outs(%e : tensor<28x32xf32>) {
    ^bb0(%k: i1, %x: f32, %o: f32):
      %v = arith.select %k, %ninf, %x : f32
      linalg.yield %v : f32
    } -> tensor<28x32xf32>
    return %r : tensor<28x32xf32>
  }
}
