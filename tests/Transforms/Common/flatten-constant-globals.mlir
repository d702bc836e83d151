// RUN: pb-opt %s -split-input-file -pb-flatten-constant-globals | FileCheck %s

// Tests for pb-flatten-constant-globals: constant globals become 1-D
// arrays of their bytes, read through a view of their elements in their
// shape.

// A 2 x 3 f32 weight: 24 bytes, viewed as 6 floats, expanded to 2 x 3; a
// 1-D one, viewed only. A mutable global and a splat stay as they are.
// CHECK-LABEL: module
// CHECK:         memref.global "private" constant @w : memref<24xi8> = dense<{{\[}}0, 0, -128, 63, 0, 0, 0, 64, {{.*}}]> {alignment = 64 : i64}
// CHECK:         memref.global "private" constant @bias : memref<12xi8>
// CHECK:         memref.global "private" @state : memref<2x3xf32>
// CHECK:         memref.global "private" constant @ones : memref<4x4xf32> = dense<1.000000e+00>
// CHECK-LABEL:   func.func @reads_weights
// CHECK:           %[[BYTES:.*]] = memref.get_global @w : memref<24xi8>
// CHECK:           %[[FLAT:.*]] = memref.view %[[BYTES]][%{{.*}}][] : memref<24xi8> to memref<6xf32>
// CHECK:           %[[W:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK:           %[[V:.*]] = memref.load %[[W]]
// CHECK:           %[[BB:.*]] = memref.get_global @bias : memref<12xi8>
// CHECK:           %[[B:.*]] = memref.view %[[BB]][%{{.*}}][] : memref<12xi8> to memref<3xf32>
// CHECK:           memref.load %[[B]]
// CHECK:           memref.get_global @state : memref<2x3xf32>
// CHECK:           memref.get_global @ones : memref<4x4xf32>
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> {alignment = 64 : i64}
memref.global "private" constant @bias : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" @state : memref<2x3xf32> = dense<0.0>
memref.global "private" constant @ones : memref<4x4xf32> = dense<1.0>
func.func @reads_weights(%i: index, %j: index) -> f32 {
  %w = memref.get_global @w : memref<2x3xf32>
  %v = memref.load %w[%i, %j] : memref<2x3xf32>
  %b = memref.get_global @bias : memref<3xf32>
  %bv = memref.load %b[%j] : memref<3xf32>
  %s = memref.get_global @state : memref<2x3xf32>
  %o = memref.get_global @ones : memref<4x4xf32>
  %r = arith.addf %v, %bv : f32
  return %r : f32
}

// -----

// Weights exported as resource blobs keep their blob, under an i8 type.
// CHECK-LABEL: module
// CHECK:         memref.global "private" constant @blob : memref<16xi8> = dense_resource<weights>
// CHECK:         memref.view %{{.*}}[%{{.*}}][] : memref<16xi8> to memref<4xf32>
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
