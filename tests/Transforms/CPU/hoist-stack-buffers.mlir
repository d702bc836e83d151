// RUN: pb-opt %s -split-input-file -pb-hoist-stack-buffers | FileCheck %s

// A stack buffer inside two sequential loops moves in front of the outer
// one: allocated once, not on every iteration.
// CHECK-LABEL: func @buffer_leaves_sequential_loops
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16x8xf32>
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 64 step 16 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 32 step 8 {
// CHECK-NEXT:        affine.for
// CHECK:               affine.store %{{.*}}, %[[BUF]]
func.func @buffer_leaves_sequential_loops(%b: memref<64x32xf32>, %c: memref<32xf32>) {
  affine.for %kt = 0 to 64 step 16 {
    affine.for %jt = 0 to 32 step 8 {
      %pack = memref.alloca() {alignment = 64 : i64} : memref<16x8xf32>
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 8 {
          %v = affine.load %b[%kt + %k, %jt + %j] : memref<64x32xf32>
          affine.store %v, %pack[%k, %j] : memref<16x8xf32>
        }
      }
      affine.for %j = 0 to 8 {
        %v = affine.load %pack[0, %j] : memref<16x8xf32>
        affine.store %v, %c[%jt + %j] : memref<32xf32>
      }
    }
  }
  return
}

// -----

// Inside a parallel loop it stays within the parallel body (one buffer per
// thread), in front of the sequential loop around it; directly in the
// parallel body, it stays where it is.
// CHECK-LABEL: func @buffer_stays_in_parallel_body
// CHECK:         affine.for %{{.*}} = 0 to 64 step 16 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (32) step (8) {
// CHECK-NEXT:        %[[BUF:.*]] = memref.alloca() : memref<8xf32>
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 4 {
// CHECK-NOT:           memref.alloca
// CHECK:           affine.parallel (%{{.*}}) = (0) to (32) step (8) {
// CHECK-NEXT:        memref.alloca() : memref<8xf32>
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 8 {
func.func @buffer_stays_in_parallel_body(%c: memref<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %kt = 0 to 64 step 16 {
    affine.parallel (%jt) = (0) to (32) step (8) {
      affine.for %r = 0 to 4 {
        %buf = memref.alloca() : memref<8xf32>
        affine.for %j = 0 to 8 {
          affine.store %zero, %buf[%j] : memref<8xf32>
        }
        affine.for %j = 0 to 8 {
          %v = affine.load %buf[%j] : memref<8xf32>
          affine.store %v, %c[%r, %jt + %j] : memref<4x32xf32>
        }
      }
    }
    affine.parallel (%jt) = (0) to (32) step (8) {
      %buf = memref.alloca() : memref<8xf32>
      affine.for %j = 0 to 8 {
        affine.store %zero, %buf[%j] : memref<8xf32>
      }
    }
  }
  return
}
