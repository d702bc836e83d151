// RUN: pb-opt %s -split-input-file -pb-hoist-reciprocals | FileCheck %s

// The row's sum does not change in the loop over the row: one division
// before the loop, a multiplication per element.
// CHECK-LABEL: func @divide_by_row_sum
// CHECK-SAME:    (%{{.*}}: memref<8x64xf32>, %[[S:.*]]: memref<8xf32>)
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      %[[SUM:.*]] = affine.load %[[S]][%[[I]]]
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[ONE]], %[[SUM]] : f32
// CHECK-NEXT:      affine.for
// CHECK-NEXT:        %[[V:.*]] = affine.load
// CHECK-NEXT:        %[[Q:.*]] = arith.mulf %[[V]], %[[R]] : f32
// CHECK-NOT:       arith.divf
// CHECK:           affine.store %[[Q]]
func.func @divide_by_row_sum(%x: memref<8x64xf32>, %s: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %sum = affine.load %s[%i] : memref<8xf32>
    affine.for %j = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<8x64xf32>
      %q = arith.divf %v, %sum : f32
      affine.store %q, %x[%i, %j] : memref<8x64xf32>
    }
  }
  return
}

// -----

// A divisor that changes in the loop, and a division outside any loop,
// stay divisions.
// CHECK-LABEL: func @varying_divisor
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:         affine.for
// CHECK:           arith.divf
// CHECK-NOT:       arith.mulf
func.func @varying_divisor(%x: memref<64xf32>, %y: memref<64xf32>, %a: f32, %b: f32) -> f32 {
  %c = arith.divf %a, %b : f32
  affine.for %j = 0 to 64 {
    %v = affine.load %x[%j] : memref<64xf32>
    %w = affine.load %y[%j] : memref<64xf32>
    %q = arith.divf %v, %w : f32
    affine.store %q, %x[%j] : memref<64xf32>
  }
  return %c : f32
}
