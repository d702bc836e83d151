// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_f16_tensor_cores
// Covers: an f16 matmul accumulating in f32 with M, N, K multiples of 16 (64x32 * 32x48), the shape the nvgpu target computes on tensor cores (WMMA), with a relu epilogue.
module {
  func.func @matmul_f16_tensor_cores(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>) -> tensor<64x48xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x48xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
    %acc = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%c : tensor<64x48xf32>) {
    ^bb0(%x: f16, %y: f16, %s: f32):
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %r = arith.addf %s, %p : f32
      linalg.yield %r : f32
    } -> tensor<64x48xf32>
    %e2 = tensor.empty() : tensor<64x48xf32>
    %relu = linalg.map ins(%acc : tensor<64x48xf32>) outs(%e2 : tensor<64x48xf32>)
      (%v: f32, %o: f32) {
        %m = arith.maximumf %v, %zero : f32
        linalg.yield %m : f32
      }
    return %relu : tensor<64x48xf32>
  }
}
