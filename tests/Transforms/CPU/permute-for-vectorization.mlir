// RUN: pb-opt %s -split-input-file -pb-permute-for-vectorization | FileCheck %s

// Matmul (i, j, k): j is contiguous in B and C, so it goes innermost and
// the reduction k moves out of it.
// CHECK-LABEL: func @matmul_puts_unit_stride_loop_innermost
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.for %[[K:.*]] = 0 to 32 {
// CHECK-NEXT:        affine.for %[[J:.*]] = 0 to 24 {
// CHECK:               affine.load %{{.*}}[%[[I]], %[[K]]]
// CHECK:               affine.load %{{.*}}[%[[K]], %[[J]]]
func.func @matmul_puts_unit_stride_loop_innermost(%a: memref<16x32xf32>, %b: memref<32x24xf32>, %c: memref<16x24xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 24 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<16x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x24xf32>
        %z = affine.load %c[%i, %j] : memref<16x24xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<16x24xf32>
      }
    }
  }
  return
}

// -----

// A nest whose innermost loop is already contiguous is left alone.
// CHECK-LABEL: func @contiguous_innermost_stays
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 64 {
// CHECK-NEXT:        affine.load %{{.*}}[%[[I]], %[[J]]]
func.func @contiguous_innermost_stays(%a: memref<8x64xf32>, %b: memref<8x64xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 64 {
      %x = affine.load %a[%i, %j] : memref<8x64xf32>
      affine.store %x, %b[%i, %j] : memref<8x64xf32>
    }
  }
  return
}

// -----

// A column sum: j is parallel and contiguous, i carries the reduction, so
// j moves innermost and the reduction runs across vector lanes.
// CHECK-LABEL: func @column_sum_moves_parallel_loop_innermost
// CHECK:         affine.for %[[I:.*]] = 0 to 32 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 16 {
func.func @column_sum_moves_parallel_loop_innermost(%a: memref<32x16xf32>, %s: memref<16xf32>) {
  affine.for %j = 0 to 16 {
    affine.for %i = 0 to 32 {
      %x = affine.load %a[%i, %j] : memref<32x16xf32>
      %acc = affine.load %s[%j] : memref<16xf32>
      %r = arith.addf %acc, %x : f32
      affine.store %r, %s[%j] : memref<16xf32>
    }
  }
  return
}

// -----

// A loop carrying a dependence cannot move innermost past another loop
// when that would reverse the dependence: the nest stays as it is.
// CHECK-LABEL: func @illegal_permutation_is_not_applied
// CHECK:         affine.for %[[I:.*]] = 1 to 16 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 15 {
// CHECK-NEXT:        affine.load %{{.*}}[%[[I]] - 1, %[[J]] + 1]
func.func @illegal_permutation_is_not_applied(%a: memref<16x16xf32>) {
  affine.for %i = 1 to 16 {
    affine.for %j = 0 to 15 {
      %x = affine.load %a[%i - 1, %j + 1] : memref<16x16xf32>
      affine.store %x, %a[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
