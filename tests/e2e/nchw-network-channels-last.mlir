// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @resnet_block
// CHECK: PASS @depthwise_block
// Covers: a PyTorch-shaped NCHW block computed channels-last
// (pb-convert-convs-to-channels-last, pb-propagate-transposes,
// pb-fold-constant-transposes), checked against the reference lowering,
// which keeps NCHW: conv -> batch norm (constant scale and shift) -> ReLU ->
// max pool -> pad -> conv -> residual add, and pointwise conv -> ReLU ->
// depthwise conv. Only the network input and output are transposed; the
// constant filters are transposed at compile time; the one made at run time
// (a slice of a concat) and filters passed as arguments, at run time.
// S1:       memref.global "private" constant @{{.*}} : memref<3x3x3x8xf32>
// S1-LABEL: func.func @resnet_block
// S1:         linalg.transpose ins(%arg0 : memref<2x3x18x18xf32>) {{.*}} permutation = [0, 2, 3, 1]
// S1:         linalg.transpose ins(%{{.*}} : memref<8x8x3x3xf32, {{.*}}>) {{.*}} permutation = [2, 3, 1, 0]
// S1:         linalg.transpose ins(%{{.*}} : memref<2x8x8x8xf32>) outs(%arg1 : {{.*}}) permutation = [0, 3, 1, 2]
// S1-NOT:     linalg.transpose
// S1-LABEL: func.func @depthwise_block
// S1-COUNT-4: linalg.transpose
// S1-NOT:     linalg.transpose
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @resnet_block(%x: tensor<2x3x18x18xf32>) -> tensor<2x8x8x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %w1 = arith.constant dense<[[[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, 0.8, 0.9]], [[-0.1, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]], [[0.1, 0.2, -0.3], [-0.4, 0.5, 0.6], [0.7, -0.8, 0.9]]], [[[0.2, 0.1, 0.0], [0.3, -0.1, 0.2], [0.1, 0.1, 0.1]], [[0.5, -0.5, 0.5], [0.0, 0.0, 0.1], [0.2, 0.3, 0.4]], [[0.9, 0.8, 0.7], [0.6, -0.5, 0.4], [0.3, 0.2, 0.1]]], [[[0.3, 0.3, 0.3], [-0.3, -0.3, -0.3], [0.3, 0.3, 0.3]], [[0.1, 0.0, -0.1], [0.1, 0.0, -0.1], [0.1, 0.0, -0.1]], [[0.2, 0.2, 0.2], [0.2, 0.2, 0.2], [0.2, 0.2, 0.2]]], [[[0.5, 0.4, 0.3], [0.2, 0.1, 0.0], [-0.1, -0.2, -0.3]], [[0.0, 0.1, 0.0], [0.1, 0.4, 0.1], [0.0, 0.1, 0.0]], [[-0.2, 0.3, -0.4], [0.5, -0.6, 0.7], [-0.8, 0.9, -0.1]]], [[[0.1, 0.1, 0.2], [0.3, 0.5, 0.8], [0.1, 0.3, 0.4]], [[0.6, 0.2, 0.6], [0.4, 0.3, 0.3], [0.8, 0.3, 0.2]], [[0.7, 0.9, 0.5], [0.0, 0.2, 0.8], [0.8, 0.4, 0.1]]], [[[-0.1, -0.1, -0.2], [-0.3, -0.5, -0.8], [-0.1, -0.3, -0.4]], [[0.6, -0.2, 0.6], [-0.4, 0.3, -0.3], [0.8, -0.3, 0.2]], [[0.7, 0.9, -0.5], [0.0, -0.2, 0.8], [-0.8, 0.4, 0.1]]], [[[0.25, 0.5, 0.25], [0.5, 1.0, 0.5], [0.25, 0.5, 0.25]], [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [[-0.25, 0.5, -0.25], [0.5, -1.0, 0.5], [-0.25, 0.5, -0.25]]], [[[0.3, -0.2, 0.1], [0.0, 0.1, -0.2], [0.3, -0.4, 0.5]], [[-0.6, 0.7, -0.8], [0.9, -0.1, 0.2], [-0.3, 0.4, -0.5]], [[0.6, -0.7, 0.8], [-0.9, 0.1, -0.2], [0.3, -0.4, 0.5]]]]> : tensor<8x3x3x3xf32>
    %scale = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 0.75, 1.25, 0.9, 1.1]> : tensor<8xf32>
    %shift = arith.constant dense<[0.1, -0.2, 0.0, 0.3, -0.1, 0.2, 0.05, -0.05]> : tensor<8xf32>
    // Stem: 3x3 stride 1, no padding: 2x8x16x16.
    %e1 = tensor.empty() : tensor<2x8x16x16xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
    %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %w1 : tensor<2x3x18x18xf32>, tensor<8x3x3x3xf32>) outs(%f1 : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
    %bn = linalg.generic {indexing_maps = [#id, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c1, %scale, %shift : tensor<2x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<2x8x16x16xf32>) {
    ^bb0(%v: f32, %s: f32, %b: f32, %o: f32):
      %m = arith.mulf %v, %s : f32
      %a = arith.addf %m, %b : f32
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
    } -> tensor<2x8x16x16xf32>
    // Max pool 2x2 stride 2: 2x8x8x8.
    %e2 = tensor.empty() : tensor<2x8x8x8xf32>
    %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %k = tensor.empty() : tensor<2x2xf32>
    %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%bn, %k : tensor<2x8x16x16xf32>, tensor<2x2xf32>) outs(%f2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    // Padded 3x3 conv, 8 -> 8 channels, filter made from the stem's by a
    // reshape-free slice of its first three input channels repeated.
    %padded = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
    %w2 = tensor.concat dim(1) %w1, %w1, %w1 : (tensor<8x3x3x3xf32>, tensor<8x3x3x3xf32>, tensor<8x3x3x3xf32>) -> tensor<8x9x3x3xf32>
    %w2s = tensor.extract_slice %w2[0, 0, 0, 0] [8, 8, 3, 3] [1, 1, 1, 1] : tensor<8x9x3x3xf32> to tensor<8x8x3x3xf32>
    %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%padded, %w2s : tensor<2x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%f3 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c2, %p : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e2 : tensor<2x8x8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<2x8x8x8xf32>
    return %sum : tensor<2x8x8x8xf32>
  }

  func.func @depthwise_block(%x: tensor<1x4x9x9xf32>, %wp: tensor<16x4x1x1xf32>, %wd: tensor<16x3x3xf32>) -> tensor<1x16x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<1x16x9x9xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
    %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %wp : tensor<1x4x9x9xf32>, tensor<16x4x1x1xf32>) outs(%f1 : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c1 : tensor<1x16x9x9xf32>) outs(%e1 : tensor<1x16x9x9xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x16x9x9xf32>
    %e2 = tensor.empty() : tensor<1x16x4x4xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
    %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%r, %wd : tensor<1x16x9x9xf32>, tensor<16x3x3xf32>) outs(%f2 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
    return %d : tensor<1x16x4x4xf32>
  }
}
