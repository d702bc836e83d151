// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction | FileCheck %s

// The machine model's L1 (48 KiB, 12 ways, 64-byte lines: 64 sets) bounds
// the rows of a tile whose row factor is read in place: rows of A 1024
// floats (4 KiB) apart all fall into one set, so at most 10 of them (the
// ways less two) per tile: 28 rows in tiles of at most 10, as even as can be
// (two whole tiles of 10, then one of the 8 left over).
// CHECK-LABEL: func.func @rows_4k_apart
// CHECK:         affine.for %{{.*}} = 0 to 20 step 10
// CHECK:         pass = "pb-register-tile-contraction", rows = 10 : i64
// CHECK-SAME:    at most 10 rows per tile, not 14: the row factor's rows, 4096 bytes apart, would share the L1's sets beyond their ways
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 48 : i64, l1_ways = 12 : i64}} {
  func.func @rows_4k_apart(%a: memref<28x1024xf32>, %b: memref<1024x64xf32>, %c: memref<28x64xf32>) {
    affine.for %i = 0 to 28 {
      affine.for %k = 0 to 1024 {
        affine.for %j = 0 to 64 {
          %x = affine.load %a[%i, %k] : memref<28x1024xf32>
          %y = affine.load %b[%k, %j] : memref<1024x64xf32>
          %acc = affine.load %c[%i, %j] : memref<28x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<28x64xf32>
        }
      }
    }
    return
  }
}

// -----

// Rows 1040 floats apart spread over the sets: tiles of 14.
// CHECK-LABEL: func.func @rows_spread
// CHECK:         affine.for %{{.*}} = 0 to 28 step 14
// CHECK:         pass = "pb-register-tile-contraction", rows = 14 : i64
// CHECK-NOT:     at most
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 48 : i64, l1_ways = 12 : i64}} {
  func.func @rows_spread(%a: memref<28x1040xf32>, %b: memref<1040x64xf32>, %c: memref<28x64xf32>) {
    affine.for %i = 0 to 28 {
      affine.for %k = 0 to 1040 {
        affine.for %j = 0 to 64 {
          %x = affine.load %a[%i, %k] : memref<28x1040xf32>
          %y = affine.load %b[%k, %j] : memref<1040x64xf32>
          %acc = affine.load %c[%i, %j] : memref<28x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<28x64xf32>
        }
      }
    }
    return
  }
}
