// RUN: pb-opt %s -split-input-file -pb-pad-in-place | FileCheck %s

// The border of the padded tensor is filled before its source is computed
// (for each padded dimension, the slabs below and above the interior,
// across the interior of the dimensions before it), and the source
// inserted into its interior: no element is written twice.
// CHECK-LABEL: func @relu_then_pad
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x4x8xf32>)
// CHECK:         arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    tensor.empty() : tensor<1x4x4x8xf32>
// CHECK-NEXT:    %[[PV:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x6x7x8xf32>
// CHECK:         %[[T:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%{{.*}} : tensor<1x1x7x8xf32>)
// CHECK:         %[[F1:.*]] = tensor.insert_slice %[[T]] into %[[E]][0, 0, 0, 0] [1, 1, 7, 8] [1, 1, 1, 1]
// CHECK:         %[[B:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%{{.*}} : tensor<1x1x7x8xf32>)
// CHECK:         %[[F2:.*]] = tensor.insert_slice %[[B]] into %[[F1]][0, 5, 0, 0] [1, 1, 7, 8] [1, 1, 1, 1]
// CHECK:         %[[L:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%{{.*}} : tensor<1x4x2x8xf32>)
// CHECK:         %[[F3:.*]] = tensor.insert_slice %[[L]] into %[[F2]][0, 1, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1]
// CHECK:         %[[RT:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%{{.*}} : tensor<1x4x1x8xf32>)
// CHECK:         %[[F:.*]] = tensor.insert_slice %[[RT]] into %[[F3]][0, 1, 6, 0] [1, 4, 1, 8] [1, 1, 1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-NOT:     tensor.pad
// CHECK:         %[[P:.*]] = tensor.insert_slice %[[R]] into %[[F]][0, 1, 2, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK:         return %[[P]]
func.func @relu_then_pad(%x: tensor<1x4x4x8xf32>) -> tensor<1x6x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x8xf32>
  %p = tensor.pad %r low[0, 1, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x8xf32> to tensor<1x6x7x8xf32>
  return %p : tensor<1x6x7x8xf32>
}

// -----

// A pad of an argument (nothing computes it), and a pad whose value is not
// a constant, stay pads.
// CHECK-LABEL: func @left_alone
// CHECK:         tensor.pad
// CHECK:         tensor.pad
// CHECK-NOT:     tensor.insert_slice
func.func @left_alone(%x: tensor<4x4xf32>, %v: f32) -> (tensor<6x6xf32>, tensor<6x6xf32>) {
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %n = linalg.negf ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = tensor.pad %n low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p, %q : tensor<6x6xf32>, tensor<6x6xf32>
}
