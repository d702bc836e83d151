// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction=max-rows=4 | FileCheck %s --check-prefix=ROWS4
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction=threads=2 | FileCheck %s --check-prefix=THREADS2

// With 2 threads, 2 blocks of 512 columns: each task reads 2 KiB runs of
// each row of %b instead of 512 bytes (the accumulator, 2 KiB, still fits
// half of L1).
// THREADS2-LABEL: func @matvec
// THREADS2:         affine.for %{{.*}} = 0 to 2 {
// THREADS2-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<1x512xf32>

// A matrix-vector product (1 x 1024 times 1024 x 1024): blocks of 128
// columns (8 of them), each accumulated in a buffer of its own while the
// rows of %b stream through.
// CHECK-DAG:   #[[LB:.*]] = affine_map<(d0) -> (d0 * 128)>
// CHECK-DAG:   #[[UB:.*]] = affine_map<(d0) -> (d0 * 128 + 128)>
// CHECK-LABEL: func @matvec
// CHECK-SAME:    (%[[A:.*]]: memref<1x1024xf32>, %[[B:.*]]: memref<1024x1024xf32>, %[[C:.*]]: memref<1x1024xf32>)
// CHECK:         affine.for %[[BLK:.*]] = 0 to 8 {
// CHECK-NEXT:      %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK-NEXT:      affine.for %[[I0:.*]] = 0 to 1 {
// CHECK-NEXT:        affine.for %[[J0:.*]] = 0 to 128 {
// CHECK-NEXT:          %[[V:.*]] = affine.load %[[C]][%[[I0]], %[[BLK]] * 128 + %[[J0]]]
// CHECK-NEXT:          affine.store %[[V]], %[[ACC]][%[[I0]], %[[J0]]]
// CHECK:           affine.for %[[K:.*]] = 0 to 1024 {
// CHECK-NEXT:        affine.for %[[I:.*]] = 0 to 1 {
// CHECK-NEXT:          affine.for %[[J:.*]] = #[[LB]](%[[BLK]]) to #[[UB]](%[[BLK]]) {
// CHECK-DAG:             affine.load %[[A]][%[[I]], %[[K]]]
// CHECK-DAG:             affine.load %[[B]][%[[K]], %[[J]]]
// CHECK-DAG:             affine.load %[[ACC]][%[[I]], %[[J]] - %[[BLK]] * 128]
// CHECK:                 affine.store %{{.*}}, %[[ACC]][%[[I]], %[[J]] - %[[BLK]] * 128]
// CHECK:           affine.for
// CHECK-NEXT:        affine.for
// CHECK-NEXT:          affine.load %[[ACC]]
// CHECK-NEXT:          affine.store %{{.*}}, %[[C]]
// CHECK:           memref.dealloc %[[ACC]]
// CHECK-NOT:     affine.for
// ROWS4-LABEL: func @matvec
// ROWS4:         memref<1x128xf32>
func.func @matvec(%a: memref<1x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1x1024xf32>) {
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 1024 {
      affine.for %j = 0 to 1024 {
        %x = affine.load %a[%i, %k] : memref<1x1024xf32>
        %y = affine.load %b[%k, %j] : memref<1024x1024xf32>
        %o = affine.load %c[%i, %j] : memref<1x1024xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x1024xf32>
      }
    }
  }
  return
}

// -----

// Four rows: left to the register-tiled micro-kernel unless max-rows allows
// them.
// CHECK-LABEL: func @four_rows
// CHECK-NOT:     memref.alloc
// ROWS4-LABEL: func @four_rows
// ROWS4:         memref.alloc() {alignment = 64 : i64} : memref<4x128xf32>
func.func @four_rows(%a: memref<4x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<4x1024xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 1024 {
      affine.for %j = 0 to 1024 {
        %x = affine.load %a[%i, %k] : memref<4x1024xf32>
        %y = affine.load %b[%k, %j] : memref<1024x1024xf32>
        %o = affine.load %c[%i, %j] : memref<4x1024xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<4x1024xf32>
      }
    }
  }
  return
}

// -----

// Too few columns for 8 blocks of whole vectors: left alone.
// CHECK-LABEL: func @narrow
// CHECK-NOT:     memref.alloc
func.func @narrow(%a: memref<1x64xf32>, %b: memref<64x32xf32>, %c: memref<1x32xf32>) {
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<1x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x32xf32>
        %o = affine.load %c[%i, %j] : memref<1x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x32xf32>
      }
    }
  }
  return
}
