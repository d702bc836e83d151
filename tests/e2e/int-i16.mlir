// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @i16_elementwise
// CHECK: PASS @i16_reduce_to_i32
// Covers: i16 elementwise arithmetic with a broadcast column vector, and an i16 reduction widened to i32 via arith.extsi.
module {
  func.func @i16_elementwise(%x: tensor<17x65xi16>, %y: tensor<17x65xi16>, %col: tensor<17xi16>) -> tensor<17x65xi16> {
    %e = tensor.empty() : tensor<17x65xi16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y, %col : tensor<17x65xi16>, tensor<17x65xi16>, tensor<17xi16>) outs(%e : tensor<17x65xi16>) {
    ^bb0(%a: i16, %b: i16, %c: i16, %o: i16):
      %c7 = arith.constant 7 : i16
      %m = arith.muli %a, %b : i16
      %m2 = arith.muli %m, %c7 : i16
      %s = arith.subi %m2, %c : i16
      %mx = arith.maxsi %s, %a : i16
      %q = arith.divsi %mx, %c7 : i16
      linalg.yield %q : i16
    } -> tensor<17x65xi16>
    return %r : tensor<17x65xi16>
  }

  func.func @i16_reduce_to_i32(%x: tensor<9x33x17xi16>) -> tensor<9x17xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<9x17xi32>
    %z = linalg.fill ins(%zero : i32) outs(%e : tensor<9x17xi32>) -> tensor<9x17xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                         iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%x : tensor<9x33x17xi16>) outs(%z : tensor<9x17xi32>) {
    ^bb0(%v: i16, %acc: i32):
      %ve = arith.extsi %v : i16 to i32
      %sq = arith.muli %ve, %ve : i32
      %a = arith.addi %sq, %acc : i32
      linalg.yield %a : i32
    } -> tensor<9x17xi32>
    return %r : tensor<9x17xi32>
  }
}
