// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @rows_4k_apart
// CHECK: PASS @conv_rows_4k_apart
// Covers: pb-register-tile-contraction's rows bounded by the L1's sets
// (on a machine whose L1 has 12 ways or fewer): a matmul whose row factor's
// rows are 4 KiB apart (30 rows: whole tiles, then the rows left over) and
// a 1x1 convolution over 1024 channels (14 output columns per row).
module {
  func.func @rows_4k_apart(%x: tensor<30x1024xf32>, %w: tensor<1024x64xf32>) -> tensor<30x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<30x64xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<30x64xf32>) -> tensor<30x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<30x1024xf32>, tensor<1024x64xf32>) outs(%c : tensor<30x64xf32>) -> tensor<30x64xf32>
    return %mm : tensor<30x64xf32>
  }

  func.func @conv_rows_4k_apart(%x: tensor<1x3x14x1024xf32>, %w: tensor<1x1x1024x32xf32>) -> tensor<1x3x14x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x3x14x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x14x32xf32>) -> tensor<1x3x14x32xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : tensor<1x3x14x1024xf32>, tensor<1x1x1024x32xf32>) outs(%f : tensor<1x3x14x32xf32>) -> tensor<1x3x14x32xf32>
    return %c : tensor<1x3x14x32xf32>
  }
}
