// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @f16_elementwise
// CHECK: PASS @f16_via_f32
// Covers: f16 elementwise arithmetic computed natively in f16 (mul, add, max with broadcast row), and f16 -> f32 (extf) compute -> f16 (truncf) with exp.
module {
  func.func @f16_elementwise(%x: tensor<33x64xf16>, %y: tensor<33x64xf16>, %row: tensor<64xf16>) -> tensor<33x64xf16> {
    %e = tensor.empty() : tensor<33x64xf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %y, %row : tensor<33x64xf16>, tensor<33x64xf16>, tensor<64xf16>) outs(%e : tensor<33x64xf16>) {
    ^bb0(%a: f16, %b: f16, %c: f16, %o: f16):
      %z = arith.constant 0.0 : f16
      %m = arith.mulf %a, %b : f16
      %s = arith.addf %m, %c : f16
      %r = arith.maximumf %s, %z : f16
      linalg.yield %r : f16
    } -> tensor<33x64xf16>
    return %r : tensor<33x64xf16>
  }

  func.func @f16_via_f32(%x: tensor<17x65xf16>) -> tensor<17x65xf16> {
    %e = tensor.empty() : tensor<17x65xf16>
    %r = linalg.map ins(%x : tensor<17x65xf16>) outs(%e : tensor<17x65xf16>)
      (%v: f16, %o: f16) {
        %half = arith.constant 0.5 : f32
        %w = arith.extf %v : f16 to f32
        %ex = math.exp %w : f32
        %h = arith.mulf %ex, %half : f32
        %t = arith.truncf %h : f32 to f16
        linalg.yield %t : f16
      }
    return %r : tensor<17x65xf16>
  }
}
