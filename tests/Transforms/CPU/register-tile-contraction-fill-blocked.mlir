// RUN: pb-opt %s -pb-register-tile-contraction="rows=4 lanes=16 k-block=16" | FileCheck %s

// A matmul by an argument blocked along k (blocks of 16 of 64): each block
// after the first starts from what the one before stored, so C is read and
// the fill before it stays.
// CHECK-LABEL: func @blocked_keeps_fill
// CHECK:         affine.store %{{.*}}, %[[C:.*]][%{{.*}}, %{{.*}}] : memref<8x16xf32>
// CHECK:         affine.vector_load %[[C]]
// CHECK:         fill_folded = false, k_block = 16
// CHECK-SAME:    stores_once = false
func.func @blocked_keeps_fill(%x: memref<8x64xf32>, %y: memref<64x16xf32>, %c: memref<8x16xf32>) {
  %v = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.store %v, %c[%i, %j] : memref<8x16xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<8x64xf32>
        %w = affine.load %y[%k, %j] : memref<64x16xf32>
        %acc = affine.load %c[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %a, %w : f32
        %s = arith.addf %acc, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return
}
