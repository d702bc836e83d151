// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @layer_norm_rows
// Covers: pb-fold-copy-generics on jaxlib's copies that change no value: a
// row mean kept as [r, 1] through a broadcast generic and read by the
// normalization, an identity copy (stop_gradient) of the input returned as
// a result, and a broadcast to [r, c, 1] of the input returned as another.
// Against the reference lowering (random inputs): the results that are now
// the input itself or a view of it are still written to buffers of their
// own.
// S1-LABEL: func.func @layer_norm_rows
// S1-SAME:      (%[[X:.*]]: memref<4x8xf32>, %[[N:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8x1xf32>)
// S1-NOT:       linalg.yield %in : f32
// S1-DAG:       memref.copy %[[X]], %[[C]]
// S1-DAG:       %[[V:.*]] = memref.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [4, 8, 1]
// S1-DAG:       memref.copy %[[V]], %[[B]]
func.func @layer_norm_rows(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant 8.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %eu = tensor.empty() : tensor<4x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<4xf32>) outs(%eu : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.divf %m, %eight : f32
    %r = arith.subf %in, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %f = tensor.empty() : tensor<4x8x1xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x1xf32>
  return %n, %c, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x1xf32>
}
