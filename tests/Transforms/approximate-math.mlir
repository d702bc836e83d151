// RUN: pb-opt %s -split-input-file -pb-approximate-math | FileCheck %s

// f32 exp, scalar or vector, becomes inline arithmetic: no math.exp is left
// (no libm call), and the exponent is built with integer bit operations.
// CHECK-LABEL: func @exp_f32
// CHECK-NOT:     math.exp
// CHECK:         arith.shli
// CHECK:         arith.bitcast
// CHECK-NOT:     math.exp
// CHECK:         return
func.func @exp_f32(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %a = math.exp %x : f32
  %b = math.exp %v : vector<8xf32>
  return %a, %b : f32, vector<8xf32>
}

// -----

// log, tanh and erf too.
// CHECK-LABEL: func @log_tanh_erf
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.erf
// CHECK:         return
func.func @log_tanh_erf(%x: f32) -> (f32, f32, f32) {
  %a = math.log %x : f32
  %b = math.tanh %x : f32
  %c = math.erf %x : f32
  return %a, %b, %c : f32, f32, f32
}

// -----

// f64 and the functions without an accurate approximation (sin) stay for
// libm.
// CHECK-LABEL: func @left_to_libm
// CHECK:         math.exp %{{.*}} : f64
// CHECK:         math.sin %{{.*}} : f32
func.func @left_to_libm(%x: f64, %y: f32) -> (f64, f32) {
  %a = math.exp %x : f64
  %b = math.sin %y : f32
  return %a, %b : f64, f32
}
