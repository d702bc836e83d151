// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @gelu_erf
// CHECK: PASS @gelu_tanh
// CHECK: PASS @silu
// Covers: activation functions: exact erf-based GELU 0.5*x*(1+erf(x/sqrt(2))), tanh-approximate GELU, and SiLU x*sigmoid(x) via exp.
module {
  func.func @gelu_erf(%x: tensor<33x96xf32>) -> tensor<33x96xf32> {
    %e = tensor.empty() : tensor<33x96xf32>
    %r = linalg.map ins(%x : tensor<33x96xf32>) outs(%e : tensor<33x96xf32>)
      (%v: f32, %o: f32) {
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %rsqrt2 = arith.constant 0.707106781 : f32
        %s = arith.mulf %v, %rsqrt2 : f32
        %er = math.erf %s : f32
        %p = arith.addf %er, %one : f32
        %h = arith.mulf %v, %half : f32
        %g = arith.mulf %h, %p : f32
        linalg.yield %g : f32
      }
    return %r : tensor<33x96xf32>
  }

  func.func @gelu_tanh(%x: tensor<17x65xf32>) -> tensor<17x65xf32> {
    %e = tensor.empty() : tensor<17x65xf32>
    %r = linalg.map ins(%x : tensor<17x65xf32>) outs(%e : tensor<17x65xf32>)
      (%v: f32, %o: f32) {
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %k = arith.constant 0.797884583 : f32
        %c = arith.constant 0.044715 : f32
        %v2 = arith.mulf %v, %v : f32
        %v3 = arith.mulf %v2, %v : f32
        %cv3 = arith.mulf %v3, %c : f32
        %in = arith.addf %v, %cv3 : f32
        %arg = arith.mulf %in, %k : f32
        %t = math.tanh %arg : f32
        %p = arith.addf %t, %one : f32
        %h = arith.mulf %v, %half : f32
        %g = arith.mulf %h, %p : f32
        linalg.yield %g : f32
      }
    return %r : tensor<17x65xf32>
  }

  func.func @silu(%x: tensor<9x129xf32>) -> tensor<9x129xf32> {
    %e = tensor.empty() : tensor<9x129xf32>
    %r = linalg.map ins(%x : tensor<9x129xf32>) outs(%e : tensor<9x129xf32>)
      (%v: f32, %o: f32) {
        %one = arith.constant 1.0 : f32
        %n = arith.negf %v : f32
        %ex = math.exp %n : f32
        %d = arith.addf %ex, %one : f32
        %s = arith.divf %v, %d : f32
        linalg.yield %s : f32
      }
    return %r : tensor<9x129xf32>
  }
}
