// RUN: %pb-opt %s -split-input-file --pb-s2-pipeline | FileCheck %s
// RUN: %pb-opt %s -split-input-file --pb-s2-pipeline | FileCheck %s --check-prefix=NOLINALG

// Tests for S2 (pb-s2-pipeline) on S1 output: linalg ops and copies on memrefs
// become affine.for nests of affine.load / affine.store.

// No linalg op or memref.copy survives S2, and no buffer is added.
// NOLINALG-NOT: linalg.
// NOLINALG-NOT: memref.copy
// NOLINALG-NOT: memref.alloc
// NOLINALG-NOT: scf.

// linalg.fill becomes a store nest; linalg.matmul becomes an i, j, k nest
// accumulating into the output.

// CHECK-LABEL: func.func @fill_and_matmul_become_affine_nests
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x4xf32>, %[[C:.*]]: memref<8x4xf32>) -> i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.store %[[ZERO]], %[[C]][%[[I]], %[[J]]] : memref<8x4xf32>
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.for %[[K:.*]] = 0 to 16 {
// CHECK-NEXT:          %[[AV:.*]] = affine.load %[[A]][%[[I]], %[[K]]] : memref<8x16xf32>
// CHECK-NEXT:          %[[BV:.*]] = affine.load %[[B]][%[[K]], %[[J]]] : memref<16x4xf32>
// CHECK-NEXT:          %[[CV:.*]] = affine.load %[[C]][%[[I]], %[[J]]] : memref<8x4xf32>
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[CV]], %[[P]] : f32
// CHECK-NEXT:          affine.store %[[S]], %[[C]][%[[I]], %[[J]]] : memref<8x4xf32>
// CHECK:         return
func.func @fill_and_matmul_become_affine_nests(%a: memref<8x16xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x4xf32>)
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
  return %ok : i32
}

// -----

// A linalg.generic becomes a nest whose accesses follow its indexing maps
// (here a transposing read) and whose body is inlined.

