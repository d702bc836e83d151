// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-approximate-math=complete=1 | FileCheck %s

// For device code without a math library every function goes: sin and cos
// become polynomials, floor is -ceil(-x) with ceil written in arith, rsqrt
// a division by sqrt (an instruction); sqrt and fabs stay.
// CHECK-LABEL: func @no_library_calls
// CHECK-NOT:     math.sin
// CHECK-NOT:     math.cos
// CHECK-NOT:     math.floor
// CHECK-NOT:     math.ceil
// CHECK-NOT:     math.rsqrt
// CHECK:         math.sqrt
// CHECK:         return
func.func @no_library_calls(%x: f32) -> (f32, f32, f32, f32, f32) {
  %a = math.sin %x : f32
  %b = math.cos %x : f32
  %c = math.floor %x : f32
  %d = math.rsqrt %x : f32
  %e = math.absf %x : f32
  return %a, %b, %c, %d, %e : f32, f32, f32, f32, f32
}

// -----

// exp on f64: the Taylor polynomial in fused multiply-adds (13 of them) and
// 2^k built in the exponent bits, twice.
// CHECK-LABEL: func @exp_f64
// CHECK-NOT:     math.exp
// CHECK-COUNT-13: math.fma
// CHECK-COUNT-2: arith.bitcast {{.*}} : i64 to f64
// CHECK:         arith.cmpf uno
// CHECK:         return
func.func @exp_f64(%x: f64) -> f64 {
  %a = math.exp %x : f64
  return %a : f64
}

// -----

// tanh on f64 is written with exp (math's expansion), so it is supported.
// CHECK-LABEL: func @tanh_f64
// CHECK-NOT:     math.tanh
// CHECK:         math.fma
func.func @tanh_f64(%x: f64) -> f64 {
  %a = math.tanh %x : f64
  return %a : f64
}

// -----

// What has neither an approximation nor an instruction is an error at the
// op, not a call to a library that is not there.
func.func @sin_f64(%x: f64) -> f64 {
  // expected-error @below {{'math.sin' op on 'f64' has no implementation in device code without a math library}}
  %a = math.sin %x : f64
  return %a : f64
}
