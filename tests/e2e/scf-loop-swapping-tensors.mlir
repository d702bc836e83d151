// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @for_loop_swapping_tensors
// Covers: an scf.for whose two carried tensors change places every
// iteration: neither can be updated in place, so each iteration allocates
// (and frees the buffers of the previous one).
// Not for GPU targets: the loop allocates and chooses buffers on the device
// (tests/gpu/control-flow-allocating.test checks the error).
module {
  func.func @for_loop_swapping_tensors(%a: tensor<5x6xf32>, %b: tensor<5x6xf32>) -> (tensor<5x6xf32>, tensor<5x6xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %y = %b) -> (tensor<5x6xf32>, tensor<5x6xf32>) {
      %e = tensor.empty() : tensor<5x6xf32>
      %s = linalg.add ins(%x, %y : tensor<5x6xf32>, tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
      scf.yield %s, %x : tensor<5x6xf32>, tensor<5x6xf32>
    }
    return %r#0, %r#1 : tensor<5x6xf32>, tensor<5x6xf32>
  }
}
