// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_reshape_collapse
// CHECK: PASS @tosa_reshape_expand_add
// CHECK: PASS @tosa_reshape_regroup
// Covers: tosa.reshape (with tosa.const_shape) collapsing, expanding, and regrouping dimensions (non-trivial reassociation).
module {
  func.func @tosa_reshape_collapse(%x: tensor<4x6x17xf32>) -> tensor<24x17xf32> {
    %s = tosa.const_shape {values = dense<[24, 17]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %r = tosa.reshape %x, %s : (tensor<4x6x17xf32>, !tosa.shape<2>) -> tensor<24x17xf32>
    return %r : tensor<24x17xf32>
  }

  func.func @tosa_reshape_expand_add(%x: tensor<33x64xf32>, %y: tensor<33x8x8xf32>) -> tensor<33x8x8xf32> {
    %s = tosa.const_shape {values = dense<[33, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %e = tosa.reshape %x, %s : (tensor<33x64xf32>, !tosa.shape<3>) -> tensor<33x8x8xf32>
    %r = tosa.add %e, %y : (tensor<33x8x8xf32>, tensor<33x8x8xf32>) -> tensor<33x8x8xf32>
    return %r : tensor<33x8x8xf32>
  }

  func.func @tosa_reshape_regroup(%x: tensor<6x10x17xf32>) -> tensor<3x20x17xf32> {
    %s = tosa.const_shape {values = dense<[3, 20, 17]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %r = tosa.reshape %x, %s : (tensor<6x10x17xf32>, !tosa.shape<3>) -> tensor<3x20x17xf32>
    return %r : tensor<3x20x17xf32>
  }
}
