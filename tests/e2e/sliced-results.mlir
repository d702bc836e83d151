// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @masked_scores
// CHECK: PASS @matmul_rows
// Covers: pb-bubble-up-extract-slices: a mask computed for 64 x 64 and
// sliced to 16 x 16 (GPT-2's causal mask), then selecting between scores
// and -inf; the first rows of a matmul product.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @masked_scores(%bias: tensor<64x64xi8>, %scores: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %zero = arith.constant 0 : i8
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<64x64xi1>
    %m = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%bias : tensor<64x64xi8>) outs(%e : tensor<64x64xi1>) {
    ^bb0(%in: i8, %out: i1):
      %ne = arith.cmpi ne, %in, %zero : i8
      linalg.yield %ne : i1
    } -> tensor<64x64xi1>
    %rows = tensor.extract_slice %m[0, 0] [16, 64] [1, 1] : tensor<64x64xi1> to tensor<16x64xi1>
    %s = tensor.extract_slice %rows[0, 0] [16, 16] [1, 1] : tensor<16x64xi1> to tensor<16x16xi1>
    %e2 = tensor.empty() : tensor<16x16xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%s, %scores : tensor<16x16xi1>, tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
    ^bb0(%keep: i1, %x: f32, %out: f32):
      %v = arith.select %keep, %x, %ninf : f32
      linalg.yield %v : f32
    } -> tensor<16x16xf32>
    return %r : tensor<16x16xf32>
  }

  func.func @matmul_rows(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<5x48xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x48xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
    %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%z : tensor<64x48xf32>) -> tensor<64x48xf32>
    %s = tensor.extract_slice %r[3, 0] [5, 48] [1, 1] : tensor<64x48xf32> to tensor<5x48xf32>
    return %s : tensor<5x48xf32>
  }
}
