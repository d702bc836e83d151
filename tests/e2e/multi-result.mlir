// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @stats
// CHECK: PASS @split_and_pass
// Covers: functions with several results of different shapes/types (row sum, row max, mean-centered tensor, i1 sign mask), and results that pass through or slice inputs.
module {
  func.func @stats(%x: tensor<17x65xf32>) -> (tensor<17xf32>, tensor<17xf32>, tensor<17x65xf32>, tensor<17x65xi1>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e0 = tensor.empty() : tensor<17xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<17xf32>) -> tensor<17xf32>
    %sum = linalg.reduce ins(%x : tensor<17x65xf32>) outs(%z : tensor<17xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    %e1 = tensor.empty() : tensor<17xf32>
    %n = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<17xf32>) -> tensor<17xf32>
    %max = linalg.reduce ins(%x : tensor<17x65xf32>) outs(%n : tensor<17xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %a = arith.maximumf %in, %acc : f32
        linalg.yield %a : f32
      }
    %e2 = tensor.empty() : tensor<17x65xf32>
    %e3 = tensor.empty() : tensor<17x65xi1>
    %centered, %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %sum : tensor<17x65xf32>, tensor<17xf32>) outs(%e2, %e3 : tensor<17x65xf32>, tensor<17x65xi1>) {
    ^bb0(%v: f32, %s: f32, %o: f32, %o2: i1):
      %cnt = arith.constant 65.0 : f32
      %mean = arith.divf %s, %cnt : f32
      %d = arith.subf %v, %mean : f32
      %zz = arith.constant 0.0 : f32
      %gt = arith.cmpf ogt, %v, %zz : f32
      linalg.yield %d, %gt : f32, i1
    } -> (tensor<17x65xf32>, tensor<17x65xi1>)
    return %sum, %max, %centered, %mask : tensor<17xf32>, tensor<17xf32>, tensor<17x65xf32>, tensor<17x65xi1>
  }

  func.func @split_and_pass(%x: tensor<24x33xf32>, %y: tensor<24x33xi32>) -> (tensor<24x33xi32>, tensor<8x33xf32>, tensor<16x33xf32>) {
    %top = tensor.extract_slice %x[0, 0] [8, 33] [1, 1] : tensor<24x33xf32> to tensor<8x33xf32>
    %bot = tensor.extract_slice %x[8, 0] [16, 33] [1, 1] : tensor<24x33xf32> to tensor<16x33xf32>
    %e = tensor.empty() : tensor<16x33xf32>
    %b2 = linalg.map { math.absf } ins(%bot : tensor<16x33xf32>) outs(%e : tensor<16x33xf32>)
    return %y, %top, %b2 : tensor<24x33xi32>, tensor<8x33xf32>, tensor<16x33xf32>
  }
}
