// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @scatter_add_rows
// CHECK: PASS @scatter_add_elements
// Covers: tm_tensor.scatter as torch-mlir writes index_put(accumulate=True)
// (row slices at indexed rows, repeated indices accumulating) and
// scatter_add (single elements at (row, column) pairs built by a generic);
// crosscheck draws the index inputs inside the original's rows.
// Not for GPU targets: the scatter's bounds checks (cf.assert) are rejected
// there (tests/gpu/run-time-checks.test).
#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0) -> (d0, 0)>
module {
  func.func @scatter_add_rows(%x: tensor<6x8xf32>, %rows: tensor<9xi64>, %v: tensor<9x8xf32>) -> tensor<6x8xf32> {
    %i = tensor.expand_shape %rows [[0, 1]] output_shape [9, 1] : tensor<9xi64> into tensor<9x1xi64>
    %u = tensor.expand_shape %v [[0], [1, 2]] output_shape [9, 1, 8] : tensor<9x8xf32> into tensor<9x1x8xf32>
    %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<9x1x8xf32>, tensor<9x1xi64>) outs(%x : tensor<6x8xf32>) {
    ^bb0(%upd: f32, %cur: f32):
      %s = arith.addf %cur, %upd : f32
      tm_tensor.yield %s : f32
    } -> tensor<6x8xf32>
    return %r : tensor<6x8xf32>
  }

  func.func @scatter_add_elements(%x: tensor<5x8xf32>, %idx: tensor<3x8xi64>, %src: tensor<3x8xf32>) -> tensor<5x8xf32> {
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c0_i64 = arith.constant 0 : i64
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<24x1xi64>
    %z0 = linalg.fill ins(%c0_i64 : i64) outs(%e0 : tensor<24x1xi64>) -> tensor<24x1xi64>
    %e1 = tensor.empty() : tensor<24xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<24xf32>) -> tensor<24xf32>
    %g:3 = linalg.generic {indexing_maps = [#col, #col, #id1], iterator_types = ["parallel"]} outs(%z0, %z0, %z1 : tensor<24x1xi64>, tensor<24x1xi64>, tensor<24xf32>) {
    ^bb0(%o0: i64, %o1: i64, %o2: f32):
      %n = linalg.index 0 : index
      %j = arith.remsi %n, %c8 : index
      %q = arith.divsi %n, %c8 : index
      %k = arith.remsi %q, %c3 : index
      %row = tensor.extract %idx[%k, %j] : tensor<3x8xi64>
      %val = tensor.extract %src[%k, %j] : tensor<3x8xf32>
      %jc = arith.index_cast %j : index to i64
      linalg.yield %row, %jc, %val : i64, i64, f32
    } -> (tensor<24x1xi64>, tensor<24x1xi64>, tensor<24xf32>)
    %e2 = tensor.empty() : tensor<24x2xi64>
    %z2 = linalg.fill ins(%c0_i64 : i64) outs(%e2 : tensor<24x2xi64>) -> tensor<24x2xi64>
    %p0 = tensor.insert_slice %g#0 into %z2[0, 0] [24, 1] [1, 1] : tensor<24x1xi64> into tensor<24x2xi64>
    %p1 = tensor.insert_slice %g#1 into %p0[0, 1] [24, 1] [1, 1] : tensor<24x1xi64> into tensor<24x2xi64>
    %r = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%g#2, %p1 : tensor<24xf32>, tensor<24x2xi64>) outs(%x : tensor<5x8xf32>) {
    ^bb0(%upd: f32, %cur: f32):
      %s = arith.addf %cur, %upd : f32
      tm_tensor.yield %s : f32
    } -> tensor<5x8xf32>
    return %r : tensor<5x8xf32>
  }
}
