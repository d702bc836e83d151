// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_f16_f32acc
// Covers: small f16 matmul accumulating in f32 (arith.extf in a linalg.generic contraction) and truncating the result back to f16 with arith.truncf.
module {
  func.func @matmul_f16_f32acc(%a: tensor<17x33xf16>, %b: tensor<33x24xf16>) -> tensor<17x24xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<17x24xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<17x24xf32>) -> tensor<17x24xf32>
    %acc = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<17x33xf16>, tensor<33x24xf16>) outs(%c : tensor<17x24xf32>) {
    ^bb0(%x: f16, %y: f16, %s: f32):
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %r = arith.addf %s, %p : f32
      linalg.yield %r : f32
    } -> tensor<17x24xf32>
    %e2 = tensor.empty() : tensor<17x24xf16>
    %r = linalg.map ins(%acc : tensor<17x24xf32>) outs(%e2 : tensor<17x24xf16>)
      (%v: f32, %o: f16) {
        %t = arith.truncf %v : f32 to f16
        linalg.yield %t : f16
      }
    return %r : tensor<17x24xf16>
  }
}
