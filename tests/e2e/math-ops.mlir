// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @math_exp_tanh_log_sqrt
// CHECK: PASS @math_misc
// Covers: math dialect ops on f32: exp, tanh, log(x*x + 1), sqrt(x*x + 0.25), rsqrt of a positive value; and sin, cos, absf, floor, log1p(x*x), exp2, erf.
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @math_exp_tanh_log_sqrt(%x: tensor<33x65xf32>) -> (tensor<33x65xf32>, tensor<33x65xf32>) {
    %e0 = tensor.empty() : tensor<33x65xf32>
    %e1 = tensor.empty() : tensor<33x65xf32>
    %r0, %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<33x65xf32>) outs(%e0, %e1 : tensor<33x65xf32>, tensor<33x65xf32>) {
    ^bb0(%v: f32, %o0: f32, %o1: f32):
      %one = arith.constant 1.0 : f32
      %q = arith.constant 0.25 : f32
      %sq = arith.mulf %v, %v : f32
      %p1 = arith.addf %sq, %one : f32
      %lg = math.log %p1 : f32
      %pq = arith.addf %sq, %q : f32
      %rt = math.sqrt %pq : f32
      %ex = math.exp %v : f32
      %th = math.tanh %v : f32
      %a = arith.addf %lg, %rt : f32
      %b = arith.mulf %ex, %th : f32
      %rs = math.rsqrt %p1 : f32
      %c = arith.addf %b, %rs : f32
      linalg.yield %a, %c : f32, f32
    } -> (tensor<33x65xf32>, tensor<33x65xf32>)
    return %r0, %r1 : tensor<33x65xf32>, tensor<33x65xf32>
  }

  func.func @math_misc(%x: tensor<17x64xf32>) -> tensor<17x64xf32> {
    %e = tensor.empty() : tensor<17x64xf32>
    %r = linalg.map ins(%x : tensor<17x64xf32>) outs(%e : tensor<17x64xf32>)
      (%v: f32, %o: f32) {
        %three = arith.constant 3.0 : f32
        %s = math.sin %v : f32
        %c = math.cos %v : f32
        %ab = math.absf %v : f32
        %v3 = arith.mulf %v, %three : f32
        %fl = math.floor %v3 : f32
        %sq = arith.mulf %v, %v : f32
        %l1 = math.log1p %sq : f32
        %e2 = math.exp2 %v : f32
        %er = math.erf %v : f32
        %t0 = arith.addf %s, %c : f32
        %t1 = arith.mulf %t0, %ab : f32
        %t2 = arith.addf %t1, %fl : f32
        %t3 = arith.addf %t2, %l1 : f32
        %t4 = arith.mulf %t3, %e2 : f32
        %t5 = arith.addf %t4, %er : f32
        linalg.yield %t5 : f32
      }
    return %r : tensor<17x64xf32>
  }
}
