// RUN: %pb-opt %s --pb-s3-pipeline | FileCheck %s


// A 64x32 f32 nest (16 KiB) fits in the default 512 KiB cache and is left
// untiled: its two loops run over 0..64 and 0..32 and index the accesses
// directly, with no single-iteration intra-tile loop. (Its 2048 iterations
// are too few for threads: the function stays on the calling thread.)

// CHECK-LABEL: func.func @nest_that_fits_in_cache_is_not_tiled
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[OUT:.*]]: memref<64x32xf32>) -> i32
// CHECK:         affine.for %[[I:.*]] = 0 to 64 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<64x32xf32>
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:        affine.store %[[E]], %[[OUT]][%[[I]], %[[J]]] : memref<64x32xf32>
func.func @nest_that_fits_in_cache_is_not_tiled(%a: memref<64x32xf32>, %out: memref<64x32xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %0 = affine.load %a[%i, %j] : memref<64x32xf32>
      %1 = math.exp %0 : f32
      affine.store %1, %out[%i, %j] : memref<64x32xf32>
    }
  }
  return %ok : i32
}
