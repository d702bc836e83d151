// RUN: pb-opt %s -split-input-file -pb-promote-accumulators | FileCheck %s

// A row sum: the accumulator %s[%i] does not move with %j. It is loaded
// before the loop, carried, and stored after it; its add is reassociable.
// CHECK-LABEL: func @row_sum
// CHECK-SAME:    (%[[X:.*]]: memref<16x32xf32>, %[[S:.*]]: memref<16xf32>)
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      %[[INIT:.*]] = affine.load %[[S]][%[[I]]]
// CHECK-NEXT:      %[[R:.*]] = affine.for %[[J:.*]] = 0 to 32 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[V]], %[[ACC]] fastmath<reassoc> : f32
// CHECK-NEXT:        affine.yield %[[N]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      affine.store %[[R]], %[[S]][%[[I]]]
func.func @row_sum(%x: memref<16x32xf32>, %s: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j] : memref<16x32xf32>
      %o = affine.load %s[%i] : memref<16xf32>
      %n = arith.addf %v, %o : f32
      affine.store %n, %s[%i] : memref<16xf32>
    }
  }
  return
}

// -----

// A full reduction into a 0-d buffer climbs out of both loops. A max is not
// marked (it is associative already).
// CHECK-LABEL: func @full_max
// CHECK:         %[[INIT:.*]] = affine.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:    %[[R:.*]] = affine.for %{{.*}} = 0 to 8 iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:      %[[R2:.*]] = affine.for %{{.*}} = 0 to 4 iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK:             arith.maximumf %{{.*}}, %[[B]] : f32
// CHECK:           affine.yield %[[R2]]
// CHECK:         affine.store %[[R]], %{{.*}}[] : memref<f32>
func.func @full_max(%x: memref<8x4xf32>, %m: memref<f32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %x[%i, %j] : memref<8x4xf32>
      %o = affine.load %m[] : memref<f32>
      %n = arith.maximumf %v, %o : f32
      affine.store %n, %m[] : memref<f32>
    }
  }
  return
}

// -----

// The loop also reads the buffer elsewhere (%s[%j]): the accumulator's
// element may be one of them, so it stays in memory.
// CHECK-LABEL: func @other_access_to_the_buffer
// CHECK-NOT:     iter_args
func.func @other_access_to_the_buffer(%s: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %v = affine.load %s[%j] : memref<16xf32>
      %o = affine.load %s[%i] : memref<16xf32>
      %n = arith.addf %v, %o : f32
      affine.store %n, %s[%i] : memref<16xf32>
    }
  }
  return
}

// -----

// Through a view, the accumulator could overlap the other buffer: kept.
// CHECK-LABEL: func @view_of_a_buffer
// CHECK-NOT:     iter_args
func.func @view_of_a_buffer(%x: memref<32xf32>, %s: memref<16xf32>) {
  %v = memref.subview %x[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %v[%j] : memref<16xf32, strided<[1]>>
      %o = affine.load %s[%i] : memref<16xf32>
      %n = arith.addf %a, %o : f32
      affine.store %n, %s[%i] : memref<16xf32>
    }
  }
  return
}

// -----

// Stored before it is loaded, the value is not carried from one iteration
// to the next: nothing to promote.
// CHECK-LABEL: func @store_before_load
// CHECK-NOT:     iter_args
func.func @store_before_load(%x: memref<16xf32>, %s: memref<1xf32>, %out: memref<16xf32>) {
  affine.for %j = 0 to 16 {
    %v = affine.load %x[%j] : memref<16xf32>
    affine.store %v, %s[0] : memref<1xf32>
    %o = affine.load %s[0] : memref<1xf32>
    affine.store %o, %out[%j] : memref<16xf32>
  }
  return
}
