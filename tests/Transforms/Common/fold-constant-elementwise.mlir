// RUN: pb-opt %s -split-input-file -pb-fold-constant-elementwise | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-fold-constant-elementwise=max-bytes=8 | FileCheck %s --check-prefix=BUDGET

#map = affine_map<(d0) -> (d0)>

// Batch norm's invstd, rsqrt(var + eps) with eps an f64 truncated in the
// payload: two generics, both evaluated (f32 arithmetic, rounded as at run
// time: 1 + 1e-5 rounds to 1.00001001, whose rsqrt is 0.999994993).
// CHECK-LABEL: func @invstd
// CHECK:         %[[C:.*]] = arith.constant dense<[0.999994993, 0.499999404, 1.999960e+00, 0.333333135]> : tensor<4xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C]]
// BUDGET-LABEL: func @invstd
// BUDGET-COUNT-2: linalg.generic
func.func @invstd() -> tensor<4xf32> {
  %v = arith.constant dense<[1.0, 4.0, 0.25, 9.0]> : tensor<4xf32>
  %eps = arith.constant 1.0e-5 : f64
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %eps : f64 to f32
    %s = arith.addf %in, %t : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.rsqrt %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two inputs, one read transposed and one through a reshape.
// CHECK-LABEL: func @transposed_reshaped
// CHECK:         arith.constant dense<{{\[}}[1.100000e+01, 3.100000e+01], [2.200000e+01, 4.200000e+01]]> : tensor<2x2xf32>
// CHECK-NOT:     linalg.generic
func.func @transposed_reshaped() -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %br = tensor.expand_shape %b [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %br : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// Splats give a splat, whatever the size.
// CHECK-LABEL: func @splat
// CHECK:         arith.constant dense<5.000000e-01> : tensor<256x256xf32>
// BUDGET-LABEL: func @splat
// BUDGET-NOT:    linalg.generic
func.func @splat() -> tensor<256x256xf32> {
  %v = arith.constant dense<4.0> : tensor<256x256xf32>
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.rsqrt %in : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// A broadcast that would store more than it reads is left to run time.
// CHECK-LABEL: func @broadcast_grows
// BUDGET-LABEL: func @broadcast_grows
// CHECK:         linalg.generic
func.func @broadcast_grows() -> tensor<3x2xf32> {
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<2xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.negf %in : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// Payloads this does not evaluate stay: a non-constant input, an index.
// CHECK-LABEL: func @not_folded
// CHECK-COUNT-2: linalg.generic
func.func @not_folded(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %a = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%v, %x : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%v : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// A resource gives a new blob named after it; f32 1, 4 -> rsqrt 1, 0.5.
// CHECK-LABEL: func @resource
// CHECK:         arith.constant dense_resource<var_folded> : tensor<2xf32>
// CHECK:       var_folded: "0x{{[0-9A-F]+}}0000803F0000003F"
func.func @resource() -> tensor<2xf32> {
  %v = arith.constant dense_resource<var> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%v : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.rsqrt %in : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      var: "0x040000000000803F00008040"
    }
  }
#-}
