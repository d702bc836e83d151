// RUN: pb-opt %s -split-input-file -pb-flatten-constant-globals | FileCheck %s

// Tests for pb-flatten-constant-globals: constant globals of rank 2 or more
// become 1-D, read through an expand_shape view of their shape.

// CHECK-LABEL: module
// CHECK:         memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}
// CHECK:         memref.global "private" constant @bias : memref<3xf32>
// CHECK:         memref.global "private" @state : memref<2x3xf32>
// CHECK-LABEL:   func.func @reads_weights
// CHECK:           %[[FLAT:.*]] = memref.get_global @w : memref<6xf32>
// CHECK:           %[[W:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK:           %[[V:.*]] = memref.load %[[W]]
// CHECK:           memref.get_global @bias : memref<3xf32>
// CHECK:           memref.get_global @state : memref<2x3xf32>
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> {alignment = 64 : i64}
memref.global "private" constant @bias : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" @state : memref<2x3xf32> = dense<0.0>
func.func @reads_weights(%i: index, %j: index) -> f32 {
  %w = memref.get_global @w : memref<2x3xf32>
  %v = memref.load %w[%i, %j] : memref<2x3xf32>
  %b = memref.get_global @bias : memref<3xf32>
  %s = memref.get_global @state : memref<2x3xf32>
  return %v : f32
}

// -----

// Weights exported as resource blobs keep their blob, under a 1-D type.
// CHECK-LABEL: module
// CHECK:         memref.global "private" constant @blob : memref<4xf32> = dense_resource<weights>
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [1, 2, 2]
memref.global "private" constant @blob : memref<1x2x2xf32> = dense_resource<weights>
func.func @reads_blob() -> memref<1x2x2xf32> {
  %w = memref.get_global @blob : memref<1x2x2xf32>
  return %w : memref<1x2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
