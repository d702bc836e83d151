// RUN: pb-opt %s -split-input-file -pb-static-arenas | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-static-arenas=min-kib=64 | FileCheck %s --check-prefix=SMALL

// The arena pb-share-buffers made becomes a zero-filled global and a flag:
// a call takes the global when the flag was 0, else allocates its own, and
// at the end gives the global back or frees its own.
// CHECK:       memref.global "private" @__pb_arena_chain : memref<8192xi8> = uninitialized {alignment = 64 : i64}
// CHECK:       memref.global "private" @__pb_arena_chain_taken : memref<1xi32> = dense<0>
// CHECK-LABEL: func @chain
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[FREE:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[TAKEN:.*]] = arith.constant 1 : i32
// CHECK:         %[[FLAG:.*]] = memref.get_global @__pb_arena_chain_taken : memref<1xi32>
// CHECK:         %[[WAS:.*]] = memref.atomic_rmw assign %[[TAKEN]], %[[FLAG]][%[[C0]]] : (i32, memref<1xi32>) -> i32
// CHECK:         %[[OWN:.*]] = arith.cmpi eq, %[[WAS]], %[[FREE]] : i32
// CHECK:         %[[ARENA:.*]] = scf.if %[[OWN]] -> (memref<8192xi8>) {
// CHECK-NEXT:      %[[G:.*]] = memref.get_global @__pb_arena_chain : memref<8192xi8>
// CHECK-NEXT:      scf.yield %[[G]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// CHECK-NEXT:      scf.yield %[[H]]
// CHECK-NEXT:    }
// CHECK:         memref.view %[[ARENA]]
// CHECK:         scf.if %[[OWN]] {
// CHECK-NEXT:      memref.atomic_rmw assign %[[FREE]], %[[FLAG]][%[[C0]]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.dealloc %[[ARENA]] : memref<8192xi8>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// An arena under min-kib stays on the heap, its mark dropped.
// SMALL-NOT:   memref.global
// SMALL-LABEL: func @chain
// SMALL:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// SMALL:         memref.dealloc %[[ARENA]]
func.func @chain(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64, pb.arena} : memref<8192xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<8192xi8> to memref<1024xf32>
  affine.for %i = 0 to 1024 {
    %v = affine.load %x[%i] : memref<1024xf32>
    affine.store %v, %a[%i] : memref<1024xf32>
  }
  affine.for %i = 0 to 1024 {
    %v = affine.load %a[%i] : memref<1024xf32>
    affine.store %v, %y[%i] : memref<1024xf32>
  }
  memref.dealloc %arena : memref<8192xi8>
  return
}

// -----

// Buffers of other passes, and a name already taken, are left alone and
// renamed around.
// CHECK:       memref.global "private" @__pb_arena_f : memref<4xi8>
// CHECK:       memref.global "private" @[[NAME:__pb_arena_f_[0-9]+]] : memref<256xi8> = uninitialized
// CHECK-LABEL: func @f
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK:         memref.get_global @[[NAME]] : memref<256xi8>
memref.global "private" @__pb_arena_f : memref<4xi8> = uninitialized
func.func @f(%y: memref<16xf32>) {
  %other = memref.alloc() : memref<16xf32>
  %arena = memref.alloc() {alignment = 64 : i64, pb.arena} : memref<256xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<16xf32>
  memref.copy %a, %other : memref<16xf32> to memref<16xf32>
  memref.copy %other, %y : memref<16xf32> to memref<16xf32>
  memref.dealloc %other : memref<16xf32>
  memref.dealloc %arena : memref<256xi8>
  return
}
