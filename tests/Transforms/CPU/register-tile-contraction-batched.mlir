// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16" | FileCheck %s

// A batched matmul whose column factor moves with the batch (attention's
// K^T and V, one per head): each batch packs its own panels, at the start
// of the batch's iteration, into a buffer on the stack of the thread that
// computes it, then its register tiles read them.
// CHECK-LABEL: func @batched_panels
// CHECK:         affine.for %[[B:.*]] = 0 to 3 {
// CHECK-NEXT:      %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x16x16xf32>
// CHECK-NEXT:      affine.for %[[PJ:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:        affine.for %[[PK:.*]] = 0 to 16 {
// CHECK-NEXT:          %[[ROW:.*]] = affine.vector_load %{{.*}}[%[[B]], %[[PK]], %[[PJ]]] : memref<3x16x32xf32>, vector<16xf32>
// CHECK-NEXT:          affine.vector_store %[[ROW]], %[[PACK]][%[[PJ]] floordiv 16, %[[PK]], 0]
// CHECK:           affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK:               affine.for %[[K:.*]] = 0 to 16 iter_args(
// CHECK:                 affine.vector_load %[[PACK]][%[[JT]] floordiv 16, %[[K]], 0] : memref<2x16x16xf32>, vector<16xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         pb.decisions = [{columns = 16 : i64, columns_outside = false, fill_folded = false, k_block = 16 : i64{{.*}}packed_at_compile_time = false
// CHECK-SAME:      per batch, by the thread of the batch
func.func @batched_panels(%x: memref<3x8x16xf32>, %w: memref<3x16x32xf32>, %y: memref<3x8x32xf32>) {
  affine.for %b = 0 to 3 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 32 {
          %a = affine.load %x[%b, %i, %k] : memref<3x8x16xf32>
          %v = affine.load %w[%b, %k, %j] : memref<3x16x32xf32>
          %c = affine.load %y[%b, %i, %j] : memref<3x8x32xf32>
          %p = arith.mulf %a, %v : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %y[%b, %i, %j] : memref<3x8x32xf32>
        }
      }
    }
  }
  return
}

// -----

// Panels larger than 256 KiB a batch (here 512 x 160 f32, 320 KiB) go on
// the heap, freed at the end of the batch's iteration; the loop inside the
// batch that the panels do not move with (a second batch dimension the
// column factor broadcasts along) stays inside the packing.
// CHECK-LABEL: func @heap_panels
// CHECK:         affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:      %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<10x512x16xf32>
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 160 step 16 {
// CHECK:           affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 160 step 16 {
// CHECK:           memref.dealloc %[[PACK]]
// CHECK-NEXT:    }
func.func @heap_panels(%x: memref<2x3x4x512xf32>, %w: memref<2x512x160xf32>, %y: memref<2x3x4x160xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %h = 0 to 3 {
      affine.for %i = 0 to 4 {
        affine.for %k = 0 to 512 {
          affine.for %j = 0 to 160 {
            %a = affine.load %x[%b, %h, %i, %k] : memref<2x3x4x512xf32>
            %v = affine.load %w[%b, %k, %j] : memref<2x512x160xf32>
            %c = affine.load %y[%b, %h, %i, %j] : memref<2x3x4x160xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %h, %i, %j] : memref<2x3x4x160xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A column factor that moves with an outer loop inside one it does not
// move with is no batch: the nest is left alone.
// CHECK-LABEL: func @inner_batch
// CHECK-NOT:     vector.fma
// CHECK-NOT:     pb.decisions
func.func @inner_batch(%x: memref<2x3x4x16xf32>, %w: memref<3x16x16xf32>, %y: memref<2x3x4x16xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %h = 0 to 3 {
      affine.for %i = 0 to 4 {
        affine.for %k = 0 to 16 {
          affine.for %j = 0 to 16 {
            %a = affine.load %x[%b, %h, %i, %k] : memref<2x3x4x16xf32>
            %v = affine.load %w[%h, %k, %j] : memref<3x16x16xf32>
            %c = affine.load %y[%b, %h, %i, %j] : memref<2x3x4x16xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %h, %i, %j] : memref<2x3x4x16xf32>
          }
        }
      }
    }
  }
  return
}
