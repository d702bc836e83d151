// RUN: pb-opt %s -split-input-file -pb-bubble-up-extract-slices | FileCheck %s

#map = affine_map<(d0, d1) -> (d0, d1)>

// GPT-2's causal mask: a 1024 x 1024 byte buffer converted to i1, of which
// the rows and then the columns a 128-token input uses are sliced. The
// conversion moves below one slice of the buffer and computes 128 x 128.
// CHECK-LABEL: func @causal_mask
// CHECK-SAME:    (%[[BIAS:.*]]: tensor<1024x1024xi8>)
// CHECK-NOT:     tensor<1024x1024xi1>
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[BIAS]][0, 0] [128, 128] [1, 1] : tensor<1024x1024xi8> to tensor<128x128xi8>
// CHECK:         %[[MASK:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SLICE]] : tensor<128x128xi8>)
// CHECK:         } -> tensor<128x128xi1>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[MASK]]
func.func @causal_mask(%bias: tensor<1024x1024xi8>) -> tensor<128x128xi1> {
  %zero = arith.constant 0 : i8
  %e = tensor.empty() : tensor<1024x1024xi1>
  %m = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<1024x1024xi8>) outs(%e : tensor<1024x1024xi1>) {
  ^bb0(%in: i8, %out: i1):
    %ne = arith.cmpi ne, %in, %zero : i8
    linalg.yield %ne : i1
  } -> tensor<1024x1024xi1>
  %rows = tensor.extract_slice %m[0, 0] [128, 1024] [1, 1] : tensor<1024x1024xi1> to tensor<128x1024xi1>
  %s = tensor.extract_slice %rows[0, 0] [128, 128] [1, 1] : tensor<128x1024xi1> to tensor<128x128xi1>
  return %s : tensor<128x128xi1>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// A result used whole as well as sliced is computed whole, once.
// CHECK-LABEL: func @used_twice
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK:         } -> tensor<64x64xf32>
// CHECK:         tensor.extract_slice %[[R]][0, 0] [8, 64]
func.func @used_twice(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<8x64xf32>) {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<64x64xf32>
  %s = tensor.extract_slice %r[0, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  return %r, %s : tensor<64x64xf32>, tensor<8x64xf32>
}

// -----

// The rows of a matmul that are used: only they are multiplied, the whole
// reduction kept, and only they are zeroed first.
// CHECK-LABEL: func @matmul_rows
// CHECK-SAME:    (%[[A:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<32x16xf32>)
// CHECK:         %[[AS:.*]] = tensor.extract_slice %[[A]][0, 0] [4, 32] [1, 1]
// CHECK:         linalg.fill {{.*}} -> tensor<4x16xf32>
// CHECK:         linalg.matmul ins(%[[AS]], %{{.*}} : tensor<4x32xf32>, tensor<32x16xf32>)
// CHECK-SAME:        -> tensor<4x16xf32>
// CHECK-NOT:     tensor<64x16xf32>
func.func @matmul_rows(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%z : tensor<64x16xf32>) -> tensor<64x16xf32>
  %s = tensor.extract_slice %r[0, 0] [4, 16] [1, 1] : tensor<64x16xf32> to tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}
