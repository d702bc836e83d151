// RUN: pb-opt %s | pb-opt | FileCheck %s

// The tm_tensor ops torch-mlir's FX importer writes parse with its syntax,
// on tensors and on memrefs, and print back the same way.

// CHECK-LABEL: func.func @sort_two_outputs
// CHECK:         %{{.*}}:2 = tm_tensor.sort dimension(1) outs(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xi64>) {
// CHECK:         ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i64, %{{.*}}: i64):
// CHECK:           tm_tensor.yield %{{.*}} : i1
// CHECK:         } -> tensor<4x8xf32>, tensor<4x8xi64>
func.func @sort_two_outputs(%x: tensor<4x8xf32>, %i: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  %r:2 = tm_tensor.sort dimension(1) outs(%x, %i : tensor<4x8xf32>, tensor<4x8xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  } -> tensor<4x8xf32>, tensor<4x8xi64>
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xi64>
}

// CHECK-LABEL: func.func @scan_on_memrefs
// CHECK:         tm_tensor.scan dimension(0) inclusive(false) ins(%{{.*}} : memref<8xf32>) outs(%{{.*}}, %{{.*}} : memref<8xf32>, memref<f32>) {
// CHECK-NOT:     ->
func.func @scan_on_memrefs(%x: memref<8xf32>, %out: memref<8xf32>, %acc: memref<f32>) {
  tm_tensor.scan dimension(0) inclusive(false) ins(%x : memref<8xf32>) outs(%out, %acc : memref<8xf32>, memref<f32>) {
  ^bb0(%prev: f32, %v: f32):
    %s = arith.addf %prev, %v : f32
    tm_tensor.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @scatter_add
// CHECK:         tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%{{.*}}, %{{.*}} : tensor<3x1x8xf32>, tensor<3x1xi64>) outs(%{{.*}} : tensor<5x8xf32>) {
func.func @scatter_add(%x: tensor<5x8xf32>, %u: tensor<3x1x8xf32>, %i: tensor<3x1xi64>) -> tensor<5x8xf32> {
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<3x1x8xf32>, tensor<3x1xi64>) outs(%x : tensor<5x8xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %s = arith.addf %cur, %upd : f32
    tm_tensor.yield %s : f32
  } -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// CHECK-LABEL: func.func @topk_without_input_indices
// CHECK:         tm_tensor.topk dimension(1) ins(%{{.*}} : tensor<2x9xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi32>) {
func.func @topk_without_input_indices(%x: tensor<2x9xf32>, %v: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %r:2 = tm_tensor.topk dimension(1) ins(%x : tensor<2x9xf32>) outs(%v, %i : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%new: f32, %kept: f32):
    %gt = arith.cmpf ogt, %new, %kept : f32
    tm_tensor.yield %gt : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
