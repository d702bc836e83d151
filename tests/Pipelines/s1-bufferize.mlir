// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pb-s1-pipeline | FileCheck %s
// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(pb-s1-pipeline)' | FileCheck %s
// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pb-s1-pipeline | FileCheck %s --check-prefix=NOTENSOR

// Tests for S1 (pb-s1-pipeline): tensor programs become memref programs whose
// results are trailing out-parameters and whose public functions return an
// i32 status of 0.

// No tensor type, TOSA op, private function or call survives S1.
// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: tosa.
// NOTENSOR-NOT: bufferization.
// NOTENSOR-NOT: func.func private
// NOTENSOR-NOT: call @

// The result becomes a trailing memref out-parameter that the op writes into
// directly, and the function returns the status 0.

// CHECK-LABEL: func.func @result_becomes_trailing_out_parameter
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>) -> i32
// CHECK-DAG:     %[[OK:.*]] = arith.constant 0 : i32
// CHECK-DAG:     linalg.add ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<4x8xf32>) outs(%[[OUT]] : memref<4x8xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         return %[[OK]] : i32
func.func @result_becomes_trailing_out_parameter(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Several results become out-parameters in result order, after the inputs.

// CHECK-LABEL: func.func @results_become_out_parameters_in_order
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT0:.*]]: memref<4xf32>, %[[OUT1:.*]]: memref<2x2xf32>) -> i32
// CHECK-DAG:     linalg.exp ins(%[[A]] : memref<4xf32>) outs(%[[OUT0]] : memref<4xf32>)
// CHECK-DAG:     %[[A2:.*]] = memref.expand_shape %[[A]] {{\[\[}}0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
// CHECK-DAG:     linalg.negf ins(%[[A2]] : memref<2x2xf32>) outs(%[[OUT1]] : memref<2x2xf32>)
// CHECK:         return %{{.*}} : i32
func.func @results_become_out_parameters_in_order(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a2 = tensor.expand_shape %a [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<2x2xf32>
  %1 = linalg.negf ins(%a2 : tensor<2x2xf32>) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x2xf32>
}

// -----

// A result that is an argument is copied into its out-parameter.

// CHECK-LABEL: func.func @returned_argument_is_copied_into_out_parameter
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK:         memref.copy %[[A]], %[[OUT]] : memref<4xf32> to memref<4xf32>
// CHECK:         return %{{.*}} : i32
func.func @returned_argument_is_copied_into_out_parameter(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A constant result becomes a private constant global copied into the
// out-parameter.

// CHECK:       memref.global "private" constant @[[GLOBAL:.*]] : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @constant_result_is_copied_from_a_global
// CHECK-SAME:    (%[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK:         %[[G:.*]] = memref.get_global @[[GLOBAL]] : memref<4xf32>
// CHECK:         memref.copy %[[G]], %[[OUT]] : memref<4xf32> to memref<4xf32>
func.func @constant_result_is_copied_from_a_global() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// tosa.add is turned into a linalg.generic of arith.addf that writes into the
// out-parameter.

// CHECK-LABEL: func.func @tosa_add_becomes_linalg_generic
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>) -> i32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<4x8xf32>) outs(%[[OUT]] : memref<4x8xf32>)
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @tosa_add_becomes_linalg_generic(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// tosa.clamp on i32 (outside the TOSA specification's profiles) is accepted
// and becomes signed integer max/min.

// CHECK-LABEL: func.func @tosa_clamp_on_i32_becomes_maxsi_minsi
// CHECK-SAME:    (%[[A:.*]]: memref<8xi32>, %[[OUT:.*]]: memref<8xi32>) -> i32
// CHECK-DAG:     %[[LO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[HI:.*]] = arith.constant 6 : i32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[A]] : memref<8xi32>) outs(%[[OUT]] : memref<8xi32>)
// CHECK:           %[[M:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i32
// CHECK-NEXT:      %[[N:.*]] = arith.minsi %[[M]], %[[HI]] : i32
// CHECK-NEXT:      linalg.yield %[[N]] : i32
func.func @tosa_clamp_on_i32_becomes_maxsi_minsi(%a: tensor<8xi32>) -> tensor<8xi32> {
  %0 = tosa.clamp %a {min_val = 0 : i32, max_val = 6 : i32} : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// tosa.matmul becomes a zero fill and a linalg.batch_matmul into the
// out-parameter.

// CHECK-LABEL: func.func @tosa_matmul_becomes_batch_matmul
// CHECK-SAME:    (%[[A:.*]]: memref<1x4x8xf32>, %[[B:.*]]: memref<1x8x16xf32>, %[[OUT:.*]]: memref<1x4x16xf32>) -> i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%[[OUT]] : memref<1x4x16xf32>)
// CHECK-NEXT:    linalg.batch_matmul ins(%[[A]], %[[B]] : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%[[OUT]] : memref<1x4x16xf32>)
func.func @tosa_matmul_becomes_batch_matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

// Private helpers are inlined into their callers and then removed.

// CHECK-NOT:   @helper_is_inlined_and_removed
// CHECK-LABEL: func.func @caller_of_private_helper
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK-NOT:     call
// CHECK:         linalg.exp ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT:    linalg.exp ins(%[[OUT]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT:     call
// CHECK:         return
// CHECK-NOT:   @helper_is_inlined_and_removed
func.func private @helper_is_inlined_and_removed(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @caller_of_private_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper_is_inlined_and_removed(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @helper_is_inlined_and_removed(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A call to another public function is inlined; the callee stays, with its own
// out-parameter and status.

// CHECK-LABEL: func.func @public_callee
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK:         linalg.exp ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-LABEL: func.func @caller_of_public_function_gets_it_inlined
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK-NOT:     call
// CHECK:         linalg.exp ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
func.func @public_callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @caller_of_public_function_gets_it_inlined(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @public_callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An intermediate buffer is allocated and deallocated after its last use.

// CHECK-LABEL: func.func @intermediate_buffer_is_deallocated
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<f32>) -> i32
// CHECK:         %[[TMP:.*]] = memref.alloc() {{.*}}: memref<64xf32>
// CHECK:         linalg.exp ins(%[[A]] : memref<64xf32>) outs(%[[TMP]] : memref<64xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : memref<f32>)
// CHECK:         linalg.reduce ins(%[[TMP]] : memref<64xf32>) outs(%[[OUT]] : memref<f32>) dimensions = [0]
// CHECK:         memref.dealloc %[[TMP]] : memref<64xf32>
// CHECK-NEXT:    return
func.func @intermediate_buffer_is_deallocated(%a: tensor<64xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.exp ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %cst = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%i : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%0 : tensor<64xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// tensor.pad fills the out-parameter and copies the source into a strided
// subview of it (the copy is left to pb-lower-copies in S2).

// CHECK-LABEL: func.func @pad_writes_into_a_subview_of_the_out_parameter
// CHECK-SAME:    (%[[A:.*]]: memref<4x4xf32>, %[[OUT:.*]]: memref<6x6xf32>) -> i32
// CHECK:         linalg.map outs(%[[OUT]] : memref<6x6xf32>)
// CHECK:         %[[SV:.*]] = memref.subview %[[OUT]][1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
// CHECK-NEXT:    memref.copy %[[A]], %[[SV]] : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
func.func @pad_writes_into_a_subview_of_the_out_parameter(%a: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// -----

// The input checks of pb-legalize-input run first: an invalid program is
// rejected before any transformation.

// expected-error@+1 {{dynamic dimension in argument #0 of @s1_rejects_invalid_input: 'tensor<?xf32>' (only static shapes are supported)}}
func.func @s1_rejects_invalid_input(%a: tensor<?xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}
