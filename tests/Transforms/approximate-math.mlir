// RUN: pb-opt %s -split-input-file -pb-approximate-math | FileCheck %s

// f32 exp, scalar or vector, becomes inline arithmetic: no math.exp is left
// (no libm call). k = round(x log2(e)) comes from adding 1.5 * 2^23
// (0x4B400000) in a fused multiply-add, clamped to 127 on that sum
// (0x4B40007F), and 2^k from the sum's bits, (bits + 127) << 23: no floor,
// no float-to-integer conversion.
// CHECK-LABEL: func @exp_f32
// CHECK-DAG:     %[[SHIFT:.*]] = arith.constant 0x4B400000 : f32
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG:     %[[C127:.*]] = arith.constant 127 : i32
// CHECK-DAG:     %[[C23:.*]] = arith.constant 23 : i32
// CHECK-DAG:     %[[TOP:.*]] = arith.constant 0x4B40007F : f32
// CHECK-NOT:     math.exp
// CHECK:         %[[RAW:.*]] = math.fma %{{.*}}, %[[LOG2E]], %[[SHIFT]] : f32
// CHECK:         %[[LE:.*]] = arith.cmpf ule, %[[RAW]], %[[TOP]] : f32
// CHECK:         %[[SUM:.*]] = arith.select %[[LE]], %[[RAW]], %[[TOP]] : f32
// CHECK:         %[[K:.*]] = arith.subf %[[SUM]], %[[SHIFT]] : f32
// CHECK:         math.fma %{{.*}}, %[[K]], %{{.*}} : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[BIASED:.*]] = arith.addi %[[BITS]], %[[C127]] : i32
// CHECK:         %[[EXP:.*]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK:         %[[POW:.*]] = arith.bitcast %[[EXP]] : i32 to f32
// CHECK:         arith.mulf %{{.*}}, %[[POW]] : f32
// CHECK:         arith.shli %{{.*}} : vector<8xi32>
// CHECK-NOT:     math.floor
// CHECK-NOT:     arith.fptosi
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
