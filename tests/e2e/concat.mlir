// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @concat_axis0
// CHECK: PASS @concat_axis1_three
// Covers: tensor.concat along axis 0 of two tensors and along axis 1 of three tensors (one of them computed).
module {
  func.func @concat_axis0(%a: tensor<17x33xf32>, %b: tensor<9x33xf32>) -> tensor<26x33xf32> {
    %r = tensor.concat dim(0) %a, %b : (tensor<17x33xf32>, tensor<9x33xf32>) -> tensor<26x33xf32>
    return %r : tensor<26x33xf32>
  }

  func.func @concat_axis1_three(%a: tensor<5x17x7xf32>, %b: tensor<5x3x7xf32>, %c: tensor<5x11x7xf32>) -> tensor<5x31x7xf32> {
    %e = tensor.empty() : tensor<5x3x7xf32>
    %b2 = linalg.map { arith.mulf } ins(%b, %b : tensor<5x3x7xf32>, tensor<5x3x7xf32>) outs(%e : tensor<5x3x7xf32>)
    %r = tensor.concat dim(1) %a, %b2, %c : (tensor<5x17x7xf32>, tensor<5x3x7xf32>, tensor<5x11x7xf32>) -> tensor<5x31x7xf32>
    return %r : tensor<5x31x7xf32>
  }
}
