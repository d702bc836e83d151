// RUN: pb-opt %s -split-input-file -pb-unroll-short-loops | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-unroll-short-loops=max-trip-count=4 | FileCheck %s --check-prefix=MAX4

// A 5-tap innermost loop is unrolled fully; the loop around it stays.
// CHECK-LABEL: func @five_tap_stencil_is_unrolled
// CHECK:         affine.for %[[J:.*]] = 0 to 60 {
// CHECK-NOT:       affine.for
// CHECK-COUNT-5:   affine.load %{{.*}}[%[[J]]{{( \+ [1-4])?}}]
// CHECK-NOT:       affine.for
// With a limit of 4 iterations it is left alone.
// MAX4-LABEL: func @five_tap_stencil_is_unrolled
// MAX4:         affine.for
// MAX4:           affine.for %{{.*}} = 0 to 5
func.func @five_tap_stencil_is_unrolled(%in: memref<64xf32>, %out: memref<60xf32>) {
  affine.for %j = 0 to 60 {
    affine.for %k = 0 to 5 {
      %v = affine.load %in[%j + %k] : memref<64xf32>
      %a = affine.load %out[%j] : memref<60xf32>
      %s = arith.addf %a, %v : f32
      affine.store %s, %out[%j] : memref<60xf32>
    }
  }
  return
}

// -----

// Long loops and loops that contain loops are not unrolled.
// CHECK-LABEL: func @long_and_outer_loops_stay
// CHECK:         affine.for %{{.*}} = 0 to 4 {
// CHECK:           affine.for %{{.*}} = 0 to 100 {
func.func @long_and_outer_loops_stay(%m: memref<4x100xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 100 {
      affine.store %c, %m[%i, %j] : memref<4x100xf32>
    }
  }
  return
}

// -----

// A loop with symbolic bounds has no constant trip count and stays.
// CHECK-LABEL: func @symbolic_bounds_stay
// CHECK:         affine.for %{{.*}} = 0 to %{{.*}} {
func.func @symbolic_bounds_stay(%m: memref<8xf32>, %n: index) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to %n {
    affine.store %c, %m[%i] : memref<8xf32>
  }
  return
}

// -----

// The channel loop (3) of an RGB convolution is the reduction of a
// matmul-like nest: the filter moves with it and with the output channels
// (unit stride, like the store), and not with the output columns. It stays.
// CHECK-LABEL: func @rgb_channels_stay_a_loop
// CHECK:         affine.for %{{.*}} = 0 to 3 {
func.func @rgb_channels_stay_a_loop(%in: memref<16x3xf32>, %w: memref<3x32xf32>, %out: memref<14x32xf32>) {
  affine.for %ow = 0 to 14 {
    affine.for %f = 0 to 32 {
      affine.for %c = 0 to 3 {
        %x = affine.load %in[%ow, %c] : memref<16x3xf32>
        %y = affine.load %w[%c, %f] : memref<3x32xf32>
        %o = affine.load %out[%ow, %f] : memref<14x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        affine.store %s, %out[%ow, %f] : memref<14x32xf32>
      }
    }
  }
  return
}

// -----

// A loop whose body computes on vectors (built vectorized, like the channel
// loop of a Winograd transform) is left as built.
// CHECK-LABEL: func.func @vector_loop_kept
// CHECK:         affine.for %{{.*}} = 0 to 64 step 16 {
// CHECK-NEXT:      affine.vector_load
func.func @vector_loop_kept(%a: memref<64xf32>, %b: memref<64xf32>) {
  affine.for %c = 0 to 64 step 16 {
    %v = affine.vector_load %a[%c] : memref<64xf32>, vector<16xf32>
    %w = arith.addf %v, %v : vector<16xf32>
    affine.vector_store %w, %b[%c] : memref<64xf32>, vector<16xf32>
  }
  return
}