#transpose = affine_map<(d0, d1) -> (d1, d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @generic_becomes_affine_nest_with_its_indexing_maps
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<8x4xf32>) -> i32
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[J]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:        affine.store %[[E]], %[[OUT]][%[[I]], %[[J]]] : memref<8x4xf32>
func.func @generic_becomes_affine_nest_with_its_indexing_maps(%a: memref<4x8xf32>, %out: memref<8x4xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  linalg.generic {indexing_maps = [#transpose, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x8xf32>) outs(%out : memref<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  return %ok : i32
}

// -----

// A reduction becomes a nest with the reduced dimension innermost, loading and
// storing the accumulator.

// CHECK-LABEL: func.func @reduce_becomes_affine_nest
// CHECK-SAME:    (%[[A:.*]]: memref<16x64xf32>, %[[OUT:.*]]: memref<16xf32>) -> i32
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 64 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<16x64xf32>
// CHECK-NEXT:        %[[ACC:.*]] = affine.load %[[OUT]][%[[I]]] : memref<16xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK-NEXT:        affine.store %[[S]], %[[OUT]][%[[I]]] : memref<16xf32>
func.func @reduce_becomes_affine_nest(%a: memref<16x64xf32>, %out: memref<16xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  linalg.reduce ins(%a : memref<16x64xf32>) outs(%out : memref<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  return %ok : i32
}

// -----

// A memref.copy from a strided subview (pb-lower-copies runs first) becomes a
// load/store nest on the subview, not a call to the runtime.

// CHECK-LABEL: func.func @copy_from_strided_view_becomes_affine_nest
// CHECK-SAME:    (%[[A:.*]]: memref<8x8xf32>, %[[OUT:.*]]: memref<4x4xf32>) -> i32
// CHECK:         %[[SV:.*]] = memref.subview %[[A]][0, 0] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2]>>
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[SV]][%[[I]], %[[J]]] : memref<4x4xf32, strided<[16, 2]>>
// CHECK-NEXT:        affine.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<4x4xf32>
func.func @copy_from_strided_view_becomes_affine_nest(%a: memref<8x8xf32>, %out: memref<4x4xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %sv = memref.subview %a[0, 0] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2]>>
  memref.copy %sv, %out : memref<4x4xf32, strided<[16, 2]>> to memref<4x4xf32>
  return %ok : i32
}

// -----

// A linalg.copy becomes a load/store nest as well.

// CHECK-LABEL: func.func @linalg_copy_becomes_affine_nest
// CHECK-SAME:    (%[[A:.*]]: memref<3x5xi8>, %[[OUT:.*]]: memref<3x5xi8>) -> i32
// CHECK:         affine.for %[[I:.*]] = 0 to 3 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 5 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<3x5xi8>
// CHECK-NEXT:        affine.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<3x5xi8>
func.func @linalg_copy_becomes_affine_nest(%a: memref<3x5xi8>, %out: memref<3x5xi8>) -> i32 {
  %ok = arith.constant 0 : i32
  linalg.copy ins(%a : memref<3x5xi8>) outs(%out : memref<3x5xi8>)
  return %ok : i32
}

// -----

// A copy of 0-d memrefs becomes a single load and store, without a loop.

// CHECK-LABEL: func.func @zero_d_copy_becomes_load_and_store
// CHECK-SAME:    (%[[A:.*]]: memref<f32>, %[[OUT:.*]]: memref<f32>) -> i32
// CHECK-NOT:     affine.for
// CHECK:         %[[V:.*]] = affine.load %[[A]][] : memref<f32>
// CHECK-NEXT:    affine.store %[[V]], %[[OUT]][] : memref<f32>
func.func @zero_d_copy_becomes_load_and_store(%a: memref<f32>, %out: memref<f32>) -> i32 {
  %ok = arith.constant 0 : i32
  memref.copy %a, %out : memref<f32> to memref<f32>
  return %ok : i32
}

// -----

// A padded copy (S1's form of tensor.pad) becomes a fill nest over the whole
// output and a copy nest into its subview.

// CHECK-LABEL: func.func @pad_becomes_fill_nest_and_copy_nest_into_subview
// CHECK-SAME:    (%[[A:.*]]: memref<4x4xf32>, %[[OUT:.*]]: memref<6x6xf32>) -> i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         affine.for %[[I:.*]] = 0 to 6 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 6 {
// CHECK-NEXT:        affine.store %[[ZERO]], %[[OUT]][%[[I]], %[[J]]] : memref<6x6xf32>
// CHECK:         %[[SV:.*]] = memref.subview %[[OUT]][1, 1] [4, 4] [1, 1]
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<4x4xf32>
// CHECK-NEXT:        affine.store %[[V]], %[[SV]][%[[I]], %[[J]]] : memref<4x4xf32, strided<[6, 1], offset: 7>>
func.func @pad_becomes_fill_nest_and_copy_nest_into_subview(%a: memref<4x4xf32>, %out: memref<6x6xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  linalg.map outs(%out : memref<6x6xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %sv = memref.subview %out[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %a, %sv : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  return %ok : i32
}

// -----

// A strided convolution becomes one 7-deep nest whose input access is an
// affine function of the output and filter indices (oh * 2 + kh): no im2col
// buffer is materialized.

// CHECK-LABEL: func.func @strided_conv_becomes_nest_with_affine_index_maps
// CHECK-SAME:    (%[[IN:.*]]: memref<1x9x9x3xf32>, %[[F:.*]]: memref<3x3x3x8xf32>, %[[OUT:.*]]: memref<1x4x4x8xf32>) -> i32
// CHECK-NOT:     memref.alloc
// CHECK:         affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT:      affine.for %[[OH:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.for %[[OW:.*]] = 0 to 4 {
// CHECK-NEXT:          affine.for %[[OC:.*]] = 0 to 8 {
// CHECK-NEXT:            affine.for %[[KH:.*]] = 0 to 3 {
// CHECK-NEXT:              affine.for %[[KW:.*]] = 0 to 3 {
// CHECK-NEXT:                affine.for %[[IC:.*]] = 0 to 3 {
// CHECK-NEXT:                  %[[X:.*]] = affine.load %[[IN]][%[[N]], %[[OH]] * 2 + %[[KH]], %[[OW]] * 2 + %[[KW]], %[[IC]]] : memref<1x9x9x3xf32>
// CHECK-NEXT:                  %[[W:.*]] = affine.load %[[F]][%[[KH]], %[[KW]], %[[IC]], %[[OC]]] : memref<3x3x3x8xf32>
// CHECK-NEXT:                  %[[Y:.*]] = affine.load %[[OUT]][%[[N]], %[[OH]], %[[OW]], %[[OC]]] : memref<1x4x4x8xf32>
// CHECK-NEXT:                  %[[P:.*]] = arith.mulf %[[X]], %[[W]] : f32
// CHECK-NEXT:                  %[[S:.*]] = arith.addf %[[Y]], %[[P]] : f32
// CHECK-NEXT:                  affine.store %[[S]], %[[OUT]][%[[N]], %[[OH]], %[[OW]], %[[OC]]] : memref<1x4x4x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @strided_conv_becomes_nest_with_affine_index_maps(%in: memref<1x9x9x3xf32>, %f: memref<3x3x3x8xf32>, %out: memref<1x4x4x8xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : memref<1x9x9x3xf32>, memref<3x3x3x8xf32>) outs(%out : memref<1x4x4x8xf32>)
  return %ok : i32
}

// -----

// A dilated convolution scales the filter index instead (oh + kh * 2).

// CHECK-LABEL: func.func @dilated_conv_becomes_nest_with_affine_index_maps
// CHECK-SAME:    (%[[IN:.*]]: memref<1x8x8x2xf32>, %{{.*}}: memref<3x3x2x4xf32>, %{{.*}}: memref<1x4x4x4xf32>) -> i32
// CHECK-NOT:     memref.alloc
// CHECK:         affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT:      affine.for %[[OH:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.for %[[OW:.*]] = 0 to 4 {
// CHECK-NEXT:          affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT:            affine.for %[[KH:.*]] = 0 to 3 {
// CHECK-NEXT:              affine.for %[[KW:.*]] = 0 to 3 {
// CHECK-NEXT:                affine.for %[[IC:.*]] = 0 to 2 {
// CHECK-NEXT:                  affine.load %[[IN]][%[[N]], %[[OH]] + %[[KH]] * 2, %[[OW]] + %[[KW]] * 2, %[[IC]]] : memref<1x8x8x2xf32>
func.func @dilated_conv_becomes_nest_with_affine_index_maps(%in: memref<1x8x8x2xf32>, %f: memref<3x3x2x4xf32>, %out: memref<1x4x4x4xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x8x8x2xf32>, memref<3x3x2x4xf32>) outs(%out : memref<1x4x4x4xf32>)
  return %ok : i32
}
