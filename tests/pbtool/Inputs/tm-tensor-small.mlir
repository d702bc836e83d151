// Small tm_tensor programs for results checked by hand.
module {
  func.func @sort_pairs(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xi64>) {
    %e = tensor.empty() : tensor<6xi64>
    %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<6xi64>) {
    ^bb0(%out: i64):
      %j = linalg.index 0 : index
      %v = arith.index_cast %j : index to i64
      linalg.yield %v : i64
    } -> tensor<6xi64>
    %r:2 = tm_tensor.sort dimension(0) outs(%x, %iota : tensor<6xf32>, tensor<6xi64>) {
    ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
      %le = arith.cmpf ole, %a, %b : f32
      tm_tensor.yield %le : i1
    } -> tensor<6xf32>, tensor<6xi64>
    return %r#0, %r#1 : tensor<6xf32>, tensor<6xi64>
  }

  func.func @top2(%x: tensor<6xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %max = arith.constant 2147483647 : i32
    %ev = tensor.empty() : tensor<2xf32>
    %ei = tensor.empty() : tensor<2xi32>
    %v0 = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2xf32>) -> tensor<2xf32>
    %i0 = linalg.fill ins(%max : i32) outs(%ei : tensor<2xi32>) -> tensor<2xi32>
    %r:2 = tm_tensor.topk dimension(0) ins(%x : tensor<6xf32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xi32>) {
    ^bb0(%new: f32, %kept: f32):
      %gt = arith.cmpf ogt, %new, %kept : f32
      tm_tensor.yield %gt : i1
    } -> tensor<2xf32>, tensor<2xi32>
    return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
  }

  func.func @cumsum(%x: tensor<5xf32>) -> tensor<5xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5xf32>
    %o = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
    %a = tensor.from_elements %zero : tensor<f32>
    %r:2 = tm_tensor.scan dimension(0) inclusive(true) ins(%x : tensor<5xf32>) outs(%o, %a : tensor<5xf32>, tensor<f32>) {
    ^bb0(%p: f32, %v: f32):
      %s = arith.addf %p, %v : f32
      tm_tensor.yield %s : f32
    } -> tensor<5xf32>, tensor<f32>
    return %r#0 : tensor<5xf32>
  }

  func.func @cumsum_exclusive_from_10(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<f32>) {
    %zero = arith.constant 0.0 : f32
    %ten = arith.constant 10.0 : f32
    %e = tensor.empty() : tensor<5xf32>
    %o = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
    %a = tensor.from_elements %ten : tensor<f32>
    %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<5xf32>) outs(%o, %a : tensor<5xf32>, tensor<f32>) {
    ^bb0(%p: f32, %v: f32):
      %s = arith.addf %p, %v : f32
      tm_tensor.yield %s : f32
    } -> tensor<5xf32>, tensor<f32>
    return %r#0, %r#1 : tensor<5xf32>, tensor<f32>
  }

  func.func @scatter_rows(%x: tensor<3x2xf32>, %rows: tensor<3xi64>, %v: tensor<3x2xf32>) -> tensor<3x2xf32> {
    %i = tensor.expand_shape %rows [[0, 1]] output_shape [3, 1] : tensor<3xi64> into tensor<3x1xi64>
    %u = tensor.expand_shape %v [[0], [1, 2]] output_shape [3, 1, 2] : tensor<3x2xf32> into tensor<3x1x2xf32>
    %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<3x1x2xf32>, tensor<3x1xi64>) outs(%x : tensor<3x2xf32>) {
    ^bb0(%upd: f32, %cur: f32):
      %s = arith.addf %cur, %upd : f32
      tm_tensor.yield %s : f32
    } -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}
