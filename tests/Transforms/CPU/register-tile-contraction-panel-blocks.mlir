// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 panel-block-kib=4 partial-sums-kib=1" | FileCheck %s

// A matmul by a constant whose column tile's panel (256 x 16 f32, 16 KiB)
// outgrows panel-block-kib=4 takes each column tile's reduction in blocks of
// 64 (the largest divisor of 256 whose 64 x 16 block fits 4 KiB): every
// tile of the row block computes k in [0, 64) from C into its slot of a
// stack buffer, then [64, 192) in a loop of blocks from the slot and back,
// then [192, 256) from the slot into C, stored once. Its rows: 30, 7 tiles
// of 4, then 2; partial sums of 4 x 16 f32 (256 bytes) within 1 KiB: 4
// tiles per row block, 2 blocks (a multiple of the 2 threads), tiles [0, 3)
// and [3, 7); the slot of tile t in block b is t - b * 7 / 2. The 2 rows left
// over take the whole reduction, with the last block.
// CHECK-DAG:   #[[LB:.*]] = affine_map<(d0) -> ((d0 * 7) floordiv 2)>
// CHECK-DAG:   #[[UB:.*]] = affine_map<(d0) -> ((d0 * 7 + 7) floordiv 2)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG:   #[[SLOT:.*]] = affine_map<(d0, d1) -> (d0 - (d1 * 7) floordiv 2)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[PLUS64:.*]] = affine_map<(d0) -> (d0 + 64)>
// CHECK-LABEL: func @panel_blocks
// CHECK:         %[[PACK:.*]] = memref.alloc() {{.*}} : memref<1x256x16xf32>
// CHECK:         affine.for %[[IB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK-NEXT:        %[[SUMS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x4x16xf32>
// The first block: from C, into the slot.
// CHECK-NEXT:        affine.for %[[T:.*]] = #[[LB]](%[[IB]]) to #[[UB]](%[[IB]]) {
// CHECK-NEXT:          affine.apply #[[ROW]](%[[T]])
// CHECK-NEXT:          %[[S:.*]] = affine.apply #[[SLOT]](%[[T]], %[[IB]])
// CHECK-NEXT:          affine.vector_load %arg1[{{.*}}, %[[JT]]] : memref<30x16xf32>, vector<16xf32>
// CHECK:               affine.for %[[K:.*]] = 0 to 64 iter_args(
// CHECK-NEXT:            affine.vector_load %[[PACK]][%[[JT]] floordiv 16, %[[K]], 0]
// CHECK-COUNT-4:         vector.fma
// CHECK:               affine.vector_store %{{.*}}, %[[SUMS]][%[[S]], 0, 0]
// CHECK-COUNT-3:       affine.vector_store %{{.*}}, %[[SUMS]][%[[S]], {{[123]}}, 0]
// CHECK-NEXT:        }
// The middle blocks: from the slot, into it.
// CHECK-NEXT:        affine.for %[[KT:.*]] = 64 to 192 step 64 {
// CHECK-NEXT:          affine.for %[[T:.*]] = #[[LB]](%[[IB]]) to #[[UB]](%[[IB]]) {
// CHECK-NEXT:            affine.apply #[[ROW]](%[[T]])
// CHECK-NEXT:            %[[S:.*]] = affine.apply #[[SLOT]](%[[T]], %[[IB]])
// CHECK-NEXT:            affine.vector_load %[[SUMS]][%[[S]], 0, 0]
// CHECK:                 affine.for %[[K:.*]] = #[[ID]](%[[KT]]) to #[[PLUS64]](%[[KT]]) iter_args(
// CHECK-NEXT:              affine.vector_load %[[PACK]][%[[JT]] floordiv 16, %[[K]], 0]
// CHECK:                 affine.vector_store %{{.*}}, %[[SUMS]][%[[S]], 0, 0]
// The last block: from the slot into C, once.
// CHECK:             affine.for %[[T:.*]] = #[[LB]](%[[IB]]) to #[[UB]](%[[IB]]) {
// CHECK-NEXT:          affine.apply #[[ROW]](%[[T]])
// CHECK-NEXT:          %[[S:.*]] = affine.apply #[[SLOT]](%[[T]], %[[IB]])
// CHECK-NEXT:          affine.vector_load %[[SUMS]][%[[S]], 0, 0]
// CHECK:               affine.for %{{.*}} = 192 to 256 iter_args(
// CHECK:               affine.vector_store %{{.*}}, %arg1[{{.*}}, %[[JT]]] : memref<30x16xf32>, vector<16xf32>
// CHECK-NOT:           %[[SUMS]]
// CHECK:             affine.if
// CHECK:               affine.for %{{.*}} = 0 to 256 iter_args(
// CHECK:         } {pb.decisions = [{{{.*}}k_block = 256 : i64{{.*}}row_blocks = 2 : i64{{.*}}stores_once = true, summary = "{{.*}}each column tile's reduction (256 iterations) in blocks of 64 {{.*}}; the 7 row tiles in 2 blocks (a block's partial sums within 1 KiB{{.*}}", tile_k_block = 64 : i64}]}
module attributes {pb.machine = {threads = 2 : i64}} {
memref.global "private" constant @ones : memref<256x16xf32> = dense<1.0>
func.func @panel_blocks(%x: memref<30x256xf32>, %y: memref<30x16xf32>) {
  %w = memref.get_global @ones : memref<256x16xf32>
  affine.for %i = 0 to 30 {
    affine.for %k = 0 to 256 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<30x256xf32>
        %b = affine.load %w[%k, %j] : memref<256x16xf32>
        %c = affine.load %y[%i, %j] : memref<30x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<30x16xf32>
      }
    }
  }
  return
}
}

