// RUN: pb-opt %s -split-input-file -pb-interleave-math-loops -mlir-print-local-scope | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-interleave-math-loops=min-trip-count=8 -mlir-print-local-scope | FileCheck %s --check-prefix=SHORT

// A loop computing exp on f32 scalars: interleave count 4 for LLVM's
// vectorizer, as the lowering to LLVM's loop metadata reads it.
// CHECK-LABEL: func @exp_row
// CHECK:         scf.for
// CHECK:           math.exp
// CHECK:         } {loop_annotation = #llvm.loop_annotation<interleave = <count = 4 : i32>>}
func.func @exp_row(%a: memref<1024xf32>, %b: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<1024xf32>
    %y = math.exp %x : f32
    memref.store %y, %b[%i] : memref<1024xf32>
  }
  return
}

// -----

// log1p and erf: 4 too; with tanh in the same loop, 2 (tanh's expansion
// spills at 4). Bounds unknown at compile time: annotated.
// CHECK-LABEL: func @log_erf_tanh
// CHECK:         scf.for
// CHECK:         } {loop_annotation = #llvm.loop_annotation<interleave = <count = 4 : i32>>}
// CHECK:         scf.for
// CHECK:         } {loop_annotation = #llvm.loop_annotation<interleave = <count = 2 : i32>>}
func.func @log_erf_tanh(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = math.log1p %x : f32
    %z = math.erf %y : f32
    memref.store %z, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = math.exp %x : f32
    %z = math.tanh %y : f32
    memref.store %z, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Left alone: arithmetic only; exp on f64 (libm, not the expansion); a loop
// on vectors (PolyBlocks vectorized it); a loop with a region inside, and
// the outer loop of a nest (the inner one is annotated).
// CHECK-LABEL: func @left_alone
// CHECK-NOT:     loop_annotation
// CHECK:         math.exp %{{.*}} : f64
// CHECK-NOT:     loop_annotation
// CHECK:         math.exp %{{.*}} : vector<8xf32>
// CHECK-NOT:     loop_annotation
// CHECK:         scf.if
// CHECK-NOT:     loop_annotation
// CHECK:         math.log
// CHECK-NEXT:    memref.store
// CHECK-NEXT:  } {loop_annotation = #llvm.loop_annotation<interleave = <count = 4 : i32>>}
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @left_alone(%a: memref<1024xf32>, %d: memref<1024xf64>, %m: memref<64x64xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 1024 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<1024xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %a[%i] : memref<1024xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %d[%i] : memref<1024xf64>
    %y = math.exp %x : f64
    memref.store %y, %d[%i] : memref<1024xf64>
  }
  scf.for %i = %c0 to %n step %c8 {
    %x = vector.load %a[%i] : memref<1024xf32>, vector<8xf32>
    %y = math.exp %x : vector<8xf32>
    vector.store %y, %a[%i] : memref<1024xf32>, vector<8xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.if %p {
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = math.exp %x : f32
      memref.store %y, %a[%i] : memref<1024xf32>
    }
  }
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = memref.load %m[%i, %j] : memref<64x64xf32>
      %y = math.log %x : f32
      memref.store %y, %m[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// -----

// Fewer than min-trip-count (64) iterations: not enough to fill four
// vectors twice; annotated when the option allows 16.
// CHECK-LABEL: func @short_row
// CHECK-NOT:     loop_annotation
// SHORT-LABEL: func @short_row
// SHORT:         } {loop_annotation = #llvm.loop_annotation<interleave = <count = 4 : i32>>}
func.func @short_row(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = math.exp %x : f32
    memref.store %y, %a[%i] : memref<16xf32>
  }
  return
}
