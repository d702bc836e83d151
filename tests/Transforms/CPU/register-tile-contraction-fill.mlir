// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16" | FileCheck %s

// A fill of C right before a convolution-shaped contraction (the whole
// reduction per tile, each tile of C stored once): the accumulators start
// from the fill's value in every lane, nothing reads C, the fill's nest is
// gone. An unrelated nest between them stays.
// CHECK-LABEL: func @fill_then_contraction
// CHECK-SAME:    (%{{.*}}: memref<2x8x16xf32>, %{{.*}}: memref<16x16xf32>, %[[C:.*]]: memref<2x8x16xf32>, %[[O:.*]]: memref<4xf32>)
// CHECK:         %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NOT:     affine.store %[[V]], %[[C]]
// CHECK:         affine.store %{{.*}}, %[[O]]
// CHECK:         %[[SPLAT:.*]] = vector.broadcast %[[V]] : f32 to vector<16xf32>
// CHECK-NOT:     affine.vector_load %[[C]]
// CHECK:         affine.for %{{.*}} = 0 to 16 iter_args(%{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]])
// CHECK-NOT:     affine.vector_load %[[C]]
// CHECK-COUNT-4: affine.vector_store %{{.*}}, %[[C]]
// CHECK:         fill_folded = true
// CHECK-SAME:    the accumulators start from the value the nest before filled the result with (that nest removed)
func.func @fill_then_contraction(%x: memref<2x8x16xf32>, %y: memref<16x16xf32>, %c: memref<2x8x16xf32>, %o: memref<4xf32>) {
  %v = arith.constant 1.5 : f32
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        affine.store %v, %c[%b, %i, %j] : memref<2x8x16xf32>
      }
    }
  }
  affine.for %i = 0 to 4 {
    affine.store %v, %o[%i] : memref<4xf32>
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 16 {
          %a = affine.load %x[%b, %i, %k] : memref<2x8x16xf32>
          %w = affine.load %y[%k, %j] : memref<16x16xf32>
          %acc = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
          %p = arith.mulf %a, %w : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%b, %i, %j] : memref<2x8x16xf32>
        }
      }
    }
  }
  return
}

// -----

// A nest between the fill and the contraction that reads C (through a
// view): the fill stays, the accumulators start from C.
// CHECK-LABEL: func @fill_read_between
// CHECK:         affine.store %{{.*}}, %[[C:.*]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x8x16xf32>
// CHECK:         affine.vector_load %[[C]]
// CHECK:         fill_folded = false
func.func @fill_read_between(%x: memref<2x8x16xf32>, %y: memref<16x16xf32>, %c: memref<2x8x16xf32>, %o: memref<16xf32>) {
  %v = arith.constant 0.0 : f32
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        affine.store %v, %c[%b, %i, %j] : memref<2x8x16xf32>
      }
    }
  }
  %row = memref.subview %c[0, 0, 0] [1, 1, 16] [1, 1, 1] : memref<2x8x16xf32> to memref<16xf32, strided<[1]>>
  affine.for %j = 0 to 16 {
    %e = affine.load %row[%j] : memref<16xf32, strided<[1]>>
    affine.store %e, %o[%j] : memref<16xf32>
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 16 {
          %a = affine.load %x[%b, %i, %k] : memref<2x8x16xf32>
          %w = affine.load %y[%k, %j] : memref<16x16xf32>
          %acc = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
          %p = arith.mulf %a, %w : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%b, %i, %j] : memref<2x8x16xf32>
        }
      }
    }
  }
  return
}

// -----

// The contraction writes half of C (rows 0 to 4 of 8): the other half keeps
// the fill's value, so the fill stays.
// CHECK-LABEL: func @partial_cover_keeps_fill
// CHECK:         affine.store %{{.*}}, %[[C:.*]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x8x16xf32>
// CHECK:         affine.vector_load %[[C]]
// CHECK:         fill_folded = false
func.func @partial_cover_keeps_fill(%x: memref<2x8x16xf32>, %y: memref<16x16xf32>, %c: memref<2x8x16xf32>) {
  %v = arith.constant 0.0 : f32
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        affine.store %v, %c[%b, %i, %j] : memref<2x8x16xf32>
      }
    }
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 4 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 16 {
          %a = affine.load %x[%b, %i, %k] : memref<2x8x16xf32>
          %w = affine.load %y[%k, %j] : memref<16x16xf32>
          %acc = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
          %p = arith.mulf %a, %w : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%b, %i, %j] : memref<2x8x16xf32>
        }
      }
    }
  }
  return
}
