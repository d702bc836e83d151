// RUN: pb-opt %s -split-input-file -pb-map-to-gpu | FileCheck %s

// A band of two parallel loops, 64 x 1000 = 250 blocks of 256 threads
// exactly: no guard; the innermost loop's index varies fastest.
// CHECK-LABEL: func @band
// CHECK-DAG:     %[[C250:.*]] = arith.constant 250 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C250]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK:           %[[MUL:.*]] = arith.muli %[[BX]], %{{.*}} overflow<nsw, nuw>
// CHECK:           %[[LIN:.*]] = arith.addi %[[MUL]], %[[TX]] overflow<nsw, nuw>
// CHECK:           %[[I:.*]] = arith.divui %[[LIN]], %{{.*}}
// CHECK:           %[[J:.*]] = arith.remui %[[LIN]], %{{.*}}
// CHECK-NOT:       affine.if
// CHECK:           %[[V:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK:           affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:           gpu.terminator
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @band(%a: memref<64x1000xf32>, %b: memref<64x1000xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 1000 {
      %v = affine.load %a[%i, %j] : memref<64x1000xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %b[%i, %j] : memref<64x1000xf32>
    }
  }
  return
}

// -----

// 33 x 47 iterations (a step and a lower bound on the inner loop) do not
// fill 7 blocks of 256: the excess threads are guarded off. The reduction
// loop inside the band runs in each thread.
// CHECK-LABEL: func @guarded_band
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C7]],
// CHECK:           %[[LIN:.*]] = arith.addi
// CHECK:           %[[Q:.*]] = arith.remui %[[LIN]], %{{.*}}
// CHECK:           %[[T:.*]] = arith.muli %[[Q]], %{{.*}}
// CHECK:           %[[J:.*]] = arith.addi %[[T]], %{{.*}}
// CHECK:           affine.if #{{.*}}()[%[[LIN]]] {
// CHECK:             affine.for %{{.*}} = 0 to 65 iter_args
// CHECK:             affine.store %{{.*}}, %{{.*}}[%{{.*}}, %[[J]] floordiv 2 - 1]
func.func @guarded_band(%a: memref<33x65xf32>, %b: memref<33x47xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 33 {
    affine.for %j = 2 to 96 step 2 {
      %s = affine.for %k = 0 to 65 iter_args(%acc = %zero) -> f32 {
        %v = affine.load %a[%i, %k] : memref<33x65xf32>
        %n = arith.addf %acc, %v : f32
        affine.yield %n : f32
      }
      affine.store %s, %b[%i, (%j - 2) floordiv 2] : memref<33x47xf32>
    }
  }
  return
}

// -----

// A loop carrying a dependence (a running sum) and the store after it run
// on one thread, in one launch; the constant table and the view of the
// output are recomputed in the kernel, which captures only the buffers.
// CHECK-LABEL: func @sequential
// CHECK-SAME:    (%[[A:.*]]: memref<16xf32>, %[[B:.*]]: memref<17xf32>)
// CHECK-NOT:     memref.get_global
// CHECK-NOT:     memref.subview
// CHECK-NOT:     arith.constant 256
// CHECK:         gpu.launch
// CHECK-NOT:       arith.divui
// CHECK-DAG:       memref.get_global @table
// CHECK-DAG:       memref.subview %[[B]][1] [16] [1]
// CHECK:           affine.for %{{.*}} = 0 to 15 {
// CHECK:           affine.store
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @sequential(%a: memref<16xf32>, %b: memref<17xf32>) {
  %t = memref.get_global @table : memref<4xf32>
  %out = memref.subview %b[1] [16] [1] : memref<17xf32> to memref<16xf32, strided<[1], offset: 1>>
  affine.for %i = 0 to 15 {
    %p = affine.load %out[%i] : memref<16xf32, strided<[1], offset: 1>>
    %v = affine.load %a[%i] : memref<16xf32>
    %s = arith.addf %p, %v : f32
    affine.store %s, %out[%i + 1] : memref<16xf32, strided<[1], offset: 1>>
  }
  %w = affine.load %t[3] : memref<4xf32>
  affine.store %w, %b[0] : memref<17xf32>
  return
}

// -----

// A scratch buffer on the host stack becomes a device allocation, freed
// before the return; allocations stay outside the kernels.
// CHECK-LABEL: func @scratch
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         gpu.launch
// CHECK:           affine.store %{{.*}}, %[[BUF]]
// CHECK:         gpu.launch
// CHECK:           affine.load %[[BUF]]
// CHECK:         memref.dealloc %[[BUF]]
// CHECK-NEXT:    return
func.func @scratch(%a: memref<8xf32>, %b: memref<8xf32>) {
  %buf = memref.alloca() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32>
    affine.store %v, %buf[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %buf[7 - %i] : memref<8xf32>
    affine.store %v, %b[%i] : memref<8xf32>
  }
  return
}

// -----

// Sequential work is launched where the last of it was: an allocation the
// host makes between a scalar read and the control flow that uses both
// stays before the launch.
// CHECK-LABEL: func @sequential_work_around_an_allocation
// CHECK:         %[[ALLOC:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load
// CHECK:           scf.if
// CHECK:             affine.store %{{.*}}, %[[ALLOC]]
// CHECK:         memref.dealloc %[[ALLOC]]
func.func @sequential_work_around_an_allocation(%p: memref<f32>, %b: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.load %p[] : memref<f32>
  %positive = arith.cmpf ogt, %v, %zero : f32
  %alloc = memref.alloc() : memref<4xf32>
  scf.if %positive {
    affine.for %i = 0 to 4 {
      affine.store %v, %alloc[%i] : memref<4xf32>
    }
  }
  affine.for %i = 0 to 4 {
    %w = affine.load %alloc[%i] : memref<4xf32>
    affine.store %w, %b[%i] : memref<4xf32>
  }
  memref.dealloc %alloc : memref<4xf32>
  return
}

// -----

// Threads come in whole warps of the machine model's chip: 20 iterations
// take one wavefront of 64 on CDNA (gfx90a), one warp of 32 elsewhere.
// CHECK-LABEL: func @band_of_twenty_on_cdna
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]],
module attributes {pb.machine = {target = "amdgpu", chip = "gfx90a"}} {
  func.func @band_of_twenty_on_cdna(%a: memref<20xf32>) {
    affine.for %i = 0 to 20 {
      %v = affine.load %a[%i] : memref<20xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %a[%i] : memref<20xf32>
    }
    return
  }
}
