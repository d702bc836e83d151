// RUN: pb-opt %s -split-input-file -pb-map-to-gpu -verify-diagnostics

// Control flow that chooses between buffers cannot become a kernel: the host
// manages device buffers.
func.func @if_choosing_a_buffer(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error@+1 {{'scf.if' op cannot run on a GPU target: control flow that chooses between buffers would run on the device, but buffers are managed by the host (compile it for the CPU)}}
  %r = scf.if %c -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Nor can control flow that allocates.
func.func @loop_allocating(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{'scf.for' op cannot run on a GPU target: control flow that allocates or frees buffers would run on the device, but buffers are managed by the host (compile it for the CPU)}}
  scf.for %i = %c0 to %c3 step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %t, %out : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}
