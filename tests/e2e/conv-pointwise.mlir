// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @pointwise_batch1
// CHECK: PASS @pointwise_batch2
// Covers: 1 x 1 convolutions (MobileNet's expansions and projections,
// ResNet's shortcuts) on the register-tiled micro-kernel: their window
// loops run once, and are reductions, not parallel loops, though the access
// analysis sees no stride in them; the batch loop of 1 stays parallel.
// S3-LABEL: func.func @pointwise_batch1
// S3: pass = "pb-register-tile-contraction"
// S3-LABEL: func.func @pointwise_batch2
// S3: pass = "pb-register-tile-contraction"
module {
  func.func @pointwise_batch1(%x: tensor<1x7x7x40xf32>, %w: tensor<1x1x40x64xf32>) -> tensor<1x7x7x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
    %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x7x7x40xf32>, tensor<1x1x40x64xf32>) outs(%f : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
    return %y : tensor<1x7x7x64xf32>
  }

  func.func @pointwise_batch2(%x: tensor<2x9x9x24xf32>, %w: tensor<1x1x24x32xf32>) -> tensor<2x5x5x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x5x5x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x32xf32>) -> tensor<2x5x5x32xf32>
    %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x9x9x24xf32>, tensor<1x1x24x32xf32>) outs(%f : tensor<2x5x5x32xf32>) -> tensor<2x5x5x32xf32>
    return %y : tensor<2x5x5x32xf32>
  }
}
