// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 k-block=256" -pb-fuse-epilogues | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 k-block=8" -pb-fuse-epilogues | FileCheck %s --check-prefix=BLOCKED

// A bias add and ReLU after a matmul into a buffer of its own: computed on
// each 4 x 16 tile as it leaves the registers (the bias a vector, the
// constant broadcast), stored into D; C is read by nothing else, so its
// tiles are no longer stored, and the elementwise nest is gone.
// CHECK-LABEL: func @bias_relu_on_the_tiles
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x32xf32>, %[[BIAS:.*]]: memref<32xf32>, %[[D:.*]]: memref<8x32xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:           affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK:             %[[ACC:.*]]:4 = affine.for
// CHECK:             %[[BV:.*]] = affine.vector_load %[[BIAS]][%[[JT]]] : memref<32xf32>, vector<16xf32>
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]]#0, %[[BV]] : vector<16xf32>
// CHECK:             %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<16xf32>
// CHECK:             affine.vector_store %[[M]], %[[D]][%[[IT]], %[[JT]]] : memref<8x32xf32>, vector<16xf32>
// CHECK-COUNT-3:     affine.vector_store %{{.*}}, %[[D]]
// CHECK-NOT:         affine.vector_store %{{.*}}, %[[C]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.for
// CHECK:         return
// With the reduction in two k blocks, each tile is stored once per block:
// the epilogue would run twice.
// BLOCKED-LABEL: func @bias_relu_on_the_tiles
// BLOCKED-NOT:     pb-fuse-epilogues
// BLOCKED:         affine.load %{{.*}}[%{{.*}}] : memref<32xf32>
func.func @bias_relu_on_the_tiles(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %bias: memref<32xf32>, %d: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %bv = affine.load %bias[%j] : memref<32xf32>
      %s = arith.addf %v, %bv : f32
      %r = arith.maximumf %s, %zero : f32
      affine.store %r, %d[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  return
}

// -----

// The result is an argument (the caller reads it): its tiles stay, and
// the residual add is computed on them too; a per-row scale is one scalar
// broadcast along the lanes.
// CHECK-LABEL: func @result_read_by_the_caller
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x32xf32>, %[[SCALE:.*]]: memref<8xf32>, %[[R:.*]]: memref<8x32xf32>, %[[C:.*]]: memref<8x32xf32>, %[[D:.*]]: memref<8x32xf32>)
// CHECK:             %[[ACC:.*]]:4 = affine.for
// CHECK:             %[[RV:.*]] = affine.vector_load %[[R]][%[[IT:.*]], %[[JT:.*]]] : memref<8x32xf32>, vector<16xf32>
// CHECK:             %[[SV:.*]] = affine.load %[[SCALE]][%[[IT]]] : memref<8xf32>
// CHECK:             %[[SB:.*]] = vector.broadcast %[[SV]] : f32 to vector<16xf32>
// CHECK:             affine.vector_store %{{.*}}, %[[D]][%[[IT]], %[[JT]]]
// CHECK:             affine.vector_store %[[ACC]]#0, %[[C]][%[[IT]], %[[JT]]]
// CHECK:         pass = "pb-fuse-epilogues", result_stored = true
func.func @result_read_by_the_caller(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %scale: memref<8xf32>, %res: memref<8x32xf32>, %c: memref<8x32xf32>, %d: memref<8x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %rv = affine.load %res[%i, %j] : memref<8x32xf32>
      %sv = affine.load %scale[%i] : memref<8xf32>
      %p = arith.mulf %v, %sv : f32
      %s = arith.addf %p, %rv : f32
      affine.store %s, %d[%i, %j] : memref<8x32xf32>
    }
  }
  return
}

// -----

// A consumer that reads C transposed stores along the rows of the tile, not
// its lanes: left alone.
// CHECK-LABEL: func @transposed_read_left_alone
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         affine.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x32xf32>
func.func @transposed_read_left_alone(%a: memref<32x16xf32>, %b: memref<16x32xf32>, %c: memref<32x32xf32>, %d: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<32x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<32x32xf32>
      }
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%j, %i] : memref<32x32xf32>
      %e = math.exp %v : f32
      affine.store %e, %d[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

// -----

// Two layers in a row: each elementwise nest goes into the tiles of the
// matmul before it (the erased nests are not visited again).
// CHECK-LABEL: func @two_layers
// CHECK-COUNT-2: pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     math.tanh %{{.*}} : f32
func.func @two_layers(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %b2: memref<32x16xf32>, %d: memref<8x16xf32>) {
  %c = memref.alloc() : memref<8x32xf32>
  %h = memref.alloc() : memref<8x32xf32>
  %c2 = memref.alloc() : memref<8x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %t = math.tanh %v : f32
      affine.store %t, %h[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 16 {
        %x = affine.load %h[%i, %k] : memref<8x32xf32>
        %y = affine.load %b2[%k, %j] : memref<32x16xf32>
        %z = affine.load %c2[%i, %j] : memref<8x16xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c2[%i, %j] : memref<8x16xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %v = affine.load %c2[%i, %j] : memref<8x16xf32>
      %t = math.tanh %v : f32
      affine.store %t, %d[%i, %j] : memref<8x16xf32>
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  memref.dealloc %h : memref<8x32xf32>
  memref.dealloc %c2 : memref<8x16xf32>
  return
}
