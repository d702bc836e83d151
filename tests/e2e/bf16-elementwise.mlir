// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @bf16_elementwise
// Covers: bf16 elementwise: extf to f32, tanh-based activation with scale/shift, truncf back to bf16 (plus a native bf16 add).
module {
  func.func @bf16_elementwise(%x: tensor<33x65xbf16>, %y: tensor<33x65xbf16>) -> tensor<33x65xbf16> {
    %e = tensor.empty() : tensor<33x65xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<33x65xbf16>, tensor<33x65xbf16>) outs(%e : tensor<33x65xbf16>) {
    ^bb0(%a: bf16, %b: bf16, %o: bf16):
      %two = arith.constant 2.0 : f32
      %s = arith.addf %a, %b : bf16
      %w = arith.extf %s : bf16 to f32
      %m = arith.mulf %w, %two : f32
      %t = math.tanh %m : f32
      %tr = arith.truncf %t : f32 to bf16
      linalg.yield %tr : bf16
    } -> tensor<33x65xbf16>
    return %r : tensor<33x65xbf16>
  }
}
