// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_transpose_3d
// CHECK: PASS @tosa_transpose_4d_add
// Covers: tosa.transpose with 3-D permutation [2, 0, 1] and a 4-D NHWC->NCHW permutation followed by tosa.add.
module {
  func.func @tosa_transpose_3d(%x: tensor<5x17x33xf32>) -> tensor<33x5x17xf32> {
    %r = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<5x17x33xf32>) -> tensor<33x5x17xf32>
    return %r : tensor<33x5x17xf32>
  }

  func.func @tosa_transpose_4d_add(%x: tensor<2x9x11x6xf32>, %y: tensor<2x6x9x11xf32>) -> tensor<2x6x9x11xf32> {
    %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x9x11x6xf32>) -> tensor<2x6x9x11xf32>
    %r = tosa.add %t, %y : (tensor<2x6x9x11xf32>, tensor<2x6x9x11xf32>) -> tensor<2x6x9x11xf32>
    return %r : tensor<2x6x9x11xf32>
  }
}
