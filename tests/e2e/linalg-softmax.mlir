// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @softmax_op_last_axis
// CHECK: PASS @softmax_op_first_axis
// Covers: the linalg.softmax op itself (decomposed in S1 by
// pb-decompose-aggregate-ops), along the last and the first axis.
module {
  func.func @softmax_op_last_axis(%x: tensor<5x33xf32>) -> tensor<5x33xf32> {
    %e = tensor.empty() : tensor<5x33xf32>
    %r = linalg.softmax dimension(1) ins(%x : tensor<5x33xf32>) outs(%e : tensor<5x33xf32>) -> tensor<5x33xf32>
    return %r : tensor<5x33xf32>
  }
  func.func @softmax_op_first_axis(%x: tensor<7x3x9xf32>) -> tensor<7x3x9xf32> {
    %e = tensor.empty() : tensor<7x3x9xf32>
    %r = linalg.softmax dimension(0) ins(%x : tensor<7x3x9xf32>) outs(%e : tensor<7x3x9xf32>) -> tensor<7x3x9xf32>
    return %r : tensor<7x3x9xf32>
  }
}
