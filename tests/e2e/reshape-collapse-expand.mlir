// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @collapse_reduce
// CHECK: PASS @expand_add
// CHECK: PASS @collapse_expand_roundtrip
// Covers: tensor.collapse_shape and tensor.expand_shape, each feeding or fed by linalg compute, and a collapse->expand into a different factorization.
module {
  func.func @collapse_reduce(%x: tensor<4x6x17xf32>) -> tensor<24xf32> {
    %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x6x17xf32> into tensor<24x17xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<24xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<24xf32>) -> tensor<24xf32>
    %r = linalg.reduce ins(%c : tensor<24x17xf32>) outs(%z : tensor<24xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    return %r : tensor<24xf32>
  }

  func.func @expand_add(%x: tensor<33x64xf32>, %y: tensor<33x8x8xf32>) -> tensor<33x8x8xf32> {
    %ex = tensor.expand_shape %x [[0], [1, 2]] output_shape [33, 8, 8] : tensor<33x64xf32> into tensor<33x8x8xf32>
    %e = tensor.empty() : tensor<33x8x8xf32>
    %r = linalg.map { arith.addf } ins(%ex, %y : tensor<33x8x8xf32>, tensor<33x8x8xf32>) outs(%e : tensor<33x8x8xf32>)
    return %r : tensor<33x8x8xf32>
  }

  func.func @collapse_expand_roundtrip(%x: tensor<6x10x17xf32>) -> tensor<3x20x17xf32> {
    %e = tensor.empty() : tensor<6x10x17xf32>
    %n = linalg.map { arith.negf } ins(%x : tensor<6x10x17xf32>) outs(%e : tensor<6x10x17xf32>)
    %c = tensor.collapse_shape %n [[0, 1], [2]] : tensor<6x10x17xf32> into tensor<60x17xf32>
    %r = tensor.expand_shape %c [[0, 1], [2]] output_shape [3, 20, 17] : tensor<60x17xf32> into tensor<3x20x17xf32>
    return %r : tensor<3x20x17xf32>
  }
}
