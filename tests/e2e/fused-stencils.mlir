// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --l2-cache-kib=512 -o - | FileCheck %s --check-prefix=S3
// RUN: %pbtool crosscheck %s --l2-cache-kib=256 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --l2-cache-kib=256 -o - | FileCheck %s --check-prefix=SMALL
// RUN: %pbtool compile %s --compile-to=s3 --l2-cache-kib=128 -o - | FileCheck %s --check-prefix=TINY
// CHECK: PASS @separable_blur
// CHECK: PASS @exp_then_vertical_sum
// Covers: producer-consumer fusion with recomputation (pb-fuse-producer-slices):
// with a 512 KiB L2, rows of 2000 floats give tiles of 28 rows (+4
// recomputed) that do not divide the 296 output rows, so the last tile is
// clipped (other cache sizes give other tiles, none divides 296); the second
// function's producer is elementwise (exp) and its consumer reads three
// neighbouring rows.
// S3-LABEL: func.func @separable_blur
// S3-NOT:     memref<2x300x1996xf32>
// S3:         affine.parallel
// S3-NEXT:      memref.alloc() {{.*}} : memref<{{[0-9]+}}x1996xf32>
// S3-LABEL: func.func @exp_then_vertical_sum
// S3:         memref.alloc() {{.*}} : memref<{{[0-9]+}}x2000xf32>
// With a 256 KiB L2 (--l2-cache-kib), half of it holds 16 rows of the blur:
// tiles of 12 would recompute a third of their rows, so the blur gets the
// smallest tiles that recompute a quarter, 16 rows in a buffer of 20 (160
// KiB, within the whole cache), checked against the reference above; the
// three-row stencil keeps half the cache (16 rows, tiles of 14). With 128
// KiB the blur's 20 rows no longer fit: not fused.
// SMALL-LABEL: func.func @separable_blur
// SMALL:         memref.alloc() {{.*}} : memref<20x1996xf32>
// SMALL-LABEL: func.func @exp_then_vertical_sum
// SMALL:         memref.alloc() {{.*}} : memref<16x2000xf32>
// TINY-LABEL: func.func @separable_blur
// TINY:         memref.alloc() {{.*}} : memref<2x300x1996xf32>
// TINY-LABEL: func.func @exp_then_vertical_sum
// TINY:         memref.alloc() {{.*}} : memref<10x2000xf32>
#x = affine_map<(c, i, j, k) -> (c, i, j + k)>
#y = affine_map<(c, i, j, k) -> (c, i + k, j)>
#w = affine_map<(c, i, j, k) -> (k)>
#o = affine_map<(c, i, j, k) -> (c, i, j)>
#id3 = affine_map<(c, i, j) -> (c, i, j)>
module {
  func.func @separable_blur(%img: tensor<2x300x2000xf32>) -> tensor<2x296x1996xf32> {
    %taps = arith.constant dense<[0.0625, 0.25, 0.375, 0.25, 0.0625]> : tensor<5xf32>
    %zero = arith.constant 0.0 : f32
    %t0 = tensor.empty() : tensor<2x300x1996xf32>
    %t1 = linalg.fill ins(%zero : f32) outs(%t0 : tensor<2x300x1996xf32>) -> tensor<2x300x1996xf32>
    %tmp = linalg.generic {indexing_maps = [#x, #w, #o],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%img, %taps : tensor<2x300x2000xf32>, tensor<5xf32>) outs(%t1 : tensor<2x300x1996xf32>) {
    ^bb0(%in: f32, %k: f32, %acc: f32):
      %p = arith.mulf %k, %in : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<2x300x1996xf32>
    %o0 = tensor.empty() : tensor<2x296x1996xf32>
    %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<2x296x1996xf32>) -> tensor<2x296x1996xf32>
    %out = linalg.generic {indexing_maps = [#y, #w, #o],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%tmp, %taps : tensor<2x300x1996xf32>, tensor<5xf32>) outs(%o1 : tensor<2x296x1996xf32>) {
    ^bb0(%in: f32, %k: f32, %acc: f32):
      %p = arith.mulf %k, %in : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<2x296x1996xf32>
    return %out : tensor<2x296x1996xf32>
  }

  func.func @exp_then_vertical_sum(%x: tensor<1x100x2000xf32>) -> tensor<1x98x2000xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<1x100x2000xf32>
    %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x : tensor<1x100x2000xf32>) outs(%e0 : tensor<1x100x2000xf32>) {
    ^bb0(%v: f32, %o: f32):
      %e = math.exp %v : f32
      linalg.yield %e : f32
    } -> tensor<1x100x2000xf32>
    %ones = arith.constant dense<1.0> : tensor<3xf32>
    %o0 = tensor.empty() : tensor<1x98x2000xf32>
    %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1x98x2000xf32>) -> tensor<1x98x2000xf32>
    %out = linalg.generic {indexing_maps = [#y, #w, #o],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%ex, %ones : tensor<1x100x2000xf32>, tensor<3xf32>) outs(%o1 : tensor<1x98x2000xf32>) {
    ^bb0(%in: f32, %k: f32, %acc: f32):
      %p = arith.mulf %k, %in : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<1x98x2000xf32>
    return %out : tensor<1x98x2000xf32>
  }
}