// -----

// Two blocks (128 = 2 x 64): no loop of middle blocks. 8 rows, two tiles,
// one row block: no loop over blocks, the tiles' slots their numbers. A
// panel within the block (64 x 16: 4 KiB) keeps the whole reduction.
// CHECK-LABEL: func @two_blocks
// CHECK:         affine.vector_store %{{.*}}, %alloc[
// CHECK:         affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK-NEXT:      %[[SUMS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4x16xf32>
// CHECK-NEXT:      affine.for %[[T:.*]] = 0 to 2 {
// CHECK:             affine.for %{{.*}} = 0 to 64 iter_args(
// CHECK:             affine.vector_store %{{.*}}, %[[SUMS]][%[[T]], 0, 0]
// CHECK:           affine.for %[[T:.*]] = 0 to 2 {
// CHECK:             affine.vector_load %[[SUMS]][%[[T]], 0, 0]
// CHECK:             affine.for %{{.*}} = 64 to 128 iter_args(
// CHECK:             affine.vector_store %{{.*}}, %arg1[
// CHECK-NOT:     affine.if
// CHECK:         tile_k_block = 64 : i64
// CHECK-LABEL: func @panel_within_block
// CHECK-NOT:     memref.alloca
// CHECK:         tile_k_block = 0 : i64
module attributes {pb.machine = {threads = 2 : i64}} {
memref.global "private" constant @twos : memref<128x16xf32> = dense<2.0>
memref.global "private" constant @threes : memref<64x16xf32> = dense<3.0>
func.func @two_blocks(%x: memref<8x128xf32>, %y: memref<8x16xf32>) {
  %w = memref.get_global @twos : memref<128x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 128 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<8x128xf32>
        %b = affine.load %w[%k, %j] : memref<128x16xf32>
        %c = affine.load %y[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return
}
func.func @panel_within_block(%x: memref<8x64xf32>, %y: memref<8x16xf32>) {
  %w = memref.get_global @threes : memref<64x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<8x64xf32>
        %b = affine.load %w[%k, %j] : memref<64x16xf32>
        %c = affine.load %y[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return
}
}
