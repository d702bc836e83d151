// RUN: pb-opt %s -split-input-file -pb-register-tile-depthwise -pb-fuse-epilogues | FileCheck %s

// A depthwise convolution's shift and ReLU6 (MobileNet's block: batch
// norm's shift per channel, then the clamp) into a buffer of its own:
// computed on each tile's vectors of channels as they leave the registers
// (the shift a vector of the channels, the bounds broadcast), stored into
// D; C is read by nothing else, so its tiles are no longer stored, and the
// elementwise nest is gone.
// CHECK-LABEL: func.func @shift_relu6_on_the_tiles
// CHECK-SAME:    (%[[IN:.*]]: memref<10x12x16xf32>, %[[F:.*]]: memref<3x3x16xf32>, %[[SHIFT:.*]]: memref<16xf32>, %[[D:.*]]: memref<8x10x16xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() : memref<8x10x16xf32>
// CHECK:         affine.for %[[H:.*]] = 0 to 8 {
// CHECK:           affine.for %[[W0:.*]] = 0 to 10 step 5 {
// CHECK-NEXT:        affine.for %[[C0:.*]] = 0 to 16 step 8 {
// CHECK:               %[[R:.*]]:5 = affine.for
// CHECK:               %[[SV:.*]] = affine.vector_load %[[SHIFT]][%[[C0]]] : memref<16xf32>, vector<8xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[R]]#0, %[[SV]] : vector<8xf32>
// CHECK:               %[[LO:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<8xf32>
// CHECK:               %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:          affine.vector_store %[[HI]], %[[D]][%[[H]], %[[W0]], %[[C0]]] : memref<8x10x16xf32>, vector<8xf32>
// CHECK-COUNT-4:       affine.vector_store %{{.*}}, %[[D]]
// CHECK-NOT:           affine.vector_store %{{.*}}, %[[C]]
// CHECK:         } {pb.decisions = [{{.*}}pass = "pb-register-tile-depthwise", stores_once = true{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.for
// CHECK:         return
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @shift_relu6_on_the_tiles(%in: memref<10x12x16xf32>, %f: memref<3x3x16xf32>, %shift: memref<16xf32>, %d: memref<8x10x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %six = arith.constant 6.0 : f32
    %c = memref.alloc() : memref<8x10x16xf32>
    affine.for %h = 0 to 8 {
      affine.for %w = 0 to 10 {
        affine.for %ch = 0 to 16 {
          affine.store %zero, %c[%h, %w, %ch] : memref<8x10x16xf32>
        }
      }
    }
    affine.for %h = 0 to 8 {
      affine.for %w = 0 to 10 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %ch = 0 to 16 {
              %x = affine.load %in[%h + %kh, %w + %kw, %ch] : memref<10x12x16xf32>
              %y = affine.load %f[%kh, %kw, %ch] : memref<3x3x16xf32>
              %acc = affine.load %c[%h, %w, %ch] : memref<8x10x16xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %c[%h, %w, %ch] : memref<8x10x16xf32>
            }
          }
        }
      }
    }
    affine.for %h = 0 to 8 {
      affine.for %w = 0 to 10 {
        affine.for %ch = 0 to 16 {
          %v = affine.load %c[%h, %w, %ch] : memref<8x10x16xf32>
          %b = affine.load %shift[%ch] : memref<16xf32>
          %s = arith.addf %v, %b : f32
          %lo = arith.maximumf %s, %zero : f32
          %hi = arith.minimumf %lo, %six : f32
          affine.store %hi, %d[%h, %w, %ch] : memref<8x10x16xf32>
        }
      }
    }
    memref.dealloc %c : memref<8x10x16xf32>
    return
  }
}

// -----

// Channels no multiple of the vector (12 of 8): the depthwise nest is left
// to the scalar path, stores each element once per window step, and its
// consumer stays a nest of its own.
// CHECK-LABEL: func.func @untiled_keeps_its_consumer
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK:         return
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @untiled_keeps_its_consumer(%in: memref<10x12x12xf32>, %f: memref<3x3x12xf32>, %d: memref<8x10x12xf32>) {
    %six = arith.constant 6.0 : f32
    %c = memref.alloc() : memref<8x10x12xf32>
    affine.for %h = 0 to 8 {
      affine.for %w = 0 to 10 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %ch = 0 to 12 {
              %x = affine.load %in[%h + %kh, %w + %kw, %ch] : memref<10x12x12xf32>
              %y = affine.load %f[%kh, %kw, %ch] : memref<3x3x12xf32>
              %acc = affine.load %c[%h, %w, %ch] : memref<8x10x12xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %c[%h, %w, %ch] : memref<8x10x12xf32>
            }
          }
        }
      }
    }
    affine.for %h = 0 to 8 {
      affine.for %w = 0 to 10 {
        affine.for %ch = 0 to 12 {
          %v = affine.load %c[%h, %w, %ch] : memref<8x10x12xf32>
          %hi = arith.minimumf %v, %six : f32
          affine.store %hi, %d[%h, %w, %ch] : memref<8x10x12xf32>
        }
      }
    }
    memref.dealloc %c : memref<8x10x12xf32>
    return
  }
}

// -----

// No loop outside the columns, and a column left over (7 of 6): the whole
// tiles are one nest, the tile of the leftover column another, after it.
// The epilogue is not computed on the whole tiles alone: the consumer,
// which needs every column, stays a nest of its own after both.
// CHECK-LABEL: func.func @leftover_column_keeps_its_consumer
// CHECK:         affine.for %{{.*}} = 0 to 6 step 6 {
// CHECK:         } {pb.decisions = [{columns = 6 : i64{{.*}}stores_once = true
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         affine.vector_store %{{.*}}, %[[C:.*]][6, %{{.*}}] : memref<7x16xf32>, vector<8xf32>
// CHECK:         affine.for %[[W:.*]] = 0 to 7 {
// CHECK-NEXT:      affine.for %[[CH:.*]] = 0 to 16 {
// CHECK-NEXT:        affine.load %[[C]][%[[W]], %[[CH]]] : memref<7x16xf32>
// CHECK:             arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK:         return
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @leftover_column_keeps_its_consumer(%in: memref<9x16xf32>, %f: memref<3x16xf32>, %d: memref<7x16xf32>) {
    %six = arith.constant 6.0 : f32
    %c = memref.alloc() : memref<7x16xf32>
    affine.for %w = 0 to 7 {
      affine.for %kw = 0 to 3 {
        affine.for %ch = 0 to 16 {
          %x = affine.load %in[%w + %kw, %ch] : memref<9x16xf32>
          %y = affine.load %f[%kw, %ch] : memref<3x16xf32>
          %acc = affine.load %c[%w, %ch] : memref<7x16xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%w, %ch] : memref<7x16xf32>
        }
      }
    }
    affine.for %w = 0 to 7 {
      affine.for %ch = 0 to 16 {
        %v = affine.load %c[%w, %ch] : memref<7x16xf32>
        %hi = arith.minimumf %v, %six : f32
        affine.store %hi, %d[%w, %ch] : memref<7x16xf32>
      }
    }
    memref.dealloc %c : memref<7x16xf32>
    return
  }
}
