// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction | FileCheck %s

// Without options, pb-register-tile-contraction takes its tile from the
// machine model of the module: two vectors of columns, the rows the other
// registers hold.

// An AVX-512 machine (32 registers of 512 bits): 14 x 32 tiles (28 rows:
// two tiles of 14).
// CHECK-LABEL: func.func @avx512_tile
// CHECK:         affine.for %{{.*}} = 0 to 28 step 14
// CHECK:           vector.fma {{.*}} : vector<32xf32>
// The choice is recorded on the nest, for --explain and the editor.
// CHECK:         } {pb.decisions = [{columns = 32 : i64, fill_folded = false, k_block = 64 : i64, pass = "pb-register-tile-contraction", rows = 14 : i64, rows_packed = false, stores_once = true, summary = "register tile 14 x 32 of f32 (2 tiles of 14 rows; vector<32xf32> accumulators), k blocks of 64
module attributes {pb.machine = {vector_bits = 512 : i64, vector_registers = 32 : i64, l1_kib = 48 : i64}} {
  func.func @avx512_tile(%a: memref<28x64xf32>, %b: memref<64x256xf32>, %c: memref<28x256xf32>) {
    affine.for %i = 0 to 28 {
      affine.for %k = 0 to 64 {
        affine.for %j = 0 to 256 {
          %x = affine.load %a[%i, %k] : memref<28x64xf32>
          %y = affine.load %b[%k, %j] : memref<64x256xf32>
          %acc = affine.load %c[%i, %j] : memref<28x256xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%i, %j] : memref<28x256xf32>
        }
      }
    }
    return
  }
}

// -----

// No model on the module: the default machine (AVX2, 16 registers): 6 x 16
// tiles (24 rows: four tiles of 6).
// CHECK-LABEL: func.func @default_tile
// CHECK:         affine.for %{{.*}} = 0 to 24 step 6
// CHECK:           vector.fma {{.*}} : vector<16xf32>
// CHECK:         } {pb.decisions = [{columns = 16 : i64, fill_folded = false, k_block = 64 : i64, pass = "pb-register-tile-contraction", rows = 6 : i64
func.func @default_tile(%a: memref<24x64xf32>, %b: memref<64x256xf32>, %c: memref<24x256xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 256 {
        %x = affine.load %a[%i, %k] : memref<24x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x256xf32>
        %acc = affine.load %c[%i, %j] : memref<24x256xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.store %s, %c[%i, %j] : memref<24x256xf32>
      }
    }
  }
  return
}
