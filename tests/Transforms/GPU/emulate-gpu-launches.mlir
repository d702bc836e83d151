// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-emulate-gpu-launches | FileCheck %s

// Blocks outside threads, z outermost; ids and sizes become loop indices
// and bounds.
// CHECK-LABEL: func @launch
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C1]] step
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[C1]] step
// CHECK:             scf.for %[[BX:.*]] = %[[C0]] to %[[C4]] step
// CHECK:               scf.for %{{.*}} = %[[C0]] to %[[C1]] step
// CHECK:                 scf.for %{{.*}} = %[[C0]] to %[[C1]] step
// CHECK:                   scf.for %[[TX:.*]] = %[[C0]] to %[[C64]] step
// CHECK:                     %[[M:.*]] = arith.muli %[[BX]], %[[C64]]
// CHECK:                     %[[I:.*]] = arith.addi %[[M]], %[[TX]]
// CHECK:                     memref.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NOT:     gpu.launch
func.func @launch(%a: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %m = arith.muli %bx, %sx : index
    %i = arith.addi %m, %tx : index
    memref.store %zero, %a[%i] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Threads that synchronize cannot run one after the other.
func.func @barrier(%a: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{'gpu.barrier' op lets threads cooperate; pb-emulate-gpu-launches runs only launches of independent threads}}
    gpu.barrier
    gpu.terminator
  }
  return
}
