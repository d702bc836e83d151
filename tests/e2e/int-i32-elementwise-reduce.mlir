// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @i32_elementwise
// CHECK: PASS @i32_reduce_sum_axis1
// CHECK: PASS @i32_reduce_max_axis0
// Covers: i32 elementwise arithmetic (muli, addi, subi, maxsi, minsi, shli/shrsi, andi, xori, divsi/remsi by nonzero constants) and i32 sum/max reductions.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @i32_elementwise(%x: tensor<33x65xi32>, %y: tensor<33x65xi32>, %r0: tensor<65xi32>) -> tensor<33x65xi32> {
    %e = tensor.empty() : tensor<33x65xi32>
    %r = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %y, %r0 : tensor<33x65xi32>, tensor<33x65xi32>, tensor<65xi32>) outs(%e : tensor<33x65xi32>) {
    ^bb0(%a: i32, %b: i32, %c: i32, %o: i32):
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %cm4 = arith.constant -4 : i32
      %mask = arith.constant 0x5A : i32
      %m = arith.muli %a, %b : i32
      %s = arith.addi %m, %c : i32
      %d = arith.subi %s, %a : i32
      %mx = arith.maxsi %d, %cm4 : i32
      %mn = arith.minsi %mx, %b : i32
      %sh = arith.shli %mn, %c2 : i32
      %q = arith.divsi %d, %c3 : i32
      %rm = arith.remsi %d, %c5 : i32
      %t0 = arith.addi %sh, %q : i32
      %t1 = arith.addi %t0, %rm : i32
      %an = arith.andi %t1, %mask : i32
      %xo = arith.xori %an, %d : i32
      %sr = arith.shrsi %xo, %c2 : i32
      linalg.yield %sr : i32
    } -> tensor<33x65xi32>
    return %r : tensor<33x65xi32>
  }

  func.func @i32_reduce_sum_axis1(%x: tensor<9x17x33xi32>) -> tensor<9x33xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<9x33xi32>
    %z = linalg.fill ins(%zero : i32) outs(%e : tensor<9x33xi32>) -> tensor<9x33xi32>
    %r = linalg.reduce ins(%x : tensor<9x17x33xi32>) outs(%z : tensor<9x33xi32>) dimensions = [1]
      (%in: i32, %acc: i32) {
        %a = arith.addi %in, %acc : i32
        linalg.yield %a : i32
      }
    return %r : tensor<9x33xi32>
  }

  func.func @i32_reduce_max_axis0(%x: tensor<9x17x33xi32>) -> tensor<17x33xi32> {
    %min = arith.constant -2147483648 : i32
    %e = tensor.empty() : tensor<17x33xi32>
    %z = linalg.fill ins(%min : i32) outs(%e : tensor<17x33xi32>) -> tensor<17x33xi32>
    %r = linalg.reduce ins(%x : tensor<9x17x33xi32>) outs(%z : tensor<17x33xi32>) dimensions = [0]
      (%in: i32, %acc: i32) {
        %a = arith.maxsi %in, %acc : i32
        linalg.yield %a : i32
      }
    return %r : tensor<17x33xi32>
  }
}
