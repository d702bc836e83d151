// RUN: %pb-opt %s -split-input-file -pb-legalize-input -verify-diagnostics | FileCheck %s

// Tests for pb-legalize-input: programs PolyBlocks accepts pass through
// unchanged; every violation is reported at its source location.

// An accepted program (linalg, tosa, tensor, arith, math) is left unchanged.

// CHECK-LABEL: func.func @accepted_program_is_unchanged
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.add %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[TANH:.*]] = math.tanh %[[SUM]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[EXP:.*]] = linalg.exp ins(%[[TANH]] : tensor<4x8xf32>) outs(%[[EMPTY]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[FILLED:.*]] = linalg.fill ins(%[[CST]] : f32) outs(%[[EMPTY]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[RES:.*]] = linalg.add ins(%[[EXP]], %[[FILLED]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[EMPTY]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[RES]] : tensor<4x8xf32>
func.func @accepted_program_is_unchanged(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = math.tanh %0 : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %2 = linalg.exp ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %cst = arith.constant 1.0 : f32
  %3 = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.add ins(%2, %3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// Every supported element type is accepted at the boundary of a public function,
// and so is a 0-d tensor.

// CHECK-LABEL: func.func @every_supported_element_type_is_accepted
// CHECK-SAME:    tensor<2xf32>, %{{.*}}: tensor<2xf64>, %{{.*}}: tensor<2xf16>, %{{.*}}: tensor<2xbf16>, %{{.*}}: tensor<2xi8>, %{{.*}}: tensor<2xi16>, %{{.*}}: tensor<2xi32>, %{{.*}}: tensor<2xi64>, %{{.*}}: tensor<2xi1>) -> tensor<f32>
func.func @every_supported_element_type_is_accepted(
    %f32: tensor<2xf32>, %f64: tensor<2xf64>, %f16: tensor<2xf16>, %bf16: tensor<2xbf16>,
    %i8: tensor<2xi8>, %i16: tensor<2xi16>, %i32: tensor<2xi32>, %i64: tensor<2xi64>,
    %i1: tensor<2xi1>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %f32[%c0] : tensor<2xf32>
  %r = tensor.from_elements %x : tensor<f32>
  return %r : tensor<f32>
}

// -----

// Only public functions must take and return tensors: a private helper with a
// scalar argument and result is accepted and left unchanged.

// CHECK-LABEL: func.func private @private_helper_may_take_scalars
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:    return %[[Y]] : f32
func.func private @private_helper_may_take_scalars(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @public_caller_of_scalar_helper
// CHECK:         call @private_helper_may_take_scalars
func.func @public_caller_of_scalar_helper(%a: tensor<f32>) -> tensor<f32> {
  %x = tensor.extract %a[] : tensor<f32>
  %y = call @private_helper_may_take_scalars(%x) : (f32) -> f32
  %r = tensor.from_elements %y : tensor<f32>
  return %r : tensor<f32>
}

// -----

// A dynamic dimension in an argument of a public function is reported at the
// argument.

// expected-error@+1 {{dynamic dimension in argument #0 of @dynamic_dimension_in_argument_is_rejected: 'tensor<?x4xf32>' (only static shapes are supported)}}
func.func @dynamic_dimension_in_argument_is_rejected(%a: tensor<?x4xf32>) -> tensor<4x4xf32> {
  %0 = tensor.empty() : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A dynamic dimension in a result of a public function is reported at the
// function, and the op producing the dynamic value is reported too.

// expected-error@+1 {{dynamic dimension in result #0 of @dynamic_dimension_in_result_is_rejected: 'tensor<?x4xf32>' (only static shapes are supported)}}
func.func @dynamic_dimension_in_result_is_rejected(%a: tensor<4x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{dynamic dimension in result of 'tensor.cast': 'tensor<?x4xf32>' (only static shapes are supported)}}
  %0 = tensor.cast %a : tensor<4x4xf32> to tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A dynamic dimension anywhere in the body is rejected, even when the
// function's boundary is static.

func.func @dynamic_dimension_in_body_op_is_rejected(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{dynamic dimension in result of 'tensor.cast': 'tensor<?x4xf32>' (only static shapes are supported)}}
  %0 = tensor.cast %a : tensor<4x4xf32> to tensor<?x4xf32>
  %1 = tensor.cast %0 : tensor<?x4xf32> to tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// An element type outside the supported list (here unsigned ui8) is rejected,
// and the message lists the supported types.

// expected-error@+1 {{argument #0 of @unsupported_element_type_is_rejected has unsupported element type 'ui8' (supported: f32, f64, f16, bf16, i8, i16, i32, i64, i1)}}
func.func @unsupported_element_type_is_rejected(%a: tensor<4xui8>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An unsupported element type in a result is rejected as well.

// expected-error@+1 {{result #0 of @unsupported_result_element_type_is_rejected has unsupported element type 'index'}}
func.func @unsupported_result_element_type_is_rejected(%a: tensor<4xf32>) -> tensor<4xindex> {
  %0 = tensor.empty() : tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

// A public function may not take a scalar: kernel arguments must be ranked
// tensors, and the message names the 0-d tensor type to use, spelled as MLIR.

// expected-error@+1 {{argument #0 of @non_tensor_argument_is_rejected has type 'f32': kernel arguments and results must be ranked tensors (use tensor<f32> for a scalar)}}
func.func @non_tensor_argument_is_rejected(%a: f32) -> tensor<4xf32> {
  %0 = tensor.splat %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Of the cf dialect only cf.assert is accepted: a branch is rejected.

func.func @cf_branch_is_rejected(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'cf.br' is not supported in an input program: PolyBlocks accepts ops from the builtin, func, linalg, tensor, arith, math, scf, tosa and tm_tensor dialects, and cf.assert}}
  cf.br ^bb1
^bb1:
  return %a : tensor<4xf32>
}

// -----

// Structured control flow (scf) and run-time checks (cf.assert) are accepted.

// CHECK-LABEL: func.func @scf_and_cf_assert_are_accepted
// CHECK:         cf.assert
// CHECK:         scf.for
func.func @scf_and_cf_assert_are_accepted(%a: tensor<4xf32>, %n: tensor<i64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0_i64 = arith.constant 0 : i64
  %v = tensor.extract %n[] : tensor<i64>
  %ok = arith.cmpi sge, %v, %c0_i64 : i64
  cf.assert %ok, "n must not be negative"
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An op from the memref dialect is not accepted as input.

func.func @memref_op_is_rejected(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'memref.alloc' is not supported in an input program: PolyBlocks accepts ops from the builtin, func, linalg, tensor, arith, math, scf, tosa and tm_tensor dialects, and cf.assert}}
  %0 = memref.alloc() : memref<4xf32>
  return %a : tensor<4xf32>
}

// -----

// A function declaration without a body is rejected, even when private.

// expected-error@+1 {{function @declaration_without_body_is_rejected has no body: every function of a kernel module must be defined in it}}
func.func private @declaration_without_body_is_rejected(tensor<4xf32>) -> tensor<4xf32>

func.func @calls_declaration(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @declaration_without_body_is_rejected(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A module without any public function has nothing to compile; the error is
// reported at the module.

// expected-error@+1 {{the module has no public function: nothing to compile}}
module @module_without_public_function_is_rejected {
  func.func private @only_private_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

// A public function's name becomes a C function name: one that is not a C
// identifier is rejected.

// expected-error@+1 {{public function @kernel.v2 cannot be a C entry point: its name must be a C identifier (letters, digits and '_', not starting with a digit) and not a C or C++ keyword}}
func.func @"kernel.v2"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A public function named after a C or C++ keyword is rejected too.

// expected-error@+1 {{public function @int cannot be a C entry point}}
func.func @int(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Private functions never become C entry points, so their names are free.

// CHECK-LABEL: func.func private @private.helper.may.have.any.name
// CHECK-LABEL: func.func @public_caller_of_freely_named_helper
// CHECK:         call @private.helper.may.have.any.name
func.func private @private.helper.may.have.any.name(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @public_caller_of_freely_named_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @private.helper.may.have.any.name(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A nested module is rejected: every function must be in the top-level module.

func.func @top_level_function(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// expected-error@+1 {{nested modules are not supported: define every function in the top-level module}}
module @nested_module_is_rejected {
  func.func @inner(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
