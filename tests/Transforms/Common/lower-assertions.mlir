// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-lower-assertions | FileCheck %s
// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-lower-assertions=mode=drop | FileCheck %s --check-prefix=DROP

// Tests for pb-lower-assertions: a cf.assert guards the rest of its block
// with an scf.if whose else branch sets a flag; the entry point returns 8
// (PB_STATUS_CHECK_FAILED) when the flag is set, its status otherwise.

// CHECK-LABEL: func.func @bounds_check_guards_the_load
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<i32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         memref.store %[[C0]], %[[FLAG]][]
// CHECK:         %[[STATUS0:.*]] = arith.constant 0 : i32
// CHECK:         affine.for
// CHECK:           %[[OK:.*]] = arith.cmpi slt
// CHECK-NOT:       cf.assert
// CHECK:           scf.if %[[OK]] {
// CHECK:             memref.load
// CHECK:             affine.store
// CHECK:           } else {
// CHECK:             memref.atomic_rmw assign %{{.*}}, %[[FLAG]][]
// CHECK:           }
// CHECK:         %[[F:.*]] = memref.load %[[FLAG]][]
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[F]], %[[C0]]
// CHECK:         %[[C8:.*]] = arith.constant 8 : i32
// CHECK:         %[[STATUS:.*]] = arith.select %[[FAILED]], %[[C8]], %[[STATUS0]]
// CHECK:         return %[[STATUS]]
// DROP-LABEL:  func.func @bounds_check_guards_the_load
// DROP-NOT:      cf.assert
// DROP-NOT:      scf.if
// DROP-NOT:      memref.alloca
// DROP:          return %{{.*}} : i32
func.func @bounds_check_guards_the_load(%ids: memref<3xi64>, %table: memref<10x4xf32>, %out: memref<3x4xf32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : index
  affine.for %k = 0 to 3 {
    affine.for %j = 0 to 4 {
      %id = affine.load %ids[%k] : memref<3xi64>
      %i = arith.index_cast %id : i64 to index
      %ok = arith.cmpi slt, %i, %c10 : index
      cf.assert %ok, "index must be smaller than dim size"
      %v = memref.load %table[%i, %j] : memref<10x4xf32>
      affine.store %v, %out[%k, %j] : memref<3x4xf32>
    }
  }
  return %c0 : i32
}

// -----

// Two checks in one block nest: the second guards what follows it, the
// first guards both.
// CHECK-LABEL: func.func @consecutive_checks_nest
// CHECK:         scf.if %{{.*}} {
// CHECK:           arith.cmpi sge
// CHECK:           scf.if %{{.*}} {
// CHECK:             memref.load
// CHECK:           } else {
// CHECK:             memref.atomic_rmw
// CHECK:           }
// CHECK:         } else {
// CHECK:           memref.atomic_rmw
// CHECK:         }
func.func @consecutive_checks_nest(%id: i64, %table: memref<10xf32>, %out: memref<f32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %i = arith.index_cast %id : i64 to index
  %below = arith.cmpi slt, %i, %c10 : index
  cf.assert %below, "index must be smaller than dim size"
  %nonneg = arith.cmpi sge, %id, %zero : i64
  cf.assert %nonneg, "index must be larger or equal to 0"
  %v = memref.load %table[%i] : memref<10xf32>
  memref.store %v, %out[] : memref<f32>
  return %c0 : i32
}

// -----

// A value the guarded work computes for the block's terminator becomes a
// result of the scf.if, zero when the check failed.
// CHECK-LABEL: func.func @guarded_value_reaches_terminator
// CHECK:         scf.for {{.*}} -> (f32)
// CHECK:           %[[R:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:             %[[V:.*]] = memref.load
// CHECK:             scf.yield %[[V]] : f32
// CHECK:           } else {
// CHECK:             %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:             scf.yield %[[Z]] : f32
// CHECK:           }
// CHECK:           scf.yield %[[R]] : f32
func.func @guarded_value_reaches_terminator(%ids: memref<4xindex>, %table: memref<10xf32>, %out: memref<f32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %init = arith.constant 0.0 : f32
  %last = scf.for %k = %i0 to %i4 step %i1 iter_args(%acc = %init) -> (f32) {
    %i = memref.load %ids[%k] : memref<4xindex>
    %ok = arith.cmpi ult, %i, %c10 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = memref.load %table[%i] : memref<10xf32>
    scf.yield %v : f32
  }
  memref.store %last, %out[] : memref<f32>
  return %c0 : i32
}
