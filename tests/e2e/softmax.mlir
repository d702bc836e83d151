// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @softmax_last_axis
// Covers: numerically stable softmax over the last axis of a 3-D tensor: max-reduce, subtract, exp, sum-reduce, divide.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @softmax_last_axis(%x: tensor<4x17x65xf32>) -> tensor<4x17x65xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x17xf32>
    %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4x17xf32>) -> tensor<4x17xf32>
    %max = linalg.reduce ins(%x : tensor<4x17x65xf32>) outs(%minit : tensor<4x17xf32>) dimensions = [2]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    %e1 = tensor.empty() : tensor<4x17x65xf32>
    %ex = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x, %max : tensor<4x17x65xf32>, tensor<4x17xf32>) outs(%e1 : tensor<4x17x65xf32>) {
    ^bb0(%v: f32, %m: f32, %o: f32):
      %d = arith.subf %v, %m : f32
      %ev = math.exp %d : f32
      linalg.yield %ev : f32
    } -> tensor<4x17x65xf32>
    %e2 = tensor.empty() : tensor<4x17xf32>
    %sinit = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x17xf32>) -> tensor<4x17xf32>
    %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%ex : tensor<4x17x65xf32>) outs(%sinit : tensor<4x17xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %a = arith.addf %v, %acc : f32
      linalg.yield %a : f32
    } -> tensor<4x17xf32>
    %e3 = tensor.empty() : tensor<4x17x65xf32>
    %r = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%ex, %sum : tensor<4x17x65xf32>, tensor<4x17xf32>) outs(%e3 : tensor<4x17x65xf32>) {
    ^bb0(%v: f32, %s: f32, %o: f32):
      %q = arith.divf %v, %s : f32
      linalg.yield %q : f32
    } -> tensor<4x17x65xf32>
    return %r : tensor<4x17x65xf32>
  }
}
