// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 k-block=256" | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=2 lanes=8 k-block=16" | FileCheck %s --check-prefix=SMALL
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=6 lanes=16 k-block=256" | FileCheck %s --check-prefix=SIX
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=6 lanes=16 k-block=256 cache-kib=4" | FileCheck %s --check-prefix=PACKX
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=6 lanes=32 k-block=256 cache-kib=4" | FileCheck %s --check-prefix=NARROW

// A matmul in (i, k, j) order becomes k blocks of packed panels and a
// 4x16 micro-kernel whose accumulators stay in registers across a block.
// Each column tile packs its panel into a KC x NR buffer on the stack.
// CHECK-LABEL: func @matmul_becomes_micro_kernel
// CHECK-SAME:    (%[[A:.*]]: memref<8x64xf32>, %[[B:.*]]: memref<64x32xf32>, %[[C:.*]]: memref<8x32xf32>)
// CHECK-NOT:     memref.alloc()
// CHECK:         affine.for %[[KT:.*]] = 0 to 64 step 64 {
// CHECK:           affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:             %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64x16xf32>
// CHECK:             affine.for %[[KK:.*]] = #{{.*}}(%[[KT]]) to #{{.*}}(%[[KT]]) {
// CHECK:               %[[ROW:.*]] = affine.vector_load %[[B]][%[[KK]], %[[JT]]] : memref<64x32xf32>, vector<16xf32>
// CHECK:               affine.vector_store %[[ROW]], %[[PACK]][%[[KK]] - %[[KT]], 0]
// CHECK:             affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK-COUNT-4:       affine.vector_load %[[C]]
// CHECK:               %[[ACC:.*]]:4 = affine.for %[[K:.*]] = #{{.*}}(%[[KT]]) to #{{.*}}(%[[KT]]) iter_args
// CHECK:                 %[[P:.*]] = affine.vector_load %[[PACK]][%[[K]] - %[[KT]], 0]
// CHECK:                 %[[X:.*]] = affine.load %[[A]][%[[IT]], %[[K]]]
// CHECK:                 %[[S:.*]] = vector.broadcast %[[X]] : f32 to vector<16xf32>
// CHECK:                 vector.fma %[[S]], %[[P]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-3:         vector.fma
// CHECK:                 affine.yield
// CHECK:               affine.vector_store %[[ACC]]#0, %[[C]][%[[IT]], %[[JT]]]
// CHECK-NOT:     memref.dealloc
// CHECK-NOT:     arith.mulf
// A smaller tile and k block from the options.
// SMALL-LABEL: func @matmul_becomes_micro_kernel
// SMALL:         affine.for %{{.*}} = 0 to 64 step 16 {
// SMALL:           affine.for %{{.*}} = 0 to 32 step 8 {
// SMALL:             memref.alloca() {alignment = 64 : i64} : memref<16x8xf32>
// SMALL:             affine.for %{{.*}} = 0 to 8 step 2 {
// SMALL-COUNT-2:       vector.fma {{.*}} : vector<8xf32>
func.func @matmul_becomes_micro_kernel(%a: memref<8x64xf32>, %b: memref<64x32xf32>, %c: memref<8x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  return
}

// -----

