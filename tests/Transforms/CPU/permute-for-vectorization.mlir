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

// -----

// Batch norm's per-channel vectors arrive as memref<Cx1x1xf32> read at
// [%c, 0, 0]: their addresses move by one element along %c, as the
// activations' do, so the channel loop stays innermost. (Counted by their
// subscripts, the four vectors would be strided along %c, and the batch
// loop, along which only the three activations are strided, would go
// innermost: every access a new cache line.)
// CHECK-LABEL: func @unit_dims_after_a_subscript_are_contiguous
// CHECK:         affine.for %[[N:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[H:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.for %[[C:.*]] = 0 to 64 {
// CHECK:               affine.load %{{.*}}[%[[N]], %[[H]], %[[C]]]
// CHECK:               affine.load %{{.*}}[%[[C]], 0, 0]
func.func @unit_dims_after_a_subscript_are_contiguous(
    %x: memref<8x4x64xf32>, %y: memref<8x4x64xf32>, %m1: memref<64x1x1xf32>,
    %s1: memref<64x1x1xf32>, %m2: memref<64x1x1xf32>,
    %s2: memref<64x1x1xf32>, %out: memref<8x4x64xf32>) {
  affine.for %n = 0 to 8 {
    affine.for %h = 0 to 4 {
      affine.for %c = 0 to 64 {
        %a = affine.load %x[%n, %h, %c] : memref<8x4x64xf32>
        %b = affine.load %y[%n, %h, %c] : memref<8x4x64xf32>
        %0 = affine.load %m1[%c, 0, 0] : memref<64x1x1xf32>
        %1 = affine.load %s1[%c, 0, 0] : memref<64x1x1xf32>
        %2 = affine.load %m2[%c, 0, 0] : memref<64x1x1xf32>
        %3 = affine.load %s2[%c, 0, 0] : memref<64x1x1xf32>
        %4 = arith.subf %a, %0 : f32
        %5 = arith.addf %4, %1 : f32
        %6 = arith.subf %b, %2 : f32
        %7 = arith.addf %6, %3 : f32
        %8 = arith.addf %5, %7 : f32
        affine.store %8, %out[%n, %h, %c] : memref<8x4x64xf32>
      }
    }
  }
  return
}

// -----

// A subscript followed by dimensions of more than one element is strided
// along its loop: the row loop is not moved innermost past the unit-stride
// column loop.
// CHECK-LABEL: func @subscript_before_a_long_dim_is_strided
// CHECK:         affine.for %[[C:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.for %[[R:.*]] = 0 to 32 {
// CHECK:             affine.load %{{.*}}[%[[C]], %[[R]]]
func.func @subscript_before_a_long_dim_is_strided(%x: memref<16x32xf32>,
                                                   %v: memref<32x2xf32>,
                                                   %out: memref<16x32xf32>) {
  affine.for %c = 0 to 16 {
    affine.for %r = 0 to 32 {
      %a = affine.load %x[%c, %r] : memref<16x32xf32>
      %b = affine.load %v[%r, 0] : memref<32x2xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%c, %r] : memref<16x32xf32>
    }
  }
  return
}
