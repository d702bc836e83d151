// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @conv_bn_relu_padded
// CHECK: PASS @conv_residual_relu
// Covers: pb-fuse-epilogues on convolutions as networks export them. The
// first: batch norm's shift and mean as tensor<32x1x1xf32> (read `[%c, 0, 0]`:
// a vector of the buffer collapsed to one dimension) and a ReLU, written into
// the interior of the next convolution's padded input (a subview; the
// nests filling its border move above the first convolution). The second: a
// residual add and ReLU of a convolution without padding around it.
// S3-LABEL: func.func @conv_bn_relu_padded
// S3:         memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : memref<32x1x1xf32> into memref<32xf32>
// S3:         pass = "pb-fuse-epilogues", result_stored = false
// S3-LABEL: func.func @conv_residual_relu
// S3:         pass = "pb-fuse-epilogues", result_stored = false
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c, 0, 0)>
module {
  func.func @conv_bn_relu_padded(%x: tensor<2x10x10x8xf32>, %w1: tensor<3x3x8x32xf32>, %w2: tensor<3x3x32x16xf32>,
                                 %mean: tensor<32x1x1xf32>, %shift: tensor<32x1x1xf32>) -> tensor<2x8x8x16xf32> {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<2x8x8x32xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
    %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %w1 : tensor<2x10x10x8xf32>, tensor<3x3x8x32xf32>) outs(%f1 : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
    %bn = linalg.generic {indexing_maps = [#nhwc, #chan, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c1, %mean, %shift : tensor<2x8x8x32xf32>, tensor<32x1x1xf32>, tensor<32x1x1xf32>) outs(%e1 : tensor<2x8x8x32xf32>) {
    ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
      %d = arith.subf %v, %m : f32
      %a = arith.addf %d, %s : f32
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
    } -> tensor<2x8x8x32xf32>
    %padded = tensor.pad %bn low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
    } : tensor<2x8x8x32xf32> to tensor<2x10x10x32xf32>
    %e2 = tensor.empty() : tensor<2x8x8x16xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
    %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%padded, %w2 : tensor<2x10x10x32xf32>, tensor<3x3x32x16xf32>) outs(%f2 : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
    return %c2 : tensor<2x8x8x16xf32>
  }

  func.func @conv_residual_relu(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %res: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x8x8x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
    %r = linalg.generic {indexing_maps = [#nhwc, #nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c, %res : tensor<2x8x8x16xf32>, tensor<2x8x8x16xf32>) outs(%e : tensor<2x8x8x16xf32>) {
    ^bb0(%v: f32, %q: f32, %o: f32):
      %a = arith.addf %v, %q : f32
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    } -> tensor<2x8x8x16xf32>
    return %r : tensor<2x8x8x16xf32>
  }
}