// Columns no multiple of the tile's 16: of the widths that divide N (4 and
// 20), the one with the most multiply-add lanes per cycle (chooseTileColumns)
// on the default machine's 8-lane vectors: one tile of 20 columns, held in
// vectors of 8, 8 and 4 (each read from the panel and stored to C at its
// column), 3 rows (the 4 the registers hold, as even as possible over 6);
// 18 columns, no multiple of 4, are left alone.
// CHECK-LABEL: func @ragged_columns
// CHECK:         affine.for %[[JT:.*]] = 0 to 20 step 20 {
// CHECK:           affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, 16] : memref<64x20xf32>, vector<4xf32>
// CHECK:           affine.for %[[IT:.*]] = 0 to 6 step 3 {
// CHECK:             affine.for
// CHECK-DAG:           affine.vector_load %{{.*}}[%{{.*}}, 0] : memref<64x20xf32>, vector<8xf32>
// CHECK-DAG:           affine.vector_load %{{.*}}[%{{.*}}, 8] : memref<64x20xf32>, vector<8xf32>
// CHECK-DAG:           affine.vector_load %{{.*}}[%{{.*}}, 16] : memref<64x20xf32>, vector<4xf32>
// CHECK-COUNT-2:       vector.fma {{.*}} : vector<8xf32>
// CHECK-NEXT:          vector.broadcast
// CHECK-NEXT:          vector.fma {{.*}} : vector<4xf32>
// CHECK-COUNT-6:     vector.fma
// CHECK-NOT:         vector.fma
// CHECK:             affine.yield
// CHECK:           affine.vector_store %{{.*}}, %{{.*}}[%[[IT]] + 2, %[[JT]] + 8] : memref<6x20xf32>, vector<8xf32>
// CHECK-NEXT:      affine.vector_store %{{.*}}, %{{.*}}[%[[IT]] + 2, %[[JT]] + 16] : memref<6x20xf32>, vector<4xf32>
// CHECK:         summary = "register tile 3 x 20 of f32 (2 tiles of 3 rows; vector<8xf32> + vector<8xf32> + vector<4xf32> accumulators per row)
// CHECK-LABEL: func @ragged_shape_is_left_alone
// CHECK-NOT:     vector.fma
// CHECK:         arith.mulf
func.func @ragged_columns(%a: memref<6x64xf32>, %b: memref<64x20xf32>, %c: memref<6x20xf32>) {
  affine.for %i = 0 to 6 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 20 {
        %x = affine.load %a[%i, %k] : memref<6x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x20xf32>
        %z = affine.load %c[%i, %j] : memref<6x20xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<6x20xf32>
      }
    }
  }
  return
}
func.func @ragged_shape_is_left_alone(%a: memref<6x64xf32>, %b: memref<64x18xf32>, %c: memref<6x18xf32>) {
  affine.for %i = 0 to 6 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 18 {
        %x = affine.load %a[%i, %k] : memref<6x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x18xf32>
        %z = affine.load %c[%i, %j] : memref<6x18xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<6x18xf32>
      }
    }
  }
  return
}

// -----

// A loop order where the accumulator moves with k is not a contraction of
// this shape: nothing changes.
// CHECK-LABEL: func @accumulator_moving_with_k_is_left_alone
// CHECK-NOT:     vector.fma
func.func @accumulator_moving_with_k_is_left_alone(%a: memref<8x64xf32>, %b: memref<64x32xf32>, %c: memref<64x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x32xf32>
        %z = affine.load %c[%k, %j] : memref<64x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%k, %j] : memref<64x32xf32>
      }
    }
  }
  return
}

// -----

// An extra operation in the body (a ReLU) is not a plain multiply-add.
// CHECK-LABEL: func @extra_body_op_is_left_alone
// CHECK-NOT:     vector.fma
func.func @extra_body_op_is_left_alone(%a: memref<8x64xf32>, %b: memref<64x32xf32>, %c: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        %r = arith.maximumf %s, %zero : f32
        affine.store %r, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  return
}

// -----

