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

// -----

// The ops are found inside loops too, an unsigned ceil division among them;
// conversions between other float types stay, and nothing else is folded
// (the constant additions are left to the canonicalizations after).
// CHECK-LABEL: func @nested_and_others_kept
// CHECK:         arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         scf.for
// CHECK-NOT:       arith.ceildivui
// CHECK-NOT:       arith.floordivsi
// CHECK:           arith.divui
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK-NOT:       arith.extf %{{.*}} : bf16
func.func @nested_and_others_kept(%a: i32, %b: i32, %h: f16, %x: bf16, %n: index) -> (i32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.addi %c1, %c1 : index
  %r:3 = scf.for %i = %c0 to %n step %two iter_args(%s = %a, %f = %a, %g = %a) -> (i32, i32, i32) {
    %q = arith.ceildivui %s, %b : i32
    %p = arith.floordivsi %f, %b : i32
    scf.yield %q, %p, %g : i32, i32, i32
  }
  %e = arith.extf %h : f16 to f32
  %y = arith.extf %x : bf16 to f32
  return %r#0, %e, %y : i32, f32, f32
}
