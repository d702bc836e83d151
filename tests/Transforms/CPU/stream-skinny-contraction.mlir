// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="max-rows=1 cache-kib=32 threads=8" | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="max-rows=4 cache-kib=32 threads=8" | FileCheck %s --check-prefix=ROWS4
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="max-rows=1 cache-kib=32 threads=2" | FileCheck %s --check-prefix=THREADS2
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="max-rows=1 cache-kib=32 threads=8 k-unroll=4" | FileCheck %s --check-prefix=UNROLL4
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="cache-kib=32 threads=2" | FileCheck %s --check-prefix=CONST
// RUN: pb-opt %s -split-input-file -pb-stream-skinny-contraction="max-rows-by-constant=8 cache-kib=32 threads=2" | FileCheck %s --check-prefix=CONST8

// With 2 threads, 2 blocks of 512 columns: each task reads 2 KiB runs of
// each row of %b instead of 512 bytes (the accumulator, 2 KiB, still fits
// half of L1).
// THREADS2-LABEL: func @matvec
// THREADS2:         affine.for %{{.*}} = 0 to 2 {
// THREADS2-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<1x512xf32>

// A matrix-vector product (1 x 1024 times 1024 x 1024): blocks of 128
// columns (8 of them), each accumulated in a buffer of its own while the
// rows of %b stream through, 8 rows at a time: the accumulator of one
// vector of columns stays in a register across them (LLVM is asked to
// unroll their loop).
// CHECK-DAG:   #[[LB:.*]] = affine_map<(d0) -> (d0 * 128)>
// CHECK-DAG:   #[[UB:.*]] = affine_map<(d0) -> (d0 * 128 + 128)>
// CHECK-DAG:   #[[KU:.*]] = affine_map<(d0) -> (d0 + 8)>
// CHECK-DAG:   #[[FULL:.*]] = #llvm.loop_unroll<full = true>
// CHECK-DAG:   #[[UNROLL:.*]] = #llvm.loop_annotation<unroll = #[[FULL]]>
// CHECK-LABEL: func @matvec
// CHECK-SAME:    (%[[A:.*]]: memref<1x1024xf32>, %[[B:.*]]: memref<1024x1024xf32>, %[[C:.*]]: memref<1x1024xf32>)
// CHECK:         affine.for %[[BLK:.*]] = 0 to 8 {
// CHECK-NEXT:      %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK-NEXT:      affine.for %[[I0:.*]] = 0 to 1 {
// CHECK-NEXT:        affine.for %[[J0:.*]] = 0 to 128 {
// CHECK-NEXT:          %[[V:.*]] = affine.load %[[C]][%[[I0]], %[[BLK]] * 128 + %[[J0]]]
// CHECK-NEXT:          affine.store %[[V]], %[[ACC]][%[[I0]], %[[J0]]]
// CHECK:           affine.for %[[KT:.*]] = 0 to 1024 step 8 {
// CHECK-NEXT:        affine.for %[[J:.*]] = #[[LB]](%[[BLK]]) to #[[UB]](%[[BLK]]) step 8 {
// CHECK-NEXT:          %[[R0:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[INIT:.*]] = affine.vector_load %[[ACC]][%[[R0]], %[[J]] - %[[BLK]] * 128] : memref<1x128xf32>, vector<8xf32>
// CHECK-NEXT:          %[[SUM:.*]] = affine.for %[[K:.*]] = #{{.*}}(%[[KT]]) to #[[KU]](%[[KT]]) iter_args(%[[S:.*]] = %[[INIT]]) -> (vector<8xf32>) {
// CHECK-NEXT:            %[[Y:.*]] = affine.vector_load %[[B]][%[[K]], %[[J]]] : memref<1024x1024xf32>, vector<8xf32>
// CHECK-NEXT:            %[[X:.*]] = affine.load %[[A]][%[[R0]], %[[K]]]
// CHECK-NEXT:            %[[XS:.*]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
// CHECK-NEXT:            %[[F:.*]] = vector.fma %[[XS]], %[[Y]], %[[S]] : vector<8xf32>
// CHECK-NEXT:            affine.yield %[[F]]
// CHECK-NEXT:          } {loop_annotation = #[[UNROLL]]}
// CHECK:               affine.vector_store %[[SUM]], %[[ACC]][%[[R0]], %[[J]] - %[[BLK]] * 128]
// The block goes back to C a vector at a time, each element stored once
// (pb-fuse-epilogues computes an elementwise nest after it there).
// CHECK:           affine.for %[[I1:.*]] = 0 to 1 {
// CHECK-NEXT:        affine.for %[[J1:.*]] = 0 to 128 step 8 {
// CHECK-NEXT:          %[[OUT:.*]] = affine.vector_load %[[ACC]][%[[I1]], %[[J1]]] : memref<1x128xf32>, vector<8xf32>
// CHECK-NEXT:          affine.vector_store %[[OUT]], %[[C]][%[[I1]], %[[BLK]] * 128 + %[[J1]]] : memref<1x1024xf32>, vector<8xf32>
// CHECK:           memref.dealloc %[[ACC]]
// CHECK-NOT:     affine.for
// CHECK:         stores_once = true
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
// ROWS4:         affine.for %{{.*}} = 0 to 1024 step 8 {
// ROWS4-COUNT-4:   affine.vector_load %{{.*}} : memref<4x128xf32>, vector<8xf32>
// ROWS4:           affine.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// ROWS4-NEXT:        affine.vector_load %{{.*}} : memref<1024x1024xf32>, vector<8xf32>
// ROWS4-COUNT-4:     vector.fma
// ROWS4-COUNT-4:   affine.vector_store %{{.*}} : memref<4x128xf32>, vector<8xf32>
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

