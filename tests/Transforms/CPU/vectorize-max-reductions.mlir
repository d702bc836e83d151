// RUN: pb-opt %s -split-input-file -pb-vectorize-max-reductions | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-vectorize-max-reductions="vector-bits=512" | FileCheck %s --check-prefix=WIDE

// A row maximum becomes a loop of 8-lane compare-and-select that also ors
// together which lanes have seen a NaN (cmpf uno: infinities are ordered
// and the compare-and-select gets them right, a causal mask's -inf
// included); the lanes are reduced after it, and the original loop runs
// only when a NaN was seen or the maximum is zero.
// CHECK-LABEL: func @row_max
// CHECK-SAME:    (%[[X:.*]]: memref<4x64xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK:         affine.for %[[I:.*]] = 0 to 4 {
// CHECK-DAG:       %[[NONAN:.*]] = arith.constant dense<false> : vector<8xi1>
// CHECK-DAG:       %[[START:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK:           %[[FAST:.*]]:2 = affine.for %[[J:.*]] = 0 to 64 step 8 iter_args(%[[M:.*]] = %[[START]], %[[F:.*]] = %[[NONAN]])
// CHECK:             %[[V:.*]] = affine.vector_load %[[X]][%[[I]], %[[J]]] : memref<4x64xf32>, vector<8xf32>
// CHECK:             %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[M]] : vector<8xf32>
// CHECK:             %[[M2:.*]] = arith.select %[[GT]], %[[V]], %[[M]]
// CHECK:             %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<8xf32>
// CHECK:             %[[F2:.*]] = arith.ori %[[F]], %[[NAN]] : vector<8xi1>
// CHECK:             affine.yield %[[M2]], %[[F2]]
// CHECK:           %[[R:.*]] = vector.reduction <maximumf>, %[[FAST]]#0 : vector<8xf32> into f32
// CHECK:           %[[SPECIAL:.*]] = vector.reduction <or>, %[[FAST]]#1 : vector<8xi1> into i1
// CHECK:           %[[ISZERO:.*]] = arith.cmpf oeq, %[[R]]
// CHECK:           %[[NEED:.*]] = arith.ori %[[SPECIAL]], %[[ISZERO]] : i1
// CHECK:           %[[RES:.*]] = scf.if %[[NEED]] -> (f32) {
// CHECK:             %[[EXACT:.*]] = affine.for %{{.*}} = 0 to 64 iter_args
// CHECK:               arith.maximumf
// CHECK:             scf.yield %[[EXACT]] : f32
// CHECK:           } else {
// CHECK:             %[[COMBINED:.*]] = arith.maximumf %[[R]], %{{.*}} : f32
// CHECK:             scf.yield %[[COMBINED]] : f32
// CHECK:           affine.store %[[RES]], %[[OUT]][%[[I]]]
// 512-bit vectors: 16 lanes.
// WIDE-LABEL: func @row_max
// WIDE:         affine.for %{{.*}} = 0 to 64 step 16 iter_args
// WIDE:           affine.vector_load {{.*}} vector<16xf32>
func.func @row_max(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  affine.for %i = 0 to 4 {
    %r = affine.for %j = 0 to 64 iter_args(%acc = %ninf) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<4x64xf32>
      %m = arith.maximumf %v, %acc : f32
      affine.yield %m : f32
    }
    affine.store %r, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// A minimum over f64 with the accumulator first: four lanes, select on olt,
// +inf to start from.
// CHECK-LABEL: func @row_min_f64
// CHECK-DAG:     arith.constant dense<0x7FF0000000000000> : vector<4xf64>
// CHECK:         affine.for %{{.*}} = 0 to 32 step 4 iter_args
// CHECK:           arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4xf64>
// CHECK:           arith.cmpf uno, %{{.*}}, %{{.*}} : vector<4xf64>
// CHECK:         vector.reduction <minimumf>
// CHECK:         vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// CHECK:         scf.if
// CHECK:           arith.minimumf %{{.*}}, %{{.*}} : f64
// CHECK:         } else {
// CHECK:           arith.minimumf
func.func @row_min_f64(%x: memref<32xf64>, %init: f64) -> f64 {
  %r = affine.for %j = 0 to 32 iter_args(%acc = %init) -> (f64) {
    %v = affine.load %x[%j] : memref<32xf64>
    %m = arith.minimumf %acc, %v : f64
    affine.yield %m : f64
  }
  return %r : f64
}

// -----

// Left alone: a trip count that is not a multiple of the lanes, a column
// (strided) reduction, a body with more work than the load, maxnumf (already
// cheap), and a reduction whose loop carries another value.
// CHECK-LABEL: func @other_loops_are_left_alone
// CHECK-NOT:     vector
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @other_loops_are_left_alone(%x: memref<64x60xf32>, %init: f32) -> (f32, f32, f32, f32, f32) {
  %r0 = affine.for %j = 0 to 60 iter_args(%acc = %init) -> (f32) {
    %v = affine.load %x[0, %j] : memref<64x60xf32>
    %m = arith.maximumf %v, %acc : f32
    affine.yield %m : f32
  }
  %r1 = affine.for %j = 0 to 64 iter_args(%acc = %init) -> (f32) {
    %v = affine.load %x[%j, 0] : memref<64x60xf32>
    %m = arith.maximumf %v, %acc : f32
    affine.yield %m : f32
  }
  %r2 = affine.for %j = 0 to 32 iter_args(%acc = %init) -> (f32) {
    %v = affine.load %x[0, %j] : memref<64x60xf32>
    %w = arith.mulf %v, %v : f32
    %m = arith.maximumf %w, %acc : f32
    affine.yield %m : f32
  }
  %r3 = affine.for %j = 0 to 32 iter_args(%acc = %init) -> (f32) {
    %v = affine.load %x[0, %j] : memref<64x60xf32>
    %m = arith.maxnumf %v, %acc : f32
    affine.yield %m : f32
  }
  %r4:2 = affine.for %j = 0 to 32 iter_args(%acc = %init, %s = %init) -> (f32, f32) {
    %v = affine.load %x[0, %j] : memref<64x60xf32>
    %m = arith.maximumf %v, %acc : f32
    %t = arith.addf %v, %s : f32
    affine.yield %m, %t : f32, f32
  }
  return %r0, %r1, %r2, %r3, %r4#0 : f32, f32, f32, f32, f32
}
