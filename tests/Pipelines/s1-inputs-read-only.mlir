// RUN: %pb-opt %s -split-input-file --pb-s1-pipeline | FileCheck %s


// Inputs are read-only: an op whose init is an argument writes into the
// out-parameter (or a new buffer), never into the argument.

// CHECK-LABEL: func.func @op_with_argument_as_init_does_not_write_the_argument
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK-NOT:     outs(%[[A]]
// CHECK-NOT:     memref.copy %{{[^,]*}}, %[[A]] :
// CHECK:         linalg.exp ins
// CHECK-NOT:     outs(%[[A]]
// CHECK-NOT:     memref.copy %{{[^,]*}}, %[[A]] :
// CHECK:         return
func.func @op_with_argument_as_init_does_not_write_the_argument(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Inserting into an argument tensor copies the argument into the out-parameter
// first and inserts there; the argument is not written.

// CHECK-LABEL: func.func @insert_slice_into_argument_does_not_write_the_argument
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<2xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK-NOT:     memref.subview %[[A]]
// CHECK:         memref.copy %[[A]], %[[OUT]]
// CHECK:         %[[SV:.*]] = memref.subview %[[OUT]][0] [2] [1]
// CHECK:         memref.copy %[[B]], %[[SV]]
func.func @insert_slice_into_argument_does_not_write_the_argument(%a: tensor<4xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %0 = tensor.insert_slice %b into %a[0] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}