// Too few columns for 8 blocks of whole vectors (fewer than a vector per
// thread): one block of all 32, its 4 vectors streamed as any block's.
// CHECK-LABEL: func @narrow
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK:         affine.for %{{.*}} = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) step 8 {
// CHECK:         block_columns = 32
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

// -----

// 300 rows of Y: the largest register block up to 8 rows that divides them
// is 6 (with k-unroll=4: 4).
// CHECK-LABEL: func @k_block_divides_rows
// CHECK:         affine.for %{{.*}} = 0 to 300 step 6 {
// UNROLL4-LABEL: func @k_block_divides_rows
// UNROLL4:       affine.for %{{.*}} = 0 to 300 step 4 {
func.func @k_block_divides_rows(%a: memref<1x300xf32>, %b: memref<300x1024xf32>, %c: memref<1x1024xf32>) {
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 300 {
      affine.for %j = 0 to 1024 {
        %x = affine.load %a[%i, %k] : memref<1x300xf32>
        %y = affine.load %b[%k, %j] : memref<300x1024xf32>
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

// 10 columns, no multiple of the 8 lanes: one block; its whole vector in
// the column loop, then the 2 columns left in a vector<2xf32> of their own
// (its accumulators in registers across the rows of Y like the others'),
// from column 8 of the block.
// CHECK-LABEL: func @ragged_columns
// CHECK:         %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x10xf32>
// CHECK:         affine.for %[[KT:.*]] = 0 to 64 step 8 {
// CHECK:           affine.for %[[JT:.*]] = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) step 8 {
// CHECK:             vector.fma {{.*}} : vector<8xf32>
// CHECK:           }
// CHECK:           %[[J8:.*]] = affine.apply #{{.*}}(%{{.*}})
// CHECK:           affine.vector_load %[[ACC]][%{{.*}}, %[[J8]] - %{{.*}} * 10] : memref<1x10xf32>, vector<2xf32>
// CHECK:           affine.for
// CHECK:             affine.vector_load %{{.*}}[%{{.*}}, %[[J8]]] : memref<64x10xf32>, vector<2xf32>
// CHECK:             vector.fma {{.*}} : vector<2xf32>
// CHECK:           affine.vector_store %{{.*}}, %[[ACC]][%{{.*}}, %[[J8]] - %{{.*}} * 10] : memref<1x10xf32>, vector<2xf32>
// Stored back in the same widths: the whole vector, then the 2 columns.
// CHECK:         affine.for %{{.*}} = 0 to 8 step 8 {
// CHECK:           affine.vector_store %{{.*}} : memref<1x10xf32>, vector<8xf32>
// CHECK:         }
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         affine.vector_load %[[ACC]][%{{.*}}, %[[C8]]] : memref<1x10xf32>, vector<2xf32>
// CHECK:         affine.vector_store %{{.*}}[%{{.*}}, %{{.*}} * 10 + %[[C8]]] : memref<1x10xf32>, vector<2xf32>
// CHECK:         block_columns = 10
func.func @ragged_columns(%a: memref<1x64xf32>, %b: memref<64x10xf32>, %c: memref<1x10xf32>) {
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 10 {
        %x = affine.load %a[%i, %k] : memref<1x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x10xf32>
        %o = affine.load %c[%i, %j] : memref<1x10xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x10xf32>
      }
    }
  }
  return
}

// -----

// 1000 columns (a classifier's): the blocks of whole vectors dividing it
// (200 columns, 40) come 5 or 25, no multiple of the threads; blocks as
// wide as the threads split N evenly instead, the last narrower: 504 + 496
// on 2 threads, 7 x 128 + 104 on 8. The loops over a block's columns end
// at column 1000.
// THREADS2-DAG:   #[[END:.*]] = affine_map<(d0) -> (504, d0 * -504 + 1000)>
// THREADS2-DAG:   #[[JEND:.*]] = affine_map<(d0) -> (d0 * 504 + 504, 1000)>
// THREADS2-LABEL: func @classifier
// THREADS2:         affine.for %[[BLK:.*]] = 0 to 2 {
// THREADS2-NEXT:      %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x504xf32>
// THREADS2-NEXT:      affine.for %{{.*}} = 0 to 1 {
// THREADS2-NEXT:        affine.for %{{.*}} = 0 to min #[[END]](%[[BLK]]) {
// THREADS2:           affine.for %{{.*}} = 0 to 64 step 8 {
// THREADS2-NEXT:        affine.for %{{.*}} = #{{.*}}(%[[BLK]]) to min #[[JEND]](%[[BLK]]) step 8 {
// THREADS2:             vector.fma {{.*}} : vector<8xf32>
// THREADS2:           affine.for %{{.*}} = 0 to 1 {
// THREADS2-NEXT:        affine.for %{{.*}} = 0 to min #[[END]](%[[BLK]]) step 8 {
// THREADS2-NEXT:          affine.vector_load %[[ACC]]
// THREADS2-NEXT:          affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, %[[BLK]] * 504 + %{{.*}}] : memref<1x1000xf32>, vector<8xf32>
// THREADS2:         block_columns = 504
// THREADS2-SAME:    2 blocks of 504 columns (the last 496)
// CHECK-LABEL: func @classifier
// CHECK:         affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK:         block_columns = 128
// CHECK-SAME:    8 blocks of 128 columns (the last 104)
func.func @classifier(%a: memref<1x64xf32>, %b: memref<64x1000xf32>, %c: memref<1x1000xf32>) {
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 1000 {
        %x = affine.load %a[%i, %k] : memref<1x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x1000xf32>
        %o = affine.load %c[%i, %j] : memref<1x1000xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x1000xf32>
      }
    }
  }
  return
}

