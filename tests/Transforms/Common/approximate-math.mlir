// RUN: pb-opt %s -split-input-file -pb-approximate-math -canonicalize | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-approximate-math | FileCheck %s --check-prefix=ONLY
// (-canonicalize: the constants the rewrites make in place are shared and
// hoisted, as by the canonicalization after this pass in S4.)

// f32 exp, scalar or vector, becomes inline arithmetic: no math.exp is left
// (no libm call). k = round(x log2(e)) comes from adding 1.5 * 2^23 + 127
// (0x4B40007F) in a fused multiply-add, clamped to k <= 127 on that sum
// (0x4B4000FE), and 2^k from the sum's bits shifted, bits << 23 (the low
// bits hold k + 127): no floor, no float-to-integer conversion, no integer
// add. x is clamped from below only; exp(r) is 1 + r (1 + r p(r)), two
// fused multiply-adds ending in + 1.
// CHECK-LABEL: func @exp_f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[SHIFT:.*]] = arith.constant 0x4B40007F : f32
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG:     %[[C23:.*]] = arith.constant 23 : i32
// CHECK-DAG:     %[[TOP:.*]] = arith.constant 0x4B4000FE : f32
// CHECK-DAG:     %[[LOW:.*]] = arith.constant -8.780000e+01 : f32
// CHECK-NOT:     math.exp
// CHECK:         %[[GE:.*]] = arith.cmpf uge, %[[X:.*]], %[[LOW]] : f32
// CHECK:         %[[XC:.*]] = arith.select %[[GE]], %[[X]], %[[LOW]] : f32
// CHECK:         %[[RAW:.*]] = math.fma %[[XC]], %[[LOG2E]], %[[SHIFT]] : f32
// CHECK:         %[[LE:.*]] = arith.cmpf ule, %[[RAW]], %[[TOP]] : f32
// CHECK:         %[[SUM:.*]] = arith.select %[[LE]], %[[RAW]], %[[TOP]] : f32
// CHECK:         %[[K:.*]] = arith.subf %[[SUM]], %[[SHIFT]] : f32
// CHECK:         %[[RHI:.*]] = math.fma %{{.*}}, %[[K]], %[[XC]] : f32
// CHECK:         %[[R:.*]] = math.fma %{{.*}}, %[[K]], %[[RHI]] : f32
// CHECK:         %[[Q:.*]] = math.fma %{{.*}}, %[[R]], %[[ONE]] : f32
// CHECK:         %[[ER:.*]] = math.fma %[[Q]], %[[R]], %[[ONE]] : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[EXP:.*]] = arith.shli %[[BITS]], %[[C23]] : i32
// CHECK:         %[[POW:.*]] = arith.bitcast %[[EXP]] : i32 to f32
// CHECK:         arith.mulf %[[ER]], %[[POW]] : f32
// CHECK:         arith.shli %{{.*}} : vector<8xi32>
// CHECK-NOT:     math.floor
// CHECK-NOT:     arith.fptosi
// CHECK-NOT:     arith.addi
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

// -----

// Only the math ops are rewritten, inside loops too; nothing else is folded.
// ONLY-LABEL: func @only_math_ops
// ONLY:         arith.addi %{{.*}}, %{{.*}} : index
// ONLY:         scf.for
// ONLY-NOT:       math.exp
// ONLY:           math.fma
// ONLY:         return
func.func @only_math_ops(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.addi %c1, %c1 : index
  %r = scf.for %i = %c0 to %n step %two iter_args(%acc = %x) -> (f32) {
    %e = math.exp %acc : f32
    scf.yield %e : f32
  }
  return %r : f32
}
