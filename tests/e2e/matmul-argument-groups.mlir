// RUN: %pbtool crosscheck %s --threads=2 --l2-cache-kib=64 | FileCheck %s
// RUN: %pbtool crosscheck %s --threads=2 --l2-cache-kib=64 --no-parallel | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --threads=2 --l2-cache-kib=64 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @matmul_argument_groups
// Covers: a matmul of 520 rows by weights passed as an argument, 256
// columns: with 2 threads each takes a group of half the column tiles,
// outermost, and packs each of its panels as its first row block reaches
// it (a 64 KiB L2 makes several row blocks; the rows left over after the
// whole tiles go with the last); checked against the reference lowering,
// on 2 threads and on one.
// S3-LABEL: func.func @matmul_argument_groups
// S3: affine.parallel
// S3: affine.if
// S3: packed_by_groups = true
module {
  func.func @matmul_argument_groups(%x: tensor<520x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<520x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<520x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<520x256xf32>) -> tensor<520x256xf32>
    %y = linalg.matmul ins(%x, %w : tensor<520x64xf32>, tensor<64x256xf32>) outs(%f : tensor<520x256xf32>) -> tensor<520x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<520x256xf32>, tensor<256xf32>) outs(%e : tensor<520x256xf32>) {
    ^bb0(%v: f32, %bias: f32, %o: f32):
      %s = arith.addf %v, %bias : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<520x256xf32>
    return %r : tensor<520x256xf32>
  }
}
