// RUN: pb-opt %s -split-input-file -pb-scalar-replacement | FileCheck %s
//
// The rules are upstream affine-scalrep's: on every function here both
// passes give the same program.
// RUN: pb-opt %s -split-input-file -pb-scalar-replacement -o %t.ours
// RUN: pb-opt %s -split-input-file -affine-scalrep -o %t.upstream
// RUN: diff %t.upstream %t.ours

// A store forwarded to a load of the same element written another way (the
// subscript through an affine.apply); the buffer, left with stores only,
// goes.
// CHECK-LABEL: func @forward_through_apply
// CHECK-SAME:    (%[[X:.*]]: memref<16xf32>, %[[Y:.*]]: memref<16xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         affine.for %[[I:.*]] = 0 to 15 {
// CHECK-NEXT:      %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NOT:       affine.load
// CHECK:           %[[S:.*]] = arith.addf %[[V]], %[[V]]
// CHECK-NEXT:      affine.store %[[S]], %[[Y]][%[[I]]]
// CHECK-NEXT:    }
func.func @forward_through_apply(%x: memref<16xf32>, %y: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  affine.for %i = 0 to 15 {
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %t[%i + 1] : memref<16xf32>
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %w = affine.load %t[%a] : memref<16xf32>
    %s = arith.addf %w, %w : f32
    affine.store %s, %y[%i] : memref<16xf32>
  }
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// Subscripts with the same operands in another order address the same
// element; the first store is overwritten by the second with no read
// between, and the load takes the second's value.
// CHECK-LABEL: func @operands_in_another_order
// CHECK-SAME:    (%[[T:.*]]: memref<8x8xf32>, %[[A:.*]]: f32, %[[B:.*]]: f32,
// CHECK:         affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.store %[[B]], %[[T]][{{.*}}, 0]
// CHECK-NEXT:        arith.mulf %[[B]], %[[B]]
func.func @operands_in_another_order(%t: memref<8x8xf32>, %a: f32, %b: f32, %u: memref<4x4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      affine.store %a, %t[%i + %j, 0] : memref<8x8xf32>
      affine.store %b, %t[%j + %i, 0] : memref<8x8xf32>
      %v = affine.load %t[%j + %i, 0] : memref<8x8xf32>
      %m = arith.mulf %v, %v : f32
      affine.store %m, %u[%i, %j] : memref<4x4xf32>
    }
  }
  return
}

// -----

// A store to an element the subscripts cannot tell apart from the loaded one
// stands between: nothing is forwarded, nothing dropped.
// CHECK-LABEL: func @possibly_overwritten
// CHECK:         affine.store
// CHECK-NEXT:    affine.store
// CHECK-NEXT:    affine.load
func.func @possibly_overwritten(%t: memref<8xf32>, %n: index, %a: f32, %b: f32) -> f32 {
  %c2 = arith.constant 2 : index
  affine.store %a, %t[%c2] : memref<8xf32>
  affine.store %b, %t[%n] : memref<8xf32>
  %v = affine.load %t[%c2] : memref<8xf32>
  return %v : f32
}

// -----

// A reduction's accumulator: the store of one iteration reaches the load of
// the next, which it does not dominate; it stays.
// CHECK-LABEL: func @accumulator_across_iterations
// CHECK:         affine.for
// CHECK-NEXT:      affine.load %{{.*}}[0]
// CHECK-NEXT:      affine.load
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      affine.store
func.func @accumulator_across_iterations(%x: memref<64xf32>, %acc: memref<1xf32>) {
  affine.for %k = 0 to 64 {
    %s = affine.load %acc[0] : memref<1xf32>
    %v = affine.load %x[%k] : memref<64xf32>
    %n = arith.addf %s, %v : f32
    affine.store %n, %acc[0] : memref<1xf32>
  }
  return
}

// -----

// Repeated loads of one element: the first serves the others until a store
// may change it, then the first load after that serves.
// CHECK-LABEL: func @repeated_loads
// CHECK-SAME:    (%[[T:.*]]: memref<8xf32>, %[[U:.*]]: memref<8xf32>, %{{.*}}: f32)
// CHECK:         %[[A:.*]] = affine.load %[[T]][3]
// CHECK-NEXT:    arith.addf %[[A]], %[[A]]
// CHECK-NEXT:    affine.store
// CHECK-NEXT:    %[[B:.*]] = affine.load %[[T]][3]
// CHECK-NEXT:    arith.addf %[[B]], %[[B]]
func.func @repeated_loads(%t: memref<8xf32>, %u: memref<8xf32>, %c: f32) -> (f32, f32) {
  %a0 = affine.load %t[3] : memref<8xf32>
  %a1 = affine.load %t[3] : memref<8xf32>
  %s = arith.addf %a0, %a1 : f32
  affine.store %c, %u[5] : memref<8xf32>
  %b0 = affine.load %t[3] : memref<8xf32>
  %b1 = affine.load %t[3] : memref<8xf32>
  %r = arith.addf %b0, %b1 : f32
  return %s, %r : f32, f32
}

// -----

// A vector store and a scalar load of its first element: different types,
// no forwarding; a vector load of the whole vector takes it.
// CHECK-LABEL: func @vector_store
// CHECK-SAME:    (%[[T:.*]]: memref<16xf32>, %[[V:.*]]: vector<8xf32>)
// CHECK:         affine.vector_store %[[V]], %[[T]][0]
// CHECK-NEXT:    %[[S:.*]] = affine.load %[[T]][0]
// CHECK-NEXT:    return %[[S]], %[[V]]
func.func @vector_store(%t: memref<16xf32>, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  affine.vector_store %v, %t[0] : memref<16xf32>, vector<8xf32>
  %s = affine.load %t[0] : memref<16xf32>
  %w = affine.vector_load %t[0] : memref<16xf32>, vector<8xf32>
  return %s, %w : f32, vector<8xf32>
}

// -----

// Stores in different regions: the inner one does not post-dominate the
// outer one's region, so both stay; the load after the loop reads either.
// CHECK-LABEL: func @store_in_a_loop_does_not_drop_the_first
// CHECK:         affine.store
// CHECK:         affine.for
// CHECK-NEXT:      affine.store
// CHECK:         affine.load
func.func @store_in_a_loop_does_not_drop_the_first(%t: memref<4xf32>, %a: f32, %b: f32, %n: index) -> f32 {
  affine.store %a, %t[1] : memref<4xf32>
  affine.for %i = 0 to %n {
    affine.store %b, %t[1] : memref<4xf32>
  }
  %v = affine.load %t[1] : memref<4xf32>
  return %v : f32
}
