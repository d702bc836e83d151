// RUN: pb-opt %s -one-shot-bufferize="bufferize-function-boundaries" -split-input-file | FileCheck %s

// One-shot bufferization turns a tm_tensor op into the same op on the
// buffers of its operands: outputs updated in place, no results.

// CHECK-LABEL: func.func @scan_in_place
// CHECK-SAME:    (%[[X:.*]]: memref<4x8xf32{{.*}}>, %[[O:.*]]: memref<4x8xf32{{.*}}>, %[[A:.*]]: memref<4xf32{{.*}}>)
// CHECK:         tm_tensor.scan dimension(1) inclusive(true) ins(%[[X]] : memref<4x8xf32{{.*}}>) outs(%[[O]], %[[A]] : memref<4x8xf32{{.*}}>, memref<4xf32{{.*}}>) {
// CHECK:         }
// CHECK:         return %[[O]]
func.func @scan_in_place(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4x8xf32> {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xf32>) outs(%o, %acc : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%p: f32, %v: f32):
    %s = arith.addf %p, %v : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x8xf32>, tensor<4xf32>
  return %r#0 : tensor<4x8xf32>
}

// -----

// An output that is read afterwards is copied first.
// CHECK-LABEL: func.func @sort_copies_a_live_output
// CHECK:         %[[COPY:.*]] = memref.alloc
// CHECK:         memref.copy %{{.*}}, %[[COPY]]
// CHECK:         tm_tensor.sort dimension(0) outs(%[[COPY]] : memref<8xf32>)
func.func @sort_copies_a_live_output(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r = tm_tensor.sort dimension(0) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  } -> tensor<8xf32>
  return %r, %x : tensor<8xf32>, tensor<8xf32>
}
