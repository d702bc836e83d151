// RUN: pb-opt %s -split-input-file -pb-expand-arith | FileCheck %s

// bf16 conversions become integer code.
// CHECK-LABEL: func @bf16_conversions
// CHECK-NOT:     arith.extf
// CHECK-NOT:     arith.truncf
// CHECK:         arith.shli
// CHECK:         return
func.func @bf16_conversions(%x: bf16, %y: f32) -> (f32, bf16) {
  %a = arith.extf %x : bf16 to f32
  %b = arith.truncf %y : f32 to bf16
  return %a, %b : f32, bf16
}

// -----

// Floor and ceil divisions become plain divisions with a correction.
// CHECK-LABEL: func @floor_ceil_division
// CHECK-NOT:     arith.floordivsi
// CHECK-NOT:     arith.ceildivsi
// CHECK:         arith.divsi
// CHECK:         return
func.func @floor_ceil_division(%a: i32, %b: i32) -> (i32, i32) {
  %f = arith.floordivsi %a, %b : i32
  %c = arith.ceildivsi %a, %b : i32
  return %f, %c : i32, i32
}

// -----

// Min and max stay (LLVM lowers them to intrinsics it can vectorize).
// CHECK-LABEL: func @min_max_kept
// CHECK:         arith.maximumf
// CHECK:         arith.minimumf
// CHECK:         arith.maxnumf
func.func @min_max_kept(%a: f32, %b: f32) -> (f32, f32, f32) {
  %x = arith.maximumf %a, %b : f32
  %n = arith.minimumf %a, %b : f32
  %m = arith.maxnumf %a, %b : f32
  return %x, %n, %m : f32, f32, f32
}
