// RUN: %pb-opt %s --pb-s3-pipeline | FileCheck %s
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s3-pipeline{no-parallel})' | FileCheck %s


// The nest writing %buf[0..64) through one subview and the nest reading
// %buf[1..65) through another both read %x, but the second reads what the first
// writes one iteration later: they are not fused, so the first nest is closed
// before anything is read through the offset-1 subview.

// CHECK-LABEL: func.func @sibling_nests_with_overlapping_subviews_are_not_fused
// CHECK-SAME:    (%[[X:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>) -> i32
// CHECK:         %[[BUF:.*]] = memref.alloc() {{.*}}: memref<128xf32>
// CHECK:         %[[W:.*]] = memref.subview %[[BUF]][0] [64] [1]
// CHECK:         affine.store %{{.*}}, %[[W]]
// CHECK-NOT:     offset: 1>>
// CHECK:         }
// CHECK:         affine.load %{{.*}} : memref<64xf32, strided<[1], offset: 1>>
// CHECK:         affine.store %{{.*}}, %[[OUT]]
func.func @sibling_nests_with_overlapping_subviews_are_not_fused(%x: memref<64xf32>, %out: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
  affine.for %i = 0 to 128 {
    affine.store %zero, %buf[%i] : memref<128xf32>
  }
  %w = memref.subview %buf[0] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1]>>
  affine.for %i = 0 to 64 {
    %0 = affine.load %x[%i] : memref<64xf32>
    %1 = math.exp %0 : f32
    affine.store %1, %w[%i] : memref<64xf32, strided<[1]>>
  }
  %r = memref.subview %buf[1] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 1>>
  affine.for %i = 0 to 64 {
    %0 = affine.load %x[%i] : memref<64xf32>
    %1 = affine.load %r[%i] : memref<64xf32, strided<[1], offset: 1>>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %out[%i] : memref<64xf32>
  }
  memref.dealloc %buf : memref<128xf32>
  return %ok : i32
}
