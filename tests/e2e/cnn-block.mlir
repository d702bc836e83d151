// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @cnn_block
// Covers: a small CNN block chaining ops: tensor.pad -> conv_2d_nhwc_hwcf (stride 1) -> bias + relu -> pooling_nhwc_max (2x2 stride 2) -> collapse_shape -> matmul classifier head.
module {
  func.func @cnn_block(%x: tensor<1x16x16x3xf32>, %w: tensor<3x3x3x8xf32>, %b: tensor<8xf32>, %fc: tensor<512x10xf32>) -> tensor<1x10xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x16x16x3xf32> to tensor<1x18x18x3xf32>
    %e0 = tensor.empty() : tensor<1x16x16x8xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
    %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%xp, %w : tensor<1x18x18x3xf32>, tensor<3x3x3x8xf32>) outs(%z0 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
    %e1 = tensor.empty() : tensor<1x16x16x8xf32>
    %act = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%conv, %b : tensor<1x16x16x8xf32>, tensor<8xf32>) outs(%e1 : tensor<1x16x16x8xf32>) {
    ^bb0(%v: f32, %bv: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %s = arith.addf %v, %bv : f32
      %r = arith.maximumf %s, %z : f32
      linalg.yield %r : f32
    } -> tensor<1x16x16x8xf32>
    %e2 = tensor.empty() : tensor<1x8x8x8xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%act, %win : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%m0 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x8x8x8xf32> into tensor<1x512xf32>
    %e3 = tensor.empty() : tensor<1x10xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %logits = linalg.matmul ins(%flat, %fc : tensor<1x512xf32>, tensor<512x10xf32>) outs(%z3 : tensor<1x10xf32>) -> tensor<1x10xf32>
    return %logits : tensor<1x10xf32>
  }
}
