// RUN: %pb-opt %s --pb-s3-pipeline | FileCheck %s


// In a row reduction (out[i] += a[i, j]), the row loop is the outermost loop and
// becomes affine.parallel; the reduction loop, which walks a row contiguously,
// stays a sequential affine.for inside it.

// CHECK-LABEL: func.func @row_reduction_parallelizes_rows_outermost
// CHECK-SAME:    (%[[A:.*]]: memref<1024x1024xf32>, %[[OUT:.*]]: memref<1024xf32>) -> i32
// CHECK-NOT:     affine.for
// CHECK:         affine.parallel (%{{.*}}) = (0) to (1024)
// CHECK-NOT:     affine.parallel
// CHECK:         affine.for %{{.*}} = 0 to 1024
// CHECK-NOT:     affine.parallel
// CHECK:         return
func.func @row_reduction_parallelizes_rows_outermost(%a: memref<1024x1024xf32>, %out: memref<1024xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      %0 = affine.load %a[%i, %j] : memref<1024x1024xf32>
      %1 = affine.load %out[%i] : memref<1024xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %out[%i] : memref<1024xf32>
    }
  }
  return %ok : i32
}
