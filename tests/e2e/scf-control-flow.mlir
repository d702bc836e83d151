// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @for_loop_over_tensor
// CHECK: PASS @while_loop_counted_in_tensor
// CHECK: PASS @if_inside_generic_concat
// CHECK: PASS @if_on_input_scalar
// CHECK: PASS @for_loop_in_generic_body
// Covers: structured control flow in input programs, as exporters write it:
// an scf.for carrying a tensor (lax.fori_loop), an scf.while whose counter
// lives in a 0-d tensor (stablehlo.while after conversion), an scf.if inside
// a linalg.generic choosing the operand to read (jnp.concatenate through
// stablehlo-legalize-to-linalg), an scf.if on a value read from an input, and
// and an scf.for computing a scalar inside a generic's body.
#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<() -> ()>
module {
  func.func @for_loop_over_tensor(%x: tensor<9x33xf32>) -> tensor<9x33xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %half = arith.constant 0.5 : f32
    %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %x) -> tensor<9x33xf32> {
      %e = tensor.empty() : tensor<9x33xf32>
      %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%t : tensor<9x33xf32>) outs(%e : tensor<9x33xf32>) {
      ^bb0(%in: f32, %out: f32):
        %m = arith.mulf %in, %half : f32
        %s = math.sin %m : f32
        %a = arith.addf %s, %in : f32
        linalg.yield %a : f32
      } -> tensor<9x33xf32>
      scf.yield %n : tensor<9x33xf32>
    }
    return %r : tensor<9x33xf32>
  }

  func.func @while_loop_counted_in_tensor(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %c1_i32 = arith.constant 1 : i32
    %c7_i32 = arith.constant 7 : i32
    %zero = arith.constant dense<0> : tensor<i32>
    %one = arith.constant 1.0 : f32
    %r:2 = scf.while (%k = %zero, %v = %x) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>) {
      %ks = tensor.extract %k[] : tensor<i32>
      %go = arith.cmpi slt, %ks, %c7_i32 : i32
      scf.condition(%go) %k, %v : tensor<i32>, tensor<4x8xf32>
    } do {
    ^bb0(%k: tensor<i32>, %v: tensor<4x8xf32>):
      %e0 = tensor.empty() : tensor<i32>
      %k1 = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
          ins(%k : tensor<i32>) outs(%e0 : tensor<i32>) {
      ^bb0(%in: i32, %out: i32):
        %a = arith.addi %in, %c1_i32 : i32
        linalg.yield %a : i32
      } -> tensor<i32>
      %e1 = tensor.empty() : tensor<4x8xf32>
      %v1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%v : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %t = math.tanh %in : f32
        %a = arith.addf %t, %one : f32
        linalg.yield %a : f32
      } -> tensor<4x8xf32>
      scf.yield %k1, %v1 : tensor<i32>, tensor<4x8xf32>
    }
    return %r#1 : tensor<4x8xf32>
  }

  func.func @if_inside_generic_concat(%a: tensor<4x8xf32>, %b: tensor<4x5xf32>) -> tensor<4x13xf32> {
    %c8 = arith.constant 8 : index
    %e = tensor.empty() : tensor<4x13xf32>
    %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x13xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %first = arith.cmpi ult, %j, %c8 : index
      %v = scf.if %first -> (f32) {
        %x = tensor.extract %a[%i, %j] : tensor<4x8xf32>
        scf.yield %x : f32
      } else {
        %j2 = arith.subi %j, %c8 : index
        %x = tensor.extract %b[%i, %j2] : tensor<4x5xf32>
        scf.yield %x : f32
      }
      linalg.yield %v : f32
    } -> tensor<4x13xf32>
    return %r : tensor<4x13xf32>
  }

  func.func @if_on_input_scalar(%p: tensor<f32>, %x: tensor<6x7xf32>) -> tensor<6x7xf32> {
    %zero = arith.constant 0.0 : f32
    %ps = tensor.extract %p[] : tensor<f32>
    %positive = arith.cmpf ogt, %ps, %zero : f32
    %e = tensor.empty() : tensor<6x7xf32>
    %r = scf.if %positive -> tensor<6x7xf32> {
      %y = linalg.exp ins(%x : tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
      scf.yield %y : tensor<6x7xf32>
    } else {
      %y = linalg.negf ins(%x : tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
      scf.yield %y : tensor<6x7xf32>
    }
    return %r : tensor<6x7xf32>
  }

  func.func @for_loop_in_generic_body(%x: tensor<16x24xf32>) -> tensor<16x24xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %e = tensor.empty() : tensor<16x24xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %p = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %in) -> f32 {
        %sq = arith.mulf %acc, %acc : f32
        %c = math.cos %sq : f32
        scf.yield %c : f32
      }
      linalg.yield %p : f32
    } -> tensor<16x24xf32>
    return %r : tensor<16x24xf32>
  }
}
