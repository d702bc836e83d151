// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_matmul_f32
// CHECK: PASS @tosa_matmul_i8
// Covers: tosa.matmul (batched 3-D) in f32 and in i8 with i32 accumulation and zero zero-points.
module {
  func.func @tosa_matmul_f32(%a: tensor<2x17x33xf32>, %b: tensor<2x33x29xf32>) -> tensor<2x17x29xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.matmul %a, %b, %zp, %zp : (tensor<2x17x33xf32>, tensor<2x33x29xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x17x29xf32>
    return %r : tensor<2x17x29xf32>
  }

  func.func @tosa_matmul_i8(%a: tensor<1x33x65xi8>, %b: tensor<1x65x17xi8>) -> tensor<1x33x17xi32> {
    %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %r = tosa.matmul %a, %b, %zp, %zp : (tensor<1x33x65xi8>, tensor<1x65x17xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x33x17xi32>
    return %r : tensor<1x33x17xi32>
  }
}
