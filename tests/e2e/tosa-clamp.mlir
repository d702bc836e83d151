// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_clamp_f32
// CHECK: PASS @tosa_clamp_i32
// Covers: tosa.clamp on f32 (relu6-style after scaling) and on i32.
module {
  func.func @tosa_clamp_f32(%x: tensor<17x33xf32>) -> tensor<17x33xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %c = "tosa.const"() <{values = dense<8.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %m = tosa.mul %x, %c, %shift : (tensor<17x33xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<17x33xf32>
    %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<17x33xf32>) -> tensor<17x33xf32>
    return %r : tensor<17x33xf32>
  }

  func.func @tosa_clamp_i32(%x: tensor<9x65xi32>) -> tensor<9x65xi32> {
    %r = tosa.clamp %x {min_val = -3 : i32, max_val = 5 : i32} : (tensor<9x65xi32>) -> tensor<9x65xi32>
    return %r : tensor<9x65xi32>
  }
}
