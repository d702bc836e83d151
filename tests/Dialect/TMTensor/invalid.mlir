// RUN: pb-opt %s -split-input-file -verify-diagnostics

// The verifiers of the tm_tensor ops.

func.func @sort_dimension_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'tm_tensor.sort' op dimension 2 is out of range for rank 2}}
  %r = tm_tensor.sort dimension(2) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @sort_outputs_of_different_shapes(%x: tensor<4x8xf32>, %i: tensor<4x7xi64>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'tm_tensor.sort' op expects every `outs` operand to have the shape of the first, got 'tensor<4x7xi64>'}}
  %r:2 = tm_tensor.sort dimension(1) outs(%x, %i : tensor<4x8xf32>, tensor<4x7xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  } -> tensor<4x8xf32>, tensor<4x7xi64>
  return %r#0 : tensor<4x8xf32>
}

// -----

func.func @sort_comparator_not_i1(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'tm_tensor.sort' op expects its region to yield one value of type 'i1'}}
  %r = tm_tensor.sort dimension(0) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    tm_tensor.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @scan_accumulator_shape(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %acc: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'tm_tensor.scan' op expects the accumulator to have the input's shape without dimension 1, got 'tensor<8xf32>'}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xf32>) outs(%o, %acc : tensor<4x8xf32>, tensor<8xf32>) {
  ^bb0(%p: f32, %v: f32):
    %s = arith.addf %p, %v : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x8xf32>, tensor<8xf32>
  return %r#0 : tensor<4x8xf32>
}

// -----

func.func @scatter_indices_rank(%x: tensor<5x8xf32>, %u: tensor<3x8xf32>, %i: tensor<3xi64>) -> tensor<5x8xf32> {
  // expected-error@+1 {{'tm_tensor.scatter' op expects indices of rank 2 and an integer type, got 'tensor<3xi64>'}}
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<3x8xf32>, tensor<3xi64>) outs(%x : tensor<5x8xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    tm_tensor.yield %upd : f32
  } -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// -----

func.func @scatter_dimension_map_length(%x: tensor<5x8xf32>, %u: tensor<3x8xf32>, %i: tensor<3x1xi64>) -> tensor<5x8xf32> {
  // expected-error@+1 {{'tm_tensor.scatter' op expects one dimension_map entry per index column (1), got 2}}
  %r = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%u, %i : tensor<3x8xf32>, tensor<3x1xi64>) outs(%x : tensor<5x8xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    tm_tensor.yield %upd : f32
  } -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// -----

func.func @topk_output_shape(%x: tensor<2x9xf32>, %v: tensor<3x3xf32>, %i: tensor<3x3xi32>) -> tensor<3x3xf32> {
  // expected-error@+1 {{'tm_tensor.topk' op expects the outputs to have the input's shape but for dimension 1, got 'tensor<3x3xf32>'}}
  %r:2 = tm_tensor.topk dimension(1) ins(%x : tensor<2x9xf32>) outs(%v, %i : tensor<3x3xf32>, tensor<3x3xi32>) {
  ^bb0(%new: f32, %kept: f32):
    %gt = arith.cmpf ogt, %new, %kept : f32
    tm_tensor.yield %gt : i1
  } -> tensor<3x3xf32>, tensor<3x3xi32>
  return %r#0 : tensor<3x3xf32>
}

// -----

func.func @mixed_tensors_and_memrefs(%x: tensor<8xf32>, %o: memref<8xf32>, %acc: memref<f32>) {
  // expected-error@+1 {{'tm_tensor.scan' op expects all operands to be tensors or all to be memrefs}}
  tm_tensor.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%o, %acc : memref<8xf32>, memref<f32>) {
  ^bb0(%p: f32, %v: f32):
    %s = arith.addf %p, %v : f32
    tm_tensor.yield %s : f32
  }
  return
}
