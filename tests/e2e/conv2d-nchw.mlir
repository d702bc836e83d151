// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @conv2d_nchw
// CHECK: PASS @conv2d_nchw_s2
// Covers: linalg.conv_2d_nchw_fchw, stride 1 and stride 2 (batch 2 for the strided one).
module {
  func.func @conv2d_nchw(%in: tensor<1x6x17x15xf32>, %f: tensor<10x6x3x3xf32>) -> tensor<1x10x15x13xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x10x15x13xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x15x13xf32>) -> tensor<1x10x15x13xf32>
    %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%in, %f : tensor<1x6x17x15xf32>, tensor<10x6x3x3xf32>) outs(%init : tensor<1x10x15x13xf32>) -> tensor<1x10x15x13xf32>
    return %r : tensor<1x10x15x13xf32>
  }

  func.func @conv2d_nchw_s2(%in: tensor<2x4x19x17xf32>, %f: tensor<7x4x3x3xf32>) -> tensor<2x7x9x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x7x9x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x9x8xf32>) -> tensor<2x7x9x8xf32>
    %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%in, %f : tensor<2x4x19x17xf32>, tensor<7x4x3x3xf32>) outs(%init : tensor<2x7x9x8xf32>) -> tensor<2x7x9x8xf32>
    return %r : tensor<2x7x9x8xf32>
  }
}
