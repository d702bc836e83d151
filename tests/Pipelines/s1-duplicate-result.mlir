// RUN: %pb-opt %s -split-input-file --pb-s1-pipeline | FileCheck %s

// The same computed value returned twice fills both out-parameters: the op
// writes the first and a copy of it the second.

// CHECK-LABEL: func.func @same_value_returned_twice_fills_both_out_parameters
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT0:.*]]: memref<4xf32>, %[[OUT1:.*]]: memref<4xf32>) -> i32
// CHECK:         linalg.exp ins(%[[A]] : memref<4xf32>) outs(%[[OUT0]] : memref<4xf32>)
// CHECK-NEXT:    memref.copy %[[OUT0]], %[[OUT1]]
// CHECK:         return %{{.*}} : i32
func.func @same_value_returned_twice_fills_both_out_parameters(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}
