// RUN: %pb-opt %s -split-input-file --pb-s3-pipeline | FileCheck %s


// A full reduction has no parallel loop: S3 produces no affine.parallel, in
// particular none with a single iteration inside the sequential reduction loop.

// CHECK-LABEL: func.func @full_reduction_has_no_parallel_loop
// CHECK-NOT:     affine.parallel
// CHECK:         return
func.func @full_reduction_has_no_parallel_loop(%a: memref<1024xf32>, %out: memref<f32>) -> i32 {
  %ok = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  affine.store %zero, %out[] : memref<f32>
  affine.for %i = 0 to 1024 {
    %0 = affine.load %a[%i] : memref<1024xf32>
    %1 = affine.load %out[] : memref<f32>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %out[] : memref<f32>
  }
  return %ok : i32
}

// -----

// A loop carrying a dependence (a[i] depends on a[i - 1]) stays sequential and
// gets no single-iteration affine.parallel inside it.

// CHECK-LABEL: func.func @sequential_scan_has_no_parallel_loop
// CHECK-NOT:     affine.parallel
// CHECK:         return
func.func @sequential_scan_has_no_parallel_loop(%a: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  affine.for %i = 1 to 64 {
    %0 = affine.load %a[%i - 1] : memref<64xf32>
    %1 = arith.addf %0, %one : f32
    affine.store %1, %a[%i] : memref<64xf32>
  }
  return %ok : i32
}
