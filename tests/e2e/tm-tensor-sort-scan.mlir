// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @sort_with_indices
// CHECK: PASS @sort_descending_middle_dimension
// CHECK: PASS @topk_from_sort
// CHECK: PASS @topk_op
// CHECK: PASS @cumsum_inclusive
// CHECK: PASS @cumprod_exclusive
// Covers: torch-mlir's tm_tensor.sort (torch.sort and argsort: values with
// their indices; descending along a middle dimension), top-k as the importer
// writes it (a sort and a slice) and as tm_tensor.topk, and tm_tensor.scan
// (torch.cumsum, and an exclusive product), on sizes that are no power of
// two.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sort_with_indices(%x: tensor<5x37xf32>) -> (tensor<5x37xf32>, tensor<5x37xi64>) {
    %e = tensor.empty() : tensor<5x37xi64>
    %iota = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5x37xi64>) {
    ^bb0(%out: i64):
      %j = linalg.index 1 : index
      %v = arith.index_cast %j : index to i64
      linalg.yield %v : i64
    } -> tensor<5x37xi64>
    %r:2 = tm_tensor.sort dimension(1) outs(%x, %iota : tensor<5x37xf32>, tensor<5x37xi64>) {
    ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
      %le = arith.cmpf ole, %a, %b : f32
      tm_tensor.yield %le : i1
    } -> tensor<5x37xf32>, tensor<5x37xi64>
    return %r#0, %r#1 : tensor<5x37xf32>, tensor<5x37xi64>
  }

  func.func @sort_descending_middle_dimension(%x: tensor<3x19x4xf32>) -> tensor<3x19x4xf32> {
    %r = tm_tensor.sort dimension(1) outs(%x : tensor<3x19x4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %ge = arith.cmpf oge, %a, %b : f32
      tm_tensor.yield %ge : i1
    } -> tensor<3x19x4xf32>
    return %r : tensor<3x19x4xf32>
  }

  func.func @topk_from_sort(%x: tensor<4x50xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
    %e = tensor.empty() : tensor<4x50xi64>
    %iota = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x50xi64>) {
    ^bb0(%out: i64):
      %j = linalg.index 1 : index
      %v = arith.index_cast %j : index to i64
      linalg.yield %v : i64
    } -> tensor<4x50xi64>
    %s:2 = tm_tensor.sort dimension(1) outs(%x, %iota : tensor<4x50xf32>, tensor<4x50xi64>) {
    ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
      %ge = arith.cmpf oge, %a, %b : f32
      tm_tensor.yield %ge : i1
    } -> tensor<4x50xf32>, tensor<4x50xi64>
    %v = tensor.extract_slice %s#0[0, 0] [4, 5] [1, 1] : tensor<4x50xf32> to tensor<4x5xf32>
    %i = tensor.extract_slice %s#1[0, 0] [4, 5] [1, 1] : tensor<4x50xi64> to tensor<4x5xi64>
    return %v, %i : tensor<4x5xf32>, tensor<4x5xi64>
  }

  func.func @topk_op(%x: tensor<3x40xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %max = arith.constant 2147483647 : i32
    %ev = tensor.empty() : tensor<3x4xf32>
    %ei = tensor.empty() : tensor<3x4xi32>
    %v0 = linalg.fill ins(%ninf : f32) outs(%ev : tensor<3x4xf32>) -> tensor<3x4xf32>
    %i0 = linalg.fill ins(%max : i32) outs(%ei : tensor<3x4xi32>) -> tensor<3x4xi32>
    %r:2 = tm_tensor.topk dimension(1) ins(%x : tensor<3x40xf32>) outs(%v0, %i0 : tensor<3x4xf32>, tensor<3x4xi32>) {
    ^bb0(%new: f32, %kept: f32):
      %gt = arith.cmpf ogt, %new, %kept : f32
      tm_tensor.yield %gt : i1
    } -> tensor<3x4xf32>, tensor<3x4xi32>
    return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi32>
  }

  func.func @cumsum_inclusive(%x: tensor<6x33xf32>) -> tensor<6x33xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<6x33xf32>
    %o = linalg.fill ins(%zero : f32) outs(%e : tensor<6x33xf32>) -> tensor<6x33xf32>
    %ea = tensor.empty() : tensor<6xf32>
    %a = linalg.fill ins(%zero : f32) outs(%ea : tensor<6xf32>) -> tensor<6xf32>
    %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<6x33xf32>) outs(%o, %a : tensor<6x33xf32>, tensor<6xf32>) {
    ^bb0(%p: f32, %v: f32):
      %s = arith.addf %p, %v : f32
      tm_tensor.yield %s : f32
    } -> tensor<6x33xf32>, tensor<6xf32>
    return %r#0 : tensor<6x33xf32>
  }

  func.func @cumprod_exclusive(%x: tensor<7x5xf32>) -> (tensor<7x5xf32>, tensor<5xf32>) {
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<7x5xf32>
    %o = linalg.fill ins(%zero : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
    %ea = tensor.empty() : tensor<5xf32>
    %a = linalg.fill ins(%one : f32) outs(%ea : tensor<5xf32>) -> tensor<5xf32>
    %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<7x5xf32>) outs(%o, %a : tensor<7x5xf32>, tensor<5xf32>) {
    ^bb0(%p: f32, %v: f32):
      %s = arith.mulf %p, %v : f32
      tm_tensor.yield %s : f32
    } -> tensor<7x5xf32>, tensor<5xf32>
    return %r#0, %r#1 : tensor<7x5xf32>, tensor<5xf32>
  }
}
