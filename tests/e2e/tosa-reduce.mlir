// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_reduce_sum_axis1
// CHECK: PASS @tosa_reduce_max_axis0
// CHECK: PASS @tosa_reduce_sum_i32_axis2
// Covers: tosa.reduce_sum (f32 axis 1, i32 axis 2) and tosa.reduce_max (f32 axis 0) on 3-D tensors (rank-preserving results).
module {
  func.func @tosa_reduce_sum_axis1(%x: tensor<5x33x17xf32>) -> tensor<5x1x17xf32> {
    %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<5x33x17xf32>) -> tensor<5x1x17xf32>
    return %r : tensor<5x1x17xf32>
  }

  func.func @tosa_reduce_max_axis0(%x: tensor<9x17x33xf32>) -> tensor<1x17x33xf32> {
    %r = tosa.reduce_max %x {axis = 0 : i32} : (tensor<9x17x33xf32>) -> tensor<1x17x33xf32>
    return %r : tensor<1x17x33xf32>
  }

  func.func @tosa_reduce_sum_i32_axis2(%x: tensor<7x9x65xi32>) -> tensor<7x9x1xi32> {
    %r = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<7x9x65xi32>) -> tensor<7x9x1xi32>
    return %r : tensor<7x9x1xi32>
  }
}
