// RUN: pb-opt %s -split-input-file -pb-prepare-entry-points | FileCheck %s

// The tensor arguments of a public function become read-only for
// bufferization; private functions are left alone.
// CHECK-LABEL: func @inputs_become_read_only
// CHECK-SAME:    %{{[a-z0-9]+}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME:    %{{[a-z0-9]+}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-LABEL: func private @helper
// CHECK-NOT:     bufferization.writable
func.func @inputs_become_read_only(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A value returned several times gets a copy of its own for every result
// after the first, which keeps the value itself.
// CHECK-LABEL: func @value_returned_three_times_is_copied_twice
// CHECK:         %[[E:.*]] = linalg.exp
// CHECK:         %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[E]]) : tensor<4xf32>
// CHECK:         %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[E]]) : tensor<4xf32>
// CHECK:         return %[[E]], %[[C1]], %[[C2]]
func.func @value_returned_three_times_is_copied_twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %0, %0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
