// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=NEST
// CHECK: PASS @residual_relu
// Covers: pb-permute-for-vectorization scoring accesses by address: a
// ResNet block's residual add and ReLU with the batch norms' per-channel
// vectors as tensor<Cx1x1xf32> (torch-mlir's form) keeps the channels
// innermost.
// NEST-LABEL: func.func @residual_relu
// NEST:         affine.for %[[N:.*]] = 0 to 4
// NEST-NEXT:      affine.for %[[H:.*]] = 0 to 6
// NEST-NEXT:        affine.for %[[W:.*]] = 0 to 6
// NEST-NEXT:          affine.for %[[C:.*]] = 0 to 40
// NEST-NEXT:            affine.load %{{.*}}[%[[N]], %[[H]], %[[W]], %[[C]]]
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3, 0, 0)>
module {
  func.func @residual_relu(%a: tensor<4x6x6x40xf32>, %m1: tensor<40x1x1xf32>, %s1: tensor<40x1x1xf32>, %b: tensor<4x6x6x40xf32>, %m2: tensor<40x1x1xf32>, %s2: tensor<40x1x1xf32>) -> tensor<4x6x6x40xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6x6x40xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1, #map1, #map, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%a, %m1, %s1, %b, %m2, %s2 : tensor<4x6x6x40xf32>, tensor<40x1x1xf32>, tensor<40x1x1xf32>, tensor<4x6x6x40xf32>, tensor<40x1x1xf32>, tensor<40x1x1xf32>) outs(%e : tensor<4x6x6x40xf32>) {
    ^bb0(%x: f32, %mx: f32, %sx: f32, %y: f32, %my: f32, %sy: f32, %out: f32):
      %0 = arith.subf %x, %mx : f32
      %1 = arith.subf %y, %my : f32
      %2 = arith.addf %1, %sy : f32
      %3 = arith.addf %0, %sx : f32
      %4 = arith.addf %3, %2 : f32
      %5 = arith.cmpf ugt, %4, %zero : f32
      %6 = arith.select %5, %4, %zero : f32
      linalg.yield %6 : f32
    } -> tensor<4x6x6x40xf32>
    return %r : tensor<4x6x6x40xf32>
  }
}
