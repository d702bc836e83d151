// RUN: pb-opt %s -split-input-file -pb-yield-into-iter-args | FileCheck %s

// Tests for pb-yield-into-iter-args: a tensor computed in a loop and carried
// to the next iteration is materialized in the iteration argument.

// CHECK-LABEL: func @for_result_materialized_in_iter_arg
// CHECK:         scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}})
// CHECK:           %[[N:.*]] = linalg.exp
// CHECK:           %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[T]]
// CHECK:           scf.yield %[[M]]
func.func @for_result_materialized_in_iter_arg(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %x) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %n = linalg.exp ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Carried unchanged, or swapped: nothing to materialize. An iteration
// argument that is passed on itself keeps its buffer for that value.
// CHECK-LABEL: func @swapped_and_passed_on_left_alone
// CHECK-NOT:     bufferization.materialize_in_destination
// CHECK:         scf.yield %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>
func.func @swapped_and_passed_on_left_alone(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s, %x : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// scf.while: the condition forwards its block's arguments unchanged; the
// after region's new tensor is materialized in the after region's argument.
// Scalars are not touched.
// CHECK-LABEL: func @while_yield_materialized_in_after_argument
// CHECK:         scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<i32>, tensor<8xf32>
// CHECK:       ^bb0(%[[K:.*]]: tensor<i32>, %[[V:.*]]: tensor<8xf32>):
// CHECK:         %[[K1:.*]] = linalg.generic
// CHECK:         %[[V1:.*]] = linalg.exp
// CHECK-DAG:     %[[MK:.*]] = bufferization.materialize_in_destination %[[K1]] in %[[K]]
// CHECK-DAG:     %[[MV:.*]] = bufferization.materialize_in_destination %[[V1]] in %[[V]]
// CHECK:         scf.yield %[[MK]], %[[MV]]
#scalar = affine_map<() -> ()>
func.func @while_yield_materialized_in_after_argument(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %zero = arith.constant dense<0> : tensor<i32>
  %r:2 = scf.while (%k = %zero, %v = %x) : (tensor<i32>, tensor<8xf32>) -> (tensor<i32>, tensor<8xf32>) {
    %ks = tensor.extract %k[] : tensor<i32>
    %go = arith.cmpi slt, %ks, %c7 : i32
    scf.condition(%go) %k, %v : tensor<i32>, tensor<8xf32>
  } do {
  ^bb0(%k: tensor<i32>, %v: tensor<8xf32>):
    %e0 = tensor.empty() : tensor<i32>
    %k1 = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
        ins(%k : tensor<i32>) outs(%e0 : tensor<i32>) {
    ^bb0(%in: i32, %out: i32):
      %a = arith.addi %in, %c1 : i32
      linalg.yield %a : i32
    } -> tensor<i32>
    %e1 = tensor.empty() : tensor<8xf32>
    %v1 = linalg.exp ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %k1, %v1 : tensor<i32>, tensor<8xf32>
  }
  return %r#1 : tensor<8xf32>
}
