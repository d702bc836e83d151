// RUN: %pb-opt %s -pb-order-constant-globals | FileCheck %s

// The constants' globals take the names and the order of their first use:
// @f's constant is the first of its type, whatever bufferization called it;
// the uses follow the renaming, also of a constant with a name of its own
// (@__constant_3xf32_x). A global nobody reads comes after the used ones;
// other globals keep their names, and follow the constants.
// CHECK-LABEL: module
// CHECK-NEXT:    memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<2.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_2x2xi32 : memref<2x2xi32> = dense<7>
// CHECK-NEXT:    memref.global "private" constant @__constant_3xf32_0 : memref<3xf32> = dense<1.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_f64 : memref<f64> = dense<5.000000e-01>
// CHECK-NEXT:    memref.global "private" constant @__constant_3xf32_1 : memref<3xf32> = dense<4.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_3xf32_2 : memref<3xf32> = dense<9.000000e+00>
// CHECK-NEXT:    memref.global "private" @state : memref<3xf32>
// CHECK:       func.func @f
// CHECK-NEXT:    memref.get_global @__constant_3xf32 : memref<3xf32>
// CHECK-NEXT:    memref.get_global @__constant_2x2xi32 : memref<2x2xi32>
// CHECK:       func.func @g
// CHECK-NEXT:    memref.get_global @__constant_3xf32_0 : memref<3xf32>
// CHECK-NEXT:    memref.get_global @__constant_3xf32 : memref<3xf32>
// CHECK-NEXT:    memref.get_global @__constant_f64 : memref<f64>
// CHECK-NEXT:    memref.get_global @state : memref<3xf32>
// CHECK-NEXT:    memref.get_global @__constant_3xf32_1 : memref<3xf32>
module {
  memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<1.0>
  memref.global "private" constant @__constant_3xf32_1 : memref<3xf32> = dense<9.0>
  memref.global "private" @state : memref<3xf32>
  memref.global "private" constant @__constant_3xf32_x : memref<3xf32> = dense<4.0>
  memref.global "private" constant @__constant_f64 : memref<f64> = dense<0.5>
  memref.global "private" constant @__constant_2x2xi32 : memref<2x2xi32> = dense<7>
  memref.global "private" constant @__constant_3xf32_0 : memref<3xf32> = dense<2.0>
  func.func @f() {
    %a = memref.get_global @__constant_3xf32_0 : memref<3xf32>
    %b = memref.get_global @__constant_2x2xi32 : memref<2x2xi32>
    return
  }
  func.func @g() {
    %a = memref.get_global @__constant_3xf32 : memref<3xf32>
    %b = memref.get_global @__constant_3xf32_0 : memref<3xf32>
    %c = memref.get_global @__constant_f64 : memref<f64>
    %d = memref.get_global @state : memref<3xf32>
    %e = memref.get_global @__constant_3xf32_x : memref<3xf32>
    return
  }
}
