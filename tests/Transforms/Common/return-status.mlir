// RUN: %pb-opt %s -split-input-file -pb-return-status -verify-diagnostics | FileCheck %s

// Tests for pb-return-status: public functions whose results have become
// out-parameters return an i32 status of 0; private functions are untouched.

// A public function without results gets `-> i32` and returns constant 0.

// CHECK-LABEL: func.func @public_function_returns_zero_status
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) -> i32
// CHECK-NEXT:    memref.copy %[[A]], %[[OUT]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    %[[OK:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[OK]] : i32
// CHECK-NEXT:  }
func.func @public_function_returns_zero_status(%a: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Every return of a public function with several blocks returns 0.

// CHECK-LABEL: func.func @every_return_returns_zero_status
// CHECK-SAME:    (%[[COND:.*]]: i1, %{{.*}}: memref<f32>) -> i32
// CHECK-NEXT:    cf.cond_br %[[COND]], ^[[BB1:.*]], ^[[BB2:.*]]
// CHECK-NEXT:  ^[[BB1]]:
// CHECK-NEXT:    %[[OK1:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[OK1]] : i32
// CHECK-NEXT:  ^[[BB2]]:
// CHECK-NEXT:    %[[OK2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[OK2]] : i32
func.func @every_return_returns_zero_status(%c: i1, %out: memref<f32>) {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}

// -----

// A public function without arguments gets the status too.

// CHECK-LABEL: func.func @function_without_arguments_returns_zero_status() -> i32
// CHECK-NEXT:    %[[OK:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[OK]] : i32
func.func @function_without_arguments_returns_zero_status() {
  return
}

// -----

// Private functions, with or without results, and private declarations are
// left untouched; a call from a public function to a private one is allowed.

// CHECK-LABEL: func.func private @private_function_with_result_is_untouched
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>) -> f32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[A]][%[[C0]]] : memref<4xf32>
// CHECK-NEXT:    return %[[V]] : f32
func.func private @private_function_with_result_is_untouched(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// CHECK-LABEL: func.func private @private_function_without_result_is_untouched
// CHECK-SAME:    (%{{.*}}: memref<4xf32>) {
// CHECK-NEXT:    return{{$}}
func.func private @private_function_without_result_is_untouched(%a: memref<4xf32>) {
  return
}

// CHECK-LABEL: func.func private @private_declaration_is_untouched(memref<4xf32>){{$}}
func.func private @private_declaration_is_untouched(memref<4xf32>)

// CHECK-LABEL: func.func @public_caller_of_private_function
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<f32>) -> i32
// CHECK-NEXT:    %[[V:.*]] = call @private_function_with_result_is_untouched(%[[A]]) : (memref<4xf32>) -> f32
// CHECK-NEXT:    call @private_function_without_result_is_untouched(%[[A]]) : (memref<4xf32>) -> ()
// CHECK-NEXT:    memref.store %[[V]], %[[OUT]][] : memref<f32>
// CHECK-NEXT:    %[[OK:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[OK]] : i32
func.func @public_caller_of_private_function(%a: memref<4xf32>, %out: memref<f32>) {
  %v = call @private_function_with_result_is_untouched(%a) : (memref<4xf32>) -> f32
  call @private_function_without_result_is_untouched(%a) : (memref<4xf32>) -> ()
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

// A public function that still has results is rejected: results must have
// become out-parameters first.

// expected-error@+1 {{'func.func' op still has results; pb-return-status expects results to be out-parameters}}
func.func @public_function_with_results_is_rejected(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// -----

// A public function that already returns an i32 is rejected too: the pass is
// not idempotent and runs once.

// expected-error@+1 {{'func.func' op still has results; pb-return-status expects results to be out-parameters}}
func.func @public_function_already_returning_i32_is_rejected(%a: memref<4xf32>) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// A call to a public function is rejected, because the callee's type changes.

func.func @public_callee(%a: memref<4xf32>) {
  return
}

func.func @call_to_public_function_is_rejected(%a: memref<4xf32>) {
  // expected-error@+1 {{'func.call' op calls public function @public_callee, which must be inlined before pb-return-status}}
  call @public_callee(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// A call to a public function is rejected even from a private function.

func.func @another_public_callee(%a: memref<4xf32>) {
  return
}

func.func private @call_from_private_function_to_public_function_is_rejected(%a: memref<4xf32>) {
  // expected-error@+1 {{'func.call' op calls public function @another_public_callee, which must be inlined before pb-return-status}}
  call @another_public_callee(%a) : (memref<4xf32>) -> ()
  return
}
