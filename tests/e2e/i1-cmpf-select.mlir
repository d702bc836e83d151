// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @cmpf_to_i1
// CHECK: PASS @select_with_i1_input
// CHECK: PASS @i1_logic_count
// Covers: arith.cmpf producing a tensor<..xi1> result, arith.select driven by an i1 input tensor, and i1 logic (andi/xori) with extui-based counting reduction.
module {
  func.func @cmpf_to_i1(%x: tensor<17x65xf32>, %y: tensor<17x65xf32>) -> tensor<17x65xi1> {
    %e = tensor.empty() : tensor<17x65xi1>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<17x65xf32>, tensor<17x65xf32>) outs(%e : tensor<17x65xi1>) {
    ^bb0(%a: f32, %b: f32, %o: i1):
      %c = arith.cmpf ogt, %a, %b : f32
      linalg.yield %c : i1
    } -> tensor<17x65xi1>
    return %r : tensor<17x65xi1>
  }

  func.func @select_with_i1_input(%cond: tensor<33x17xi1>, %a: tensor<33x17xf32>, %b: tensor<33x17xf32>) -> tensor<33x17xf32> {
    %e = tensor.empty() : tensor<33x17xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%cond, %a, %b : tensor<33x17xi1>, tensor<33x17xf32>, tensor<33x17xf32>) outs(%e : tensor<33x17xf32>) {
    ^bb0(%c: i1, %u: f32, %v: f32, %o: f32):
      %neg = arith.negf %v : f32
      %s = arith.select %c, %u, %neg : f32
      linalg.yield %s : f32
    } -> tensor<33x17xf32>
    return %r : tensor<33x17xf32>
  }

  func.func @i1_logic_count(%p: tensor<9x33xi1>, %q: tensor<9x33xi1>, %x: tensor<9x33xf32>) -> (tensor<9x33xi1>, tensor<9xi32>) {
    %e = tensor.empty() : tensor<9x33xi1>
    %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%p, %q, %x : tensor<9x33xi1>, tensor<9x33xi1>, tensor<9x33xf32>) outs(%e : tensor<9x33xi1>) {
    ^bb0(%a: i1, %b: i1, %v: f32, %o: i1):
      %zero = arith.constant 0.0 : f32
      %pos = arith.cmpf oge, %v, %zero : f32
      %x1 = arith.xori %a, %b : i1
      %r = arith.andi %x1, %pos : i1
      linalg.yield %r : i1
    } -> tensor<9x33xi1>
    %zi = arith.constant 0 : i32
    %e2 = tensor.empty() : tensor<9xi32>
    %z = linalg.fill ins(%zi : i32) outs(%e2 : tensor<9xi32>) -> tensor<9xi32>
    %cnt = linalg.reduce ins(%l : tensor<9x33xi1>) outs(%z : tensor<9xi32>) dimensions = [1]
      (%in: i1, %acc: i32) {
        %w = arith.extui %in : i1 to i32
        %a = arith.addi %w, %acc : i32
        linalg.yield %a : i32
      }
    return %l, %cnt : tensor<9x33xi1>, tensor<9xi32>
  }
}
