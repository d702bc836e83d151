// RUN: pb-opt %s -split-input-file -pb-lower-tm-tensor | FileCheck %s

// Tests for pb-lower-tm-tensor: tm_tensor ops on memrefs become scf loops.

// Merge sort: runs of doubling width (scf.while), merged pairwise into a
// scratch slice (compare once per element, no branch) and copied back.
// CHECK-LABEL: func.func @sort_is_a_merge_sort
// CHECK:         %[[SCRATCH:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         scf.while
// CHECK:           arith.cmpi ult
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           scf.for
// CHECK:             arith.minui
// CHECK:             scf.for {{.*}} iter_args
// CHECK:               arith.cmpf ole
// CHECK:               memref.store %{{.*}}, %[[SCRATCH]]
// CHECK:             scf.for
// CHECK:               memref.load %[[SCRATCH]]
// CHECK:         memref.dealloc %[[SCRATCH]]
// CHECK-NOT:     tm_tensor
func.func @sort_is_a_merge_sort(%x: memref<8xf32>) {
  tm_tensor.sort dimension(0) outs(%x : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  }
  return
}

// -----

// Scan: a running combination carried by an scf.for; the total goes to the
// accumulator.
// CHECK-LABEL: func.func @scan_is_a_running_combination
// CHECK:         %[[FIRST:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x8xf32>
// CHECK:         memref.store %[[FIRST]]
// CHECK:         %[[TOTAL:.*]] = scf.for {{.*}} iter_args(%[[PREV:.*]] = %[[FIRST]]) -> (f32)
// CHECK:           %[[S:.*]] = arith.addf %[[PREV]], %{{.*}} : f32
// CHECK:           scf.yield %[[S]]
// CHECK:         memref.store %[[TOTAL]], %{{.*}}[%{{.*}}] : memref<4xf32>
func.func @scan_is_a_running_combination(%x: memref<4x8xf32>, %o: memref<4x8xf32>, %acc: memref<4xf32>) {
  tm_tensor.scan dimension(1) inclusive(true) ins(%x : memref<4x8xf32>) outs(%o, %acc : memref<4x8xf32>, memref<4xf32>) {
  ^bb0(%p: f32, %v: f32):
    %s = arith.addf %p, %v : f32
    tm_tensor.yield %s : f32
  }
  return
}

// -----

// Scatter: the position in the original is the slice's position (the
// update's size-1 dimension) plus the index; it is checked against the
// original's dimension before the element is read, combined and written
// back.
// CHECK-LABEL: func.func @scatter_checks_its_indices
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[RAW:.*]] = memref.load %{{.*}} : memref<3x1xi64>
// CHECK:             %[[IDX:.*]] = arith.index_cast %[[RAW]]
// CHECK:             %[[I:.*]] = arith.addi %{{.*}}, %[[IDX]] : index
// CHECK:             arith.cmpi sge, %[[I]]
// CHECK:             arith.cmpi slt, %[[I]], %c5
// CHECK:             cf.assert %{{.*}}, "scatter index out of range for dimension 0"
// CHECK:             %[[CUR:.*]] = memref.load %{{.*}}[%[[I]], %{{.*}}] : memref<5x8xf32>
// CHECK:             %[[NEW:.*]] = arith.addf %[[CUR]]
// CHECK:             memref.store %[[NEW]], %{{.*}}[%[[I]], %{{.*}}] : memref<5x8xf32>
func.func @scatter_checks_its_indices(%x: memref<5x8xf32>, %u: memref<3x1x8xf32>, %i: memref<3x1xi64>) {
  tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : memref<3x1x8xf32>, memref<3x1xi64>) outs(%x : memref<5x8xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %s = arith.addf %cur, %upd : f32
    tm_tensor.yield %s : f32
  }
  return
}

// -----

// Top-k: each element walks through the k kept ones, compared both ways
// (ties go to the smaller index).
// CHECK-LABEL: func.func @topk_inserts_each_element
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[POS:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[POS]]) -> (f32, i32)
// CHECK:               arith.cmpf ogt
// CHECK:               arith.cmpf ogt
// CHECK:               arith.cmpi eq
// CHECK:               arith.cmpi slt
func.func @topk_inserts_each_element(%x: memref<2x9xf32>, %v: memref<2x3xf32>, %i: memref<2x3xi32>) {
  tm_tensor.topk dimension(1) ins(%x : memref<2x9xf32>) outs(%v, %i : memref<2x3xf32>, memref<2x3xi32>) {
  ^bb0(%new: f32, %kept: f32):
    %gt = arith.cmpf ogt, %new, %kept : f32
    tm_tensor.yield %gt : i1
  }
  return
}
