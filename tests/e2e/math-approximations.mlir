// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool run %s --function=exp_wide --input="8xf32=0 1 -1 0.887 -0.87 -1.04 0.5 0.001" | FileCheck %s --check-prefix=SPECIAL
// RUN: %pbtool run %s --function=exp_wide --input="8xf32=0.888 1e28 inf -inf nan 3.4e36 0.8872 -0.8768" | FileCheck %s --check-prefix=BEYOND
// CHECK: PASS @exp_wide
// CHECK: PASS @expm1_exp2
// CHECK: PASS @log_wide
// CHECK: PASS @log1p_log2
// CHECK: PASS @tanh_erf_wide
// Covers: the inline polynomial approximations of S4 (pb-approximate-math)
// against libm in the reference lowering, over wide ranges: exp to overflow
// (x > 88.7 gives inf) and into the subnormals, log of values from 1e-6 to
// 1e6 and of negative numbers (NaN), tanh and erf up to saturation.
// exp(0), exp(100) = inf, exp(-100) (subnormal, may flush to 0), exp(88.7),
// exp(-87), exp(-104) = 0, exp(50), exp(0.1):
// SPECIAL: result0: 8xf32=[1 inf {{[0-9.e-]+}} 3.32{{[0-9]*}}e+38 1.645{{[0-9]*}}e-38 0 5.1847{{[0-9]*}}e+21 1.10517]
// Beyond the largest float (x = 88.8, 1e30, +inf, 3.4e38: +inf, though x is
// not clamped from above), -inf, NaN, exp(88.72) just below the largest
// float and exp(-87.68) among the subnormals:
// BEYOND: result0: 8xf32=[inf inf inf 0 nan inf 3.3931{{[0-9]*}}e+38 8.33{{[0-9]*}}e-39]
#id = affine_map<(d0) -> (d0)>
module {
  func.func @exp_wide(%x: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.constant 100.0 : f32
      %w = arith.mulf %v, %s : f32
      %y = math.exp %w : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  func.func @expm1_exp2(%x: tensor<1031xf32>) -> (tensor<1031xf32>, tensor<1031xf32>) {
    %e = tensor.empty() : tensor<1031xf32>
    %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<1031xf32>) outs(%e, %e : tensor<1031xf32>, tensor<1031xf32>) {
    ^bb0(%v: f32, %o: f32, %p: f32):
      %s = arith.constant 20.0 : f32
      %w = arith.mulf %v, %s : f32
      %a = math.expm1 %w : f32
      %b = math.exp2 %w : f32
      linalg.yield %a, %b : f32, f32
    } -> (tensor<1031xf32>, tensor<1031xf32>)
    return %r#0, %r#1 : tensor<1031xf32>, tensor<1031xf32>
  }
  func.func @log_wide(%x: tensor<1031xf32>) -> tensor<1031xf32> {
    %e = tensor.empty() : tensor<1031xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<1031xf32>) outs(%e : tensor<1031xf32>) {
    ^bb0(%v: f32, %o: f32):
      // 10^(6v) spans 1e-6 .. 1e6
      %s = arith.constant 13.815511 : f32
      %w = arith.mulf %v, %s : f32
      %p = math.exp %w : f32
      %y = math.log %p : f32
      linalg.yield %y : f32
    } -> tensor<1031xf32>
    return %r : tensor<1031xf32>
  }
  func.func @log1p_log2(%x: tensor<1031xf32>) -> (tensor<1031xf32>, tensor<1031xf32>) {
    %e = tensor.empty() : tensor<1031xf32>
    %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<1031xf32>) outs(%e, %e : tensor<1031xf32>, tensor<1031xf32>) {
    ^bb0(%v: f32, %o: f32, %p: f32):
      // log1p on (-1, 1]; log2 of |v| * 1000, and of 0 (-inf) where v = 0
      %a = math.log1p %v : f32
      %k = arith.constant 1000.0 : f32
      %m = math.absf %v : f32
      %w = arith.mulf %m, %k : f32
      %b = math.log2 %w : f32
      linalg.yield %a, %b : f32, f32
    } -> (tensor<1031xf32>, tensor<1031xf32>)
    return %r#0, %r#1 : tensor<1031xf32>, tensor<1031xf32>
  }
  func.func @tanh_erf_wide(%x: tensor<1031xf32>) -> (tensor<1031xf32>, tensor<1031xf32>) {
    %e = tensor.empty() : tensor<1031xf32>
    %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<1031xf32>) outs(%e, %e : tensor<1031xf32>, tensor<1031xf32>) {
    ^bb0(%v: f32, %o: f32, %p: f32):
      %s = arith.constant 12.0 : f32
      %w = arith.mulf %v, %s : f32
      %a = math.tanh %w : f32
      %b = math.erf %w : f32
      linalg.yield %a, %b : f32, f32
    } -> (tensor<1031xf32>, tensor<1031xf32>)
    return %r#0, %r#1 : tensor<1031xf32>, tensor<1031xf32>
  }
}
