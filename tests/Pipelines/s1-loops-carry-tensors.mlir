// RUN: %pb-opt %s -split-input-file --pb-s1-pipeline | FileCheck %s

// Loops of input programs through S1: a tensor carried by a loop keeps one
// buffer that the body updates in place, allocated once before the loop.

// CHECK-LABEL: func.func @for_loop_updates_one_buffer
// CHECK:         %[[BUF:.*]] = memref.alloc()
// CHECK:         memref.copy %{{.*}}, %[[BUF]]
// CHECK:         scf.for
// CHECK-NOT:       memref.alloc
// CHECK:           linalg.exp ins(%[[BUF]] : memref<8xf32>) outs(%[[BUF]] : memref<8xf32>)
// CHECK:         }
// CHECK:         memref.copy %[[BUF]], %{{.*}}
// CHECK:         memref.dealloc %[[BUF]]
func.func @for_loop_updates_one_buffer(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %x) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %n = linalg.exp ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Tensors that change places every iteration cannot be updated in place:
// each iteration allocates, and the previous iteration's buffers are freed
// by code inlined from the deallocation helper (no call survives S1).
// CHECK-LABEL: func.func @swapping_loop_allocates_and_frees
// CHECK:         scf.for
// CHECK:           memref.alloc()
// CHECK:           memref.dealloc
// CHECK-NOT:     call @
// CHECK:         return
// CHECK-NOT:     func.func private @dealloc_helper
func.func @swapping_loop_allocates_and_frees(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s, %x : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}