// A convolution (n, oh, ow, kh, kw, c, f): n and oh stay around the row
// loop ow, the three reduction loops become one packed block (kh, kw, c
// linearized), packed once before the nest.
// CHECK-LABEL: func @convolution_becomes_micro_kernel
// CHECK-SAME:    (%[[I:.*]]: memref<2x10x10x16xf32>, %[[W:.*]]: memref<3x3x16x32xf32>, %[[O:.*]]: memref<2x8x8x32xf32>)
// CHECK:         %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x144x16xf32>
// CHECK:         affine.for %[[JP:.*]] = 0 to 32 step 16 {
// CHECK:           affine.for %[[KH:.*]] = 0 to 3 {
// CHECK:             affine.for %[[KW:.*]] = 0 to 3 {
// CHECK:               affine.for %[[C:.*]] = 0 to 16 {
// CHECK:                 %[[ROW:.*]] = affine.vector_load %[[W]][%[[KH]], %[[KW]], %[[C]], %[[JP]]]
// CHECK:                 affine.vector_store %[[ROW]], %[[PACK]][%[[JP]] floordiv 16, (%[[KH]] * 3 + %[[KW]]) * 16 + %[[C]], 0]
// CHECK:         affine.for %[[N:.*]] = 0 to 2 {
// CHECK:           affine.for %[[OH:.*]] = 0 to 8 {
// CHECK:             affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:               affine.for %[[OW:.*]] = 0 to 8 step 4 {
// CHECK-COUNT-4:         affine.vector_load %[[O]]
// CHECK:                 affine.for {{.*}} = 0 to 3 iter_args
// CHECK:                   affine.for {{.*}} = 0 to 3 iter_args
// CHECK:                     affine.for {{.*}} = 0 to 16 iter_args
// CHECK-COUNT-4:               vector.fma
// CHECK-COUNT-4:         affine.vector_store %{{.*}}, %[[O]]
// CHECK:         memref.dealloc %[[PACK]]
func.func @convolution_becomes_micro_kernel(%in: memref<2x10x10x16xf32>, %w: memref<3x3x16x32xf32>, %out: memref<2x8x8x32xf32>) {
  affine.for %n = 0 to 2 {
    affine.for %oh = 0 to 8 {
      affine.for %ow = 0 to 8 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 16 {
              affine.for %f = 0 to 32 {
                %x = affine.load %in[%n, %oh + %kh, %ow + %kw, %c] : memref<2x10x10x16xf32>
                %y = affine.load %w[%kh, %kw, %c, %f] : memref<3x3x16x32xf32>
                %z = affine.load %out[%n, %oh, %ow, %f] : memref<2x8x8x32xf32>
                %m = arith.mulf %x, %y : f32
                %s = arith.addf %z, %m : f32
                affine.store %s, %out[%n, %oh, %ow, %f] : memref<2x8x8x32xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}

// -----

// 10 rows with rows=4: as few tiles as 4 rows allow (3), as even as possible:
// two tiles of 4, then one tile of the 2 rows left over, after the loop.
// CHECK-LABEL: func @rows_left_over_form_one_tile
// CHECK-SAME:    (%[[A:.*]]: memref<10x32xf32>, %{{.*}}: memref<32x16xf32>, %[[C:.*]]: memref<10x16xf32>)
// CHECK:         affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK-COUNT-4:   vector.fma
// CHECK-NOT:       vector.fma
// CHECK:         }
// CHECK:         %[[R8:.*]] = arith.constant 8 : index
// CHECK:         affine.vector_load %[[C]][%[[R8]], %{{.*}}]
// CHECK:         %[[R9:.*]] = arith.constant 9 : index
// CHECK:         affine.vector_load %[[C]][%[[R9]], %{{.*}}]
// CHECK:         affine.for
// CHECK:           affine.load %[[A]][%[[R8]], %{{.*}}]
// CHECK:           affine.load %[[A]][%[[R9]], %{{.*}}]
// CHECK-COUNT-2:   vector.fma
// CHECK-NOT:       vector.fma
// CHECK:         affine.vector_store %{{.*}}, %[[C]][%[[R8]], %{{.*}}]
// CHECK:         affine.vector_store %{{.*}}, %[[C]][%[[R9]], %{{.*}}]
// With rows=6: two tiles of 5, nothing left over.
// SIX-LABEL: func @rows_left_over_form_one_tile
// SIX:         affine.for %{{.*}} = 0 to 10 step 5 {
// SIX-COUNT-5:   vector.fma
// SIX-NOT:       vector.fma
// SIX:         return
func.func @rows_left_over_form_one_tile(%a: memref<10x32xf32>, %b: memref<32x16xf32>, %c: memref<10x16xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<10x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x16xf32>
        %z = affine.load %c[%i, %j] : memref<10x16xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<10x16xf32>
      }
    }
  }
  return
}

// -----

// f64 tiles are half as many elements wide as `lanes` (f32 elements): the
// same registers.
// CHECK-LABEL: func @f64_tile_is_half_as_wide
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<16x8xf64>
// CHECK-COUNT-4: vector.fma {{.*}} : vector<8xf64>
func.func @f64_tile_is_half_as_wide(%a: memref<4x16xf64>, %b: memref<16x16xf64>, %c: memref<4x16xf64>) {
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<4x16xf64>
        %y = affine.load %b[%k, %j] : memref<16x16xf64>
        %z = affine.load %c[%i, %j] : memref<4x16xf64>
        %m = arith.mulf %x, %y : f64
        %s = arith.addf %z, %m : f64
        affine.store %s, %c[%i, %j] : memref<4x16xf64>
      }
    }
  }
  return
}

