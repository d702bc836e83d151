// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @pad_const
// CHECK: PASS @pad_then_add
// Covers: tensor.pad with a nonzero constant padding value and asymmetric low/high amounts, alone and feeding an elementwise op.
module {
  func.func @pad_const(%x: tensor<17x33xf32>) -> tensor<22x36xf32> {
    %pv = arith.constant -2.5 : f32
    %r = tensor.pad %x low[2, 0] high[3, 3] {
    ^bb0(%i: index, %j: index):
      tensor.yield %pv : f32
    } : tensor<17x33xf32> to tensor<22x36xf32>
    return %r : tensor<22x36xf32>
  }

  func.func @pad_then_add(%x: tensor<3x15x13xf32>, %y: tensor<3x17x17xf32>) -> tensor<3x17x17xf32> {
    %pv = arith.constant 1.75 : f32
    %p = tensor.pad %x low[0, 1, 3] high[0, 1, 1] {
    ^bb0(%i: index, %j: index, %k: index):
      tensor.yield %pv : f32
    } : tensor<3x15x13xf32> to tensor<3x17x17xf32>
    %e = tensor.empty() : tensor<3x17x17xf32>
    %r = linalg.map { arith.addf } ins(%p, %y : tensor<3x17x17xf32>, tensor<3x17x17xf32>) outs(%e : tensor<3x17x17xf32>)
    return %r : tensor<3x17x17xf32>
  }
}