// -----

// C filled with one value right before the product: the blocks start from
// that value (the fill's nest goes) and C is written once, by the copy-out.
// CHECK-LABEL: func @fill_folded
// CHECK-SAME:    (%{{.*}}: memref<1x64xf32>, %{{.*}}: memref<64x256xf32>, %[[C:.*]]: memref<1x256xf32>)
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK-NEXT:      affine.for %[[I:.*]] = 0 to 1 {
// CHECK-NEXT:        affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT:          affine.store %[[HALF]], %[[ACC]][%[[I]], %[[J]]]
// CHECK-NOT:     affine.load %[[C]]
// CHECK-NOT:     affine.store %{{.*}}, %[[C]]
// CHECK:         the blocks start from the value the nest before filled the result with (that nest removed)
func.func @fill_folded(%a: memref<1x64xf32>, %b: memref<64x256xf32>, %c: memref<1x256xf32>) {
  %half = arith.constant 0.5 : f32
  affine.for %i = 0 to 1 {
    affine.for %j = 0 to 256 {
      affine.store %half, %c[%i, %j] : memref<1x256xf32>
    }
  }
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 256 {
        %x = affine.load %a[%i, %k] : memref<1x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x256xf32>
        %o = affine.load %c[%i, %j] : memref<1x256xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x256xf32>
      }
    }
  }
  return
}

