// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @scale_shift_relu
// Covers: elementwise chain relu(x*a+b) with a row vector broadcast via linalg.generic broadcasting maps.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @scale_shift_relu(%x: tensor<33x65xf32>, %a: tensor<65xf32>, %b: tensor<65xf32>) -> tensor<33x65xf32> {
    %init = tensor.empty() : tensor<33x65xf32>
    %r = linalg.generic {indexing_maps = [#map_id, #map_row, #map_row, #map_id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %a, %b : tensor<33x65xf32>, tensor<65xf32>, tensor<65xf32>)
        outs(%init : tensor<33x65xf32>) {
    ^bb0(%xv: f32, %av: f32, %bv: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %m = arith.mulf %xv, %av : f32
      %s = arith.addf %m, %bv : f32
      %relu = arith.maximumf %s, %zero : f32
      linalg.yield %relu : f32
    } -> tensor<33x65xf32>
    return %r : tensor<33x65xf32>
  }
}
