// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @f64_elementwise_math
// CHECK: PASS @f64_matmul
// CHECK: PASS @f64_reduce_axis0
// Covers: f64 elementwise math (mul, add, exp, sqrt of a positive value), an f64 linalg.matmul, and an f64 sum reduction.
module {
  func.func @f64_elementwise_math(%x: tensor<17x33xf64>, %y: tensor<17x33xf64>) -> tensor<17x33xf64> {
    %e = tensor.empty() : tensor<17x33xf64>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<17x33xf64>, tensor<17x33xf64>) outs(%e : tensor<17x33xf64>) {
    ^bb0(%a: f64, %b: f64, %o: f64):
      %one = arith.constant 1.0 : f64
      %sq = arith.mulf %a, %a : f64
      %p = arith.addf %sq, %one : f64
      %rt = math.sqrt %p : f64
      %ex = math.exp %b : f64
      %r = arith.mulf %rt, %ex : f64
      linalg.yield %r : f64
    } -> tensor<17x33xf64>
    return %r : tensor<17x33xf64>
  }

  func.func @f64_matmul(%a: tensor<17x33xf64>, %b: tensor<33x20xf64>) -> tensor<17x20xf64> {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<17x20xf64>
    %c = linalg.fill ins(%zero : f64) outs(%e : tensor<17x20xf64>) -> tensor<17x20xf64>
    %r = linalg.matmul ins(%a, %b : tensor<17x33xf64>, tensor<33x20xf64>) outs(%c : tensor<17x20xf64>) -> tensor<17x20xf64>
    return %r : tensor<17x20xf64>
  }

  func.func @f64_reduce_axis0(%x: tensor<65x17xf64>) -> tensor<17xf64> {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<17xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<17xf64>) -> tensor<17xf64>
    %r = linalg.reduce ins(%x : tensor<65x17xf64>) outs(%z : tensor<17xf64>) dimensions = [0]
      (%in: f64, %acc: f64) {
        %a = arith.addf %in, %acc : f64
        linalg.yield %a : f64
      }
    return %r : tensor<17xf64>
  }
}
