// RUN: pb-opt %s -split-input-file -pb-share-buffers | FileCheck %s

// Three buffers of 4 KiB, freed at the end as deallocation leaves them:
// %a is last read by the nest that writes %c, so %c takes %a's bytes; %b is
// live with both. The arena holds two buffers, not three.
// CHECK-LABEL: func @chain
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, pb.arena} : memref<8192xi8>
// CHECK:         %[[OA:.*]] = arith.constant 0 : index
// CHECK:         %[[A:.*]] = memref.view %[[ARENA]][%[[OA]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK:         %[[OB:.*]] = arith.constant 4096 : index
// CHECK:         %[[B:.*]] = memref.view %[[ARENA]][%[[OB]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK:         %[[OC:.*]] = arith.constant 0 : index
// CHECK:         %[[C:.*]] = memref.view %[[ARENA]][%[[OC]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func @chain(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  affine.for %i = 0 to 1024 {
    %v = affine.load %x[%i] : memref<1024xf32>
    affine.store %v, %a[%i] : memref<1024xf32>
  }
  %b = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  affine.for %i = 0 to 1024 {
    %v = affine.load %a[%i] : memref<1024xf32>
    affine.store %v, %b[%i] : memref<1024xf32>
  }
  %c = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  affine.for %i = 0 to 1024 {
    %v = affine.load %b[%i] : memref<1024xf32>
    affine.store %v, %c[%i] : memref<1024xf32>
  }
  affine.for %i = 0 to 1024 {
    %v = affine.load %c[%i] : memref<1024xf32>
    %w = affine.load %b[%i] : memref<1024xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %y[%i] : memref<1024xf32>
  }
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  return
}

// -----

// A buffer read through a subview is live until the subview's last use;
// offsets are 64-byte aligned (a 100-byte buffer takes 128).
// CHECK-LABEL: func @through_subview
// CHECK:         memref.alloc() {alignment = 64 : i64, pb.arena} : memref<228xi8>
// CHECK:         arith.constant 0 : index
// CHECK:         memref.view {{.*}} to memref<25xf32>
// CHECK:         arith.constant 128 : index
// CHECK:         memref.view {{.*}} to memref<25xf32>
func.func @through_subview(%x: memref<25xf32>, %y: memref<5xf32>) {
  %a = memref.alloc() : memref<25xf32>
  memref.copy %x, %a : memref<25xf32> to memref<25xf32>
  %s = memref.subview %a[0] [5] [1] : memref<25xf32> to memref<5xf32, strided<[1]>>
  %b = memref.alloc() : memref<25xf32>
  memref.copy %x, %b : memref<25xf32> to memref<25xf32>
  memref.copy %s, %y : memref<5xf32, strided<[1]>> to memref<5xf32>
  memref.dealloc %a : memref<25xf32>
  memref.dealloc %b : memref<25xf32>
  return
}

// -----

// Left alone: a single buffer; a buffer never freed; dynamic shapes.
// CHECK-LABEL: func @left_alone
// CHECK-NOT:     memref.view
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK:         memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         memref.alloc() : memref<8xf32>
func.func @left_alone(%n: index, %x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %kept = memref.alloc() : memref<8xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// -----

// Buffers of a loop's body (pb-tile-batch's loop over images), allocated
// and freed in each iteration, share the function's arena: the body counts
// as placed before the loop, so %f, allocated before the loop and read in
// it and after it, is live through all of it and keeps bytes of its own;
// %t1 and %t2 of the body take the same offsets in every iteration, %t2
// reusing none of %t1's (both live at the end of the body, where
// deallocation leaves them).
// CHECK-LABEL: func @loop_body
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, pb.arena} : memref<12288xi8>
// CHECK:         memref.view %[[ARENA]]
// CHECK:         scf.for
// CHECK:           memref.view %[[ARENA]]
// CHECK:           memref.view %[[ARENA]]
// CHECK-NOT:       memref.dealloc
// CHECK:         }
// CHECK:         memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func @loop_body(%x: memref<1024xf32>, %y: memref<4x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  affine.for %i = 0 to 1024 {
    %v = affine.load %x[%i] : memref<1024xf32>
    affine.store %v, %f[%i] : memref<1024xf32>
  }
  scf.for %n = %c0 to %c4 step %c1 {
    %t1 = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    affine.for %i = 0 to 1024 {
      %v = affine.load %f[%i] : memref<1024xf32>
      affine.store %v, %t1[%i] : memref<1024xf32>
    }
    %t2 = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    affine.for %i = 0 to 1024 {
      %v = affine.load %t1[%i] : memref<1024xf32>
      affine.store %v, %t2[%i] : memref<1024xf32>
    }
    %row = memref.subview %y[%n, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    affine.for %i = 0 to 1024 {
      %v = affine.load %t2[%i] : memref<1024xf32>
      affine.store %v, %row[%i] : memref<1024xf32, strided<[1], offset: ?>>
    }
    memref.dealloc %t1 : memref<1024xf32>
    memref.dealloc %t2 : memref<1024xf32>
  }
  affine.for %i = 0 to 1024 {
    %v = affine.load %f[%i] : memref<1024xf32>
    affine.store %v, %x[%i] : memref<1024xf32>
  }
  memref.dealloc %f : memref<1024xf32>
  return
}
