// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @sum_axis1
// CHECK: PASS @max_axis1
// Covers: reduction along axis 1 of a 3-D f32 tensor; sum via linalg.reduce, max via linalg.generic with a reduction iterator.
module {
  func.func @sum_axis1(%x: tensor<9x17x33xf32>) -> tensor<9x33xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<9x33xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<9x33xf32>) -> tensor<9x33xf32>
    %r = linalg.reduce ins(%x : tensor<9x17x33xf32>) outs(%init : tensor<9x33xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<9x33xf32>
  }

  func.func @max_axis1(%x: tensor<9x17x33xf32>) -> tensor<9x33xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<9x33xf32>
    %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<9x33xf32>) -> tensor<9x33xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                         iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%x : tensor<9x17x33xf32>) outs(%init : tensor<9x33xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<9x33xf32>
    return %r : tensor<9x33xf32>
  }
}
