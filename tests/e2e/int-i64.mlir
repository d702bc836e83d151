// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @i64_elementwise
// CHECK: PASS @i64_reduce_sum
// CHECK: PASS @i64_trunc_to_i32
// Covers: i64 elementwise arithmetic (muli, addi, shli, remsi by constant, minsi), an i64 sum reduction, and arith.trunci i64 -> i32.
module {
  func.func @i64_elementwise(%x: tensor<33x33xi64>, %y: tensor<33x33xi64>) -> tensor<33x33xi64> {
    %e = tensor.empty() : tensor<33x33xi64>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<33x33xi64>, tensor<33x33xi64>) outs(%e : tensor<33x33xi64>) {
    ^bb0(%a: i64, %b: i64, %o: i64):
      %big = arith.constant 1099511627776 : i64
      %c40 = arith.constant 40 : i64
      %c6 = arith.constant 6 : i64
      %m = arith.muli %a, %big : i64
      %s = arith.addi %m, %b : i64
      %sh = arith.shli %b, %c40 : i64
      %t = arith.subi %s, %sh : i64
      %rm = arith.remsi %t, %c6 : i64
      %mn = arith.minsi %t, %rm : i64
      linalg.yield %mn : i64
    } -> tensor<33x33xi64>
    return %r : tensor<33x33xi64>
  }

  func.func @i64_reduce_sum(%x: tensor<17x65xi64>) -> tensor<17xi64> {
    %zero = arith.constant 0 : i64
    %e = tensor.empty() : tensor<17xi64>
    %z = linalg.fill ins(%zero : i64) outs(%e : tensor<17xi64>) -> tensor<17xi64>
    %r = linalg.reduce ins(%x : tensor<17x65xi64>) outs(%z : tensor<17xi64>) dimensions = [1]
      (%in: i64, %acc: i64) {
        %a = arith.addi %in, %acc : i64
        linalg.yield %a : i64
      }
    return %r : tensor<17xi64>
  }

  func.func @i64_trunc_to_i32(%x: tensor<9x65xi64>) -> tensor<9x65xi32> {
    %e = tensor.empty() : tensor<9x65xi32>
    %r = linalg.map ins(%x : tensor<9x65xi64>) outs(%e : tensor<9x65xi32>)
      (%v: i64, %o: i32) {
        %c = arith.constant 1000003 : i64
        %m = arith.muli %v, %c : i64
        %t = arith.trunci %m : i64 to i32
        linalg.yield %t : i32
      }
    return %r : tensor<9x65xi32>
  }
}
