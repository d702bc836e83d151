// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @rgb_stem
// Covers: a stride-2 convolution over 3 input channels (a network's first
// layer): the channel loop stays a loop (pb-unroll-short-loops leaves it) and
// the nest becomes the register-tiled micro-kernel.
// S3-LABEL: func.func @rgb_stem
// S3:         affine.vector_load
module {
  func.func @rgb_stem(%img: tensor<1x37x37x3xf32>, %w: tensor<7x7x3x32xf32>) -> tensor<1x16x16x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%img, %w : tensor<1x37x37x3xf32>, tensor<7x7x3x32xf32>) outs(%f : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
    return %r : tensor<1x16x16x32xf32>
  }
}
