// RUN: %pbtool compile %s --compile-to=s1 > %t.1
// RUN: %pbtool compile %s --compile-to=s1 > %t.2
// RUN: %pbtool compile %s --compile-to=s1 > %t.3
// RUN: %pbtool compile %s --compile-to=s1 > %t.4
// RUN: %pbtool compile %s --compile-to=s1 > %t.5
// RUN: %pbtool compile %s --compile-to=s1 > %t.6
// RUN: diff %t.1 %t.2
// RUN: diff %t.1 %t.3
// RUN: diff %t.1 %t.4
// RUN: diff %t.1 %t.5
// RUN: diff %t.1 %t.6
// RUN: FileCheck %s < %t.1

// Several functions with tensor constants: bufferization visits them in an
// order that changed from run to run, and with it the order (and, for two
// constants of one type, the names) of their globals. S1 now gives the same
// IR every time (six runs compared), the globals named and ordered by their
// first use: @first's taps, @second's pair, @third's other pair.
// CHECK:      memref.global "private" constant @__constant_5xf32 : memref<5xf32> = dense<[6.250000e-02, 2.500000e-01, 3.750000e-01, 2.500000e-01, 6.250000e-02]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @first
// CHECK:         memref.get_global @__constant_5xf32
// CHECK-LABEL: func.func @second
// CHECK:         memref.get_global @__constant_2xf32 :
// CHECK-LABEL: func.func @third
// CHECK:         memref.get_global @__constant_2xf32_0 :
#id = affine_map<(d0) -> (d0)>
func.func @first(%x: tensor<5xf32>) -> tensor<5xf32> {
  %taps = arith.constant dense<[0.0625, 0.25, 0.375, 0.25, 0.0625]> : tensor<5xf32>
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %taps : tensor<5xf32>, tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %c : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @third(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %c : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.subf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
