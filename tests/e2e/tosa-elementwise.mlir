// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_mul_add_broadcast
// CHECK: PASS @tosa_unary_chain
// Covers: TOSA elementwise ops with rank-preserving broadcasting (tosa.mul with shift operand, tosa.add, tosa.sub, tosa.maximum) and unary chain (tosa.exp, tosa.log, tosa.tanh, tosa.sigmoid, tosa.abs).
module {
  func.func @tosa_mul_add_broadcast(%x: tensor<17x65xf32>, %a: tensor<1x65xf32>, %b: tensor<17x1xf32>) -> tensor<17x65xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %m = tosa.mul %x, %a, %shift : (tensor<17x65xf32>, tensor<1x65xf32>, tensor<1xi8>) -> tensor<17x65xf32>
    %s = tosa.add %m, %b : (tensor<17x65xf32>, tensor<17x1xf32>) -> tensor<17x65xf32>
    %d = tosa.sub %s, %x : (tensor<17x65xf32>, tensor<17x65xf32>) -> tensor<17x65xf32>
    %r = tosa.maximum %d, %zero : (tensor<17x65xf32>, tensor<1x1xf32>) -> tensor<17x65xf32>
    return %r : tensor<17x65xf32>
  }

  func.func @tosa_unary_chain(%x: tensor<5x17x33xf32>) -> tensor<5x17x33xf32> {
    %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %e = tosa.exp %x : (tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    %ep1 = tosa.add %e, %one : (tensor<5x17x33xf32>, tensor<1x1x1xf32>) -> tensor<5x17x33xf32>
    %sp = tosa.log %ep1 : (tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    %t = tosa.tanh %sp : (tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    %sg = tosa.sigmoid %x : (tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    %ab = tosa.abs %t : (tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    %r = tosa.add %ab, %sg : (tensor<5x17x33xf32>, tensor<5x17x33xf32>) -> tensor<5x17x33xf32>
    return %r : tensor<5x17x33xf32>
  }
}