// -----

// A row factor whose k block (32 rows x 64 k x 4 bytes = 8 KiB) outgrows the
// cache (cache-kib=4) and that 4 column tiles read is packed once per k
// block, before the column tiles, into slivers of MR rows stored k-major;
// the micro-kernel broadcasts from the sliver. The 2 rows left over (MR = 6:
// 5 tiles of 6, then 2) read it in place. With the default cache size, or
// with fewer column tiles, it is read in place.
// PACKX-LABEL: func @large_row_factor_is_packed
// PACKX-SAME:    (%[[A:.*]]: memref<32x64xf32>, %{{.*}}: memref<64x64xf32>, %{{.*}}: memref<32x64xf32>)
// PACKX:         %[[XP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5x64x6xf32>
// PACKX:         affine.for %[[KT:.*]] = 0 to 64 step 64 {
// PACKX:           affine.for %[[IT:.*]] = 0 to 30 step 6 {
// PACKX:             affine.for %[[K:.*]] = #{{.*}}(%[[KT]]) to #{{.*}}(%[[KT]]) {
// PACKX:               %[[V0:.*]] = affine.load %[[A]][%[[IT]], %[[K]]]
// PACKX:               affine.store %[[V0]], %[[XP]][%[[IT]] floordiv 6, %[[K]] - %[[KT]], 0]
// PACKX:               affine.store %{{.*}}, %[[XP]][%[[IT]] floordiv 6, %[[K]] - %[[KT]], 4]
// PACKX:               %[[R5:.*]] = affine.apply #{{.*}}(%[[IT]])
// PACKX:               %[[V5:.*]] = affine.load %[[A]][%[[R5]], %[[K]]]
// PACKX:               affine.store %[[V5]], %[[XP]][%[[IT]] floordiv 6, %[[K]] - %[[KT]], 5]
// PACKX:           affine.for %[[JT:.*]] = 0 to 64 step 16 {
// PACKX:             affine.for %[[I:.*]] = 0 to 30 step 6 {
// PACKX:               affine.for %[[KK:.*]] = #{{.*}}(%[[KT]]) to #{{.*}}(%[[KT]]) iter_args
// PACKX:                 affine.load %[[XP]][%[[I]] floordiv 6, %[[KK]] - %[[KT]], 0]
// PACKX:                 affine.load %[[XP]][%[[I]] floordiv 6, %[[KK]] - %[[KT]], 5]
// PACKX-COUNT-6:         vector.fma
// PACKX:             affine.for
// PACKX:               affine.load %[[A]][%{{.*}}, %{{.*}}]
// PACKX:         memref.dealloc %[[XP]]
// CHECK-LABEL: func @large_row_factor_is_packed
// CHECK-NOT:     memref.alloc()
// NARROW-LABEL: func @large_row_factor_is_packed
// NARROW-NOT:     memref.alloc()
func.func @large_row_factor_is_packed(%a: memref<32x64xf32>, %b: memref<64x64xf32>, %c: memref<32x64xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<32x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x64xf32>
        %z = affine.load %c[%i, %j] : memref<32x64xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<32x64xf32>
      }
    }
  }
  return
}
