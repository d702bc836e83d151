// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s3-pipeline{tile-cache-size-kib=4096})' | FileCheck %s

// Bug: upstream affine-loop-tile uses the footprint/cache ratio (the tile count) as the tile size, so a larger cache gives smaller tiles: 4096 KiB -> 1 and 2, 64 KiB -> 4 or 8.
// XFAIL: *

// Tiles are sized for the cache: with a 4 MiB cache, the tiles of a
// 1024x1024x1024 f32 matmul (12 MiB of data) span at least 16 iterations along
// each tiled loop (a 16x16x16 tile touches only 3 KiB).

// CHECK-LABEL: func.func @matmul_tiles_fill_a_large_cache
// CHECK:         affine.parallel (%{{.*}}) = (0) to (1024) step ({{(1[6-9]|[2-9][0-9]|[1-9][0-9][0-9]+)}}) {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 1024 step {{(1[6-9]|[2-9][0-9]|[1-9][0-9][0-9]+)}} {
func.func @matmul_tiles_fill_a_large_cache(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      affine.for %k = 0 to 1024 {
        %0 = affine.load %a[%i, %k] : memref<1024x1024xf32>
        %1 = affine.load %b[%k, %j] : memref<1024x1024xf32>
        %2 = affine.load %c[%i, %j] : memref<1024x1024xf32>
        %3 = arith.mulf %0, %1 : f32
        %4 = arith.addf %2, %3 : f32
        affine.store %4, %c[%i, %j] : memref<1024x1024xf32>
      }
    }
  }
  return %ok : i32
}