// -----

// C read between its fill and the product: the fill stays, the blocks
// start from C.
// CHECK-LABEL: func @fill_read_before
// CHECK:         affine.store %{{.*}}, %[[C:.*]][%{{.*}}, %{{.*}}] : memref<1x256xf32>
// CHECK:         affine.load %[[C]]
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x256xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK:         affine.load %[[C]]
// CHECK-NOT:     that nest removed
func.func @fill_read_before(%a: memref<1x64xf32>, %b: memref<64x256xf32>, %c: memref<1x256xf32>, %d: memref<1x256xf32>) {
  %half = arith.constant 0.5 : f32
  affine.for %i = 0 to 1 {
    affine.for %j = 0 to 256 {
      affine.store %half, %c[%i, %j] : memref<1x256xf32>
    }
  }
  affine.for %i = 0 to 1 {
    affine.for %j = 0 to 256 {
      %v = affine.load %c[%i, %j] : memref<1x256xf32>
      affine.store %v, %d[%i, %j] : memref<1x256xf32>
    }
  }
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 256 {
        %x = affine.load %a[%i, %k] : memref<1x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x256xf32>
        %o = affine.load %c[%i, %j] : memref<1x256xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x256xf32>
      }
    }
  }
  return
}

// -----

// A matmul of 8 rows by a constant (a layer's weights): left to
// pb-register-tile-contraction, which packs the constant's panels at
// compile time and tiles it 16 columns wide (two vectors per broadcast of
// X); with max-rows-by-constant=8 it is streamed like a matmul by an
// argument. One row by the same constant is streamed.
// CONST-LABEL: func @constant_eight_rows
// CONST-NOT:     memref.alloc
// CONST-NOT:     vector.fma
// CONST:         return
// CONST8-LABEL: func @constant_eight_rows
// CONST8:         memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
// CONST8-COUNT-8:   vector.fma
// CONST-LABEL: func @constant_one_row
// CONST:         memref.alloc() {alignment = 64 : i64} : memref<1x16xf32>
// CONST:         vector.fma
module {
  memref.global "private" constant @w : memref<4x32xf32> = dense<[[-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0], [3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0], [2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0], [1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0]]>
func.func @constant_eight_rows(%a: memref<8x4xf32>, %c: memref<8x32xf32>) {
  %b = memref.get_global @w : memref<4x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x32xf32>
        %o = affine.load %c[%i, %j] : memref<8x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  return
}
func.func @constant_one_row(%a: memref<1x4xf32>, %c: memref<1x32xf32>) {
  %b = memref.get_global @w : memref<4x32xf32>
  affine.for %i = 0 to 1 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<1x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x32xf32>
        %o = affine.load %c[%i, %j] : memref<1x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<1x32xf32>
      }
    }
  }
  return
}
}

// -----

// 8 rows by a constant of 56 columns: the register tiles would be one
// vector wide (no wider width divides 56), one broadcast per multiply-add
// as streamed: streamed, in blocks of 8 columns.
// CONST-LABEL: func @constant_one_vector_tiles
// CONST:         memref.alloc() {alignment = 64 : i64} : memref<8x8xf32>
// CONST-COUNT-8:   vector.fma
module {
  memref.global "private" constant @w56 : memref<4x56xf32> = dense<[[-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0], [-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0], [-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0], [-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0]]>
func.func @constant_one_vector_tiles(%a: memref<8x4xf32>, %c: memref<8x56xf32>) {
  %b = memref.get_global @w56 : memref<4x56xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 56 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x56xf32>
        %o = affine.load %c[%i, %j] : memref<8x56xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x56xf32>
      }
    }
  }
  return
}
}

// -----

// A splat constant's bytes are not at hand to pack: streamed.
// CONST-LABEL: func @splat_constant
// CONST:         memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
module {
  memref.global "private" constant @ones : memref<4x32xf32> = dense<1.0>
func.func @splat_constant(%a: memref<8x4xf32>, %c: memref<8x32xf32>) {
  %b = memref.get_global @ones : memref<4x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x32xf32>
        %o = affine.load %c[%i, %j] : memref<8x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  return
}
}
