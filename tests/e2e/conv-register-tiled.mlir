// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @conv_batch2
// CHECK: PASS @conv_stride2_pad_three_rows
// CHECK: PASS @conv_dilation2
// Covers: NHWC convolutions that take the register-tiled micro-kernel (filters a multiple of the vector tile): a batch of 2 around the rows, stride 2 with padding and an output width of 9 (a 5-row tile and one of the 4 rows left), dilation 2.
func.func @conv_batch2(%in: tensor<2x10x10x16xf32>, %f: tensor<3x3x16x32xf32>) -> tensor<2x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%z : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  return %r : tensor<2x8x8x32xf32>
}

func.func @conv_stride2_pad_three_rows(%in: tensor<1x17x17x12xf32>, %f: tensor<3x3x12x16xf32>) -> tensor<1x9x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x17x17x12xf32> to tensor<1x19x19x12xf32>
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %f : tensor<1x19x19x12xf32>, tensor<3x3x12x16xf32>) outs(%z : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  return %r : tensor<1x9x9x16xf32>
}

func.func @conv_dilation2(%in: tensor<1x12x12x10xf32>, %f: tensor<3x3x10x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x12x12x10xf32>, tensor<3x3x10x16xf32>) outs(%z : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
