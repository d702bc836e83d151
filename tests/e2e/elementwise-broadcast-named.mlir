// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @bcast_map_chain
// Covers: linalg.broadcast of a row vector and a column vector followed by a chain of linalg.map ops (mul, add, sub, max).
module {
  func.func @bcast_map_chain(%x: tensor<17x64xf32>, %row: tensor<64xf32>, %col: tensor<17xf32>) -> tensor<17x64xf32> {
    %e0 = tensor.empty() : tensor<17x64xf32>
    %rowb = linalg.broadcast ins(%row : tensor<64xf32>) outs(%e0 : tensor<17x64xf32>) dimensions = [0]
    %e1 = tensor.empty() : tensor<17x64xf32>
    %colb = linalg.broadcast ins(%col : tensor<17xf32>) outs(%e1 : tensor<17x64xf32>) dimensions = [1]
    %e2 = tensor.empty() : tensor<17x64xf32>
    %mul = linalg.map { arith.mulf } ins(%x, %rowb : tensor<17x64xf32>, tensor<17x64xf32>) outs(%e2 : tensor<17x64xf32>)
    %e3 = tensor.empty() : tensor<17x64xf32>
    %add = linalg.map { arith.addf } ins(%mul, %colb : tensor<17x64xf32>, tensor<17x64xf32>) outs(%e3 : tensor<17x64xf32>)
    %e4 = tensor.empty() : tensor<17x64xf32>
    %sub = linalg.map { arith.subf } ins(%add, %x : tensor<17x64xf32>, tensor<17x64xf32>) outs(%e4 : tensor<17x64xf32>)
    %e5 = tensor.empty() : tensor<17x64xf32>
    %res = linalg.map ins(%sub : tensor<17x64xf32>) outs(%e5 : tensor<17x64xf32>)
      (%v: f32, %unused: f32) {
        %c = arith.constant 0.25 : f32
        %m = arith.maximumf %v, %c : f32
        linalg.yield %m : f32
      }
    return %res : tensor<17x64xf32>
  }
}
