// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @add
// CHECK: PASS @scaled_sub
// CHECK: PASS @row_sum_i32
// CHECK: PASS @uses_helper
// Covers: a module with several independent public functions of different element types and shapes, one of which calls a private helper via func.call.
module {
  func.func @add(%a: tensor<33x17xf32>, %b: tensor<33x17xf32>) -> tensor<33x17xf32> {
    %e = tensor.empty() : tensor<33x17xf32>
    %r = linalg.map { arith.addf } ins(%a, %b : tensor<33x17xf32>, tensor<33x17xf32>) outs(%e : tensor<33x17xf32>)
    return %r : tensor<33x17xf32>
  }

  func.func @scaled_sub(%a: tensor<65xf32>, %b: tensor<65xf32>) -> tensor<65xf32> {
    %e = tensor.empty() : tensor<65xf32>
    %r = linalg.map ins(%a, %b : tensor<65xf32>, tensor<65xf32>) outs(%e : tensor<65xf32>)
      (%x: f32, %y: f32, %o: f32) {
        %c = arith.constant 1.5 : f32
        %d = arith.subf %x, %y : f32
        %m = arith.mulf %d, %c : f32
        linalg.yield %m : f32
      }
    return %r : tensor<65xf32>
  }

  func.func @row_sum_i32(%x: tensor<9x33xi32>) -> tensor<9xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<9xi32>
    %z = linalg.fill ins(%zero : i32) outs(%e : tensor<9xi32>) -> tensor<9xi32>
    %r = linalg.reduce ins(%x : tensor<9x33xi32>) outs(%z : tensor<9xi32>) dimensions = [1]
      (%in: i32, %acc: i32) {
        %a = arith.addi %in, %acc : i32
        linalg.yield %a : i32
      }
    return %r : tensor<9xi32>
  }

  func.func private @square_helper(%a: tensor<17x19xf32>) -> tensor<17x19xf32> {
    %e = tensor.empty() : tensor<17x19xf32>
    %r = linalg.map { arith.mulf } ins(%a, %a : tensor<17x19xf32>, tensor<17x19xf32>) outs(%e : tensor<17x19xf32>)
    return %r : tensor<17x19xf32>
  }

  func.func @uses_helper(%a: tensor<17x19xf32>, %b: tensor<17x19xf32>) -> tensor<17x19xf32> {
    %sa = func.call @square_helper(%a) : (tensor<17x19xf32>) -> tensor<17x19xf32>
    %sb = func.call @square_helper(%b) : (tensor<17x19xf32>) -> tensor<17x19xf32>
    %e = tensor.empty() : tensor<17x19xf32>
    %r = linalg.map { arith.subf } ins(%sa, %sb : tensor<17x19xf32>, tensor<17x19xf32>) outs(%e : tensor<17x19xf32>)
    return %r : tensor<17x19xf32>
  }
}
