// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="k-block=256" | FileCheck %s --check-prefix=KBLOCK

// A matmul by an argument (weights passed in, 1.5 MiB of them: more than
// L2 holds, so they come from L3 or memory) with few rows: k blocks as
// long as its panel and its row factor's block fit in L2 (the machine
// model's 1 MiB: 28 + 32 elements of 4 bytes per k, so the whole K = 768),
// and the first register tile of each column tile prefetches,
// at every k, the lines of the next column tile's panel row into L2 --
// from its first element, a line (16 elements) on, and its last element
// (a row not aligned to a line spans three) -- wrapping from the last
// column tile to the first. The other tiles read the packed panel alone.
// CHECK-LABEL: func @argument_weights
// CHECK-SAME:    (%[[A:.*]]: memref<28x768xf32>, %[[B:.*]]: memref<768x512xf32>
// CHECK:         affine.for %{{.*}} = 0 to 768 step 768 {
// CHECK:           affine.for %[[JT:.*]] = 0 to 512 step 32 {
// CHECK:             memref.alloca() {alignment = 64 : i64} : memref<768x32xf32>
// CHECK:             affine.for %[[K:.*]] =
// CHECK-NOT:           affine.prefetch
// CHECK:               affine.vector_store
// CHECK:             affine.for %[[K1:.*]] = {{.*}} iter_args
// CHECK:               affine.vector_load
// CHECK-NEXT:          affine.prefetch %[[B]][%[[K1]], %[[JT]] - ((%[[JT]] + 32) floordiv 512) * 512 + 32], read, locality<2>, data
// CHECK-NEXT:          affine.prefetch %[[B]][%[[K1]], %[[JT]] - ((%[[JT]] + 48) floordiv 512) * 512 + 48], read, locality<2>, data
// CHECK-NEXT:          affine.prefetch %[[B]][%[[K1]], %[[JT]] - ((%[[JT]] + 63) floordiv 512) * 512 + 63], read, locality<2>, data
// CHECK-NOT:           affine.prefetch
// CHECK-COUNT-14:      vector.fma
// CHECK:             affine.for %[[IT:.*]] = 14 to 28 step 14 {
// CHECK-NOT:           affine.prefetch
// CHECK:             } {pb.decisions = [{columns = 32 : i64, fill_folded = false, k_block = 768 : i64
// An explicit k block is kept (the largest divisor up to it).
// KBLOCK-LABEL: func @argument_weights
// KBLOCK:         affine.for %{{.*}} = 0 to 768 step 256 {
// KBLOCK:           memref.alloca() {alignment = 64 : i64} : memref<256x32xf32>
// KBLOCK-COUNT-3:   affine.prefetch
// KBLOCK-NOT:       affine.prefetch
// KBLOCK:         k_block = 256 : i64
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 32 : i64, l2_kib = 1024 : i64}} {
  func.func @argument_weights(%a: memref<28x768xf32>, %b: memref<768x512xf32>, %c: memref<28x512xf32>) {
    affine.for %i = 0 to 28 {
      affine.for %k = 0 to 768 {
        affine.for %j = 0 to 512 {
          %x = affine.load %a[%i, %k] : memref<28x768xf32>
          %y = affine.load %b[%k, %j] : memref<768x512xf32>
          %acc = affine.load %c[%i, %j] : memref<28x512xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<28x512xf32>
        }
      }
    }
    return
  }
}

// -----

// More rows, and a 512 KiB L2: the row factor's block would outgrow L2
// before the L1's k block (496 + 32 elements per k: 248 k), which is kept
// (256 fills the 32 KiB L1 with a 256 x 32 panel).
// CHECK-LABEL: func @many_rows
// CHECK:         affine.for %{{.*}} = 0 to 768 step 256 {
// CHECK:         k_block = 256 : i64
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 32 : i64, l2_kib = 512 : i64}} {
  func.func @many_rows(%a: memref<496x768xf32>, %b: memref<768x256xf32>, %c: memref<496x256xf32>) {
    affine.for %i = 0 to 496 {
      affine.for %k = 0 to 768 {
        affine.for %j = 0 to 256 {
          %x = affine.load %a[%i, %k] : memref<496x768xf32>
          %y = affine.load %b[%k, %j] : memref<768x256xf32>
          %acc = affine.load %c[%i, %j] : memref<496x256xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<496x256xf32>
        }
      }
    }
    return
  }
}

// -----

// One column tile: there is no next panel to prefetch.
// CHECK-LABEL: func @one_column_tile
// CHECK-NOT:     affine.prefetch
// CHECK:         return
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 32 : i64, l2_kib = 1024 : i64}} {
  func.func @one_column_tile(%a: memref<28x768xf32>, %b: memref<768x32xf32>, %c: memref<28x32xf32>) {
    affine.for %i = 0 to 28 {
      affine.for %k = 0 to 768 {
        affine.for %j = 0 to 32 {
          %x = affine.load %a[%i, %k] : memref<28x768xf32>
          %y = affine.load %b[%k, %j] : memref<768x32xf32>
          %acc = affine.load %c[%i, %j] : memref<28x32xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<28x32xf32>
        }
      }
    }
    return
  }
}
