// RUN: pb-opt %s -split-input-file -pb-convert-convs-to-channels-last | FileCheck %s

// A strided NCHW convolution becomes NHWC between transposes; its filled
// init is filled again in the new layout rather than transposed.
// CHECK-LABEL: func @conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x10x10xf32>, %[[W:.*]]: tensor<8x3x3x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x3x10x10xf32>) outs(%{{.*}} : tensor<1x10x10x3xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<8x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x8xf32>) permutation = [2, 3, 1, 0]
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XT]], %[[WT]] : {{.*}}) outs(%[[F]] : tensor<1x4x4x8xf32>)
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[C]] : tensor<1x4x4x8xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[Y]]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<1x3x10x10xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// A depthwise convolution whose init is not a fill: the init is transposed.
// CHECK-LABEL: func @depthwise
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<8x3x3xf32>, %[[I:.*]]: tensor<1x8x4x4xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : {{.*}}) outs(%{{.*}} : tensor<1x6x6x8xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : {{.*}}) outs(%{{.*}} : tensor<3x3x8xf32>) permutation = [1, 2, 0]
// CHECK:         %[[IT:.*]] = linalg.transpose ins(%[[I]] : {{.*}}) outs(%{{.*}} : tensor<1x4x4x8xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[XT]], %[[WT]] : {{.*}}) outs(%[[IT]] : tensor<1x4x4x8xf32>)
// CHECK:         linalg.transpose ins(%[[C]] : {{.*}}) outs(%{{.*}} : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x3x3xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// Pooling keeps its window operand as it is.
// CHECK-LABEL: func @maxpool
// CHECK:         %[[K:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x8x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x8xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x3x8xf32>)
// CHECK:         %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} ins(%[[XT]], %[[K]] : {{.*}}) outs(%[[F]] : tensor<1x3x3x8xf32>)
// CHECK:         linalg.transpose ins(%[[P]] : {{.*}}) outs(%{{.*}} : tensor<1x8x3x3xf32>) permutation = [0, 3, 1, 2]
func.func @maxpool(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %k : tensor<1x8x6x6xf32>, tensor<2x2xf32>) outs(%f : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %y : tensor<1x8x3x3xf32>
}

// -----

// Channels-last convolutions are left alone.
// CHECK-LABEL: func @nhwc_untouched
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @nhwc_untouched(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x8xf32>, %i: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%i : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// -----

// PyTorch's grouped convolution: torch-mlir splits the NCHW image and
// result into groups by reshapes. The image is transposed before its split
// (a 4-D transpose, which can meet the inverse of the convolution's before
// it) and the result after its join (the split again meets torch-mlir's
// join and both fold away); the filled init is filled anew.
// CHECK-LABEL: func @grouped
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<4x3x2x3x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x8x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x8xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[XG:.*]] = tensor.expand_shape %[[XT]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 6, 6, 4, 2]
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x3x2x3x3xf32>) outs(%{{.*}} : tensor<4x3x3x3x2xf32>) permutation = [0, 1, 3, 4, 2]
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x2x4x3xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XG]], %[[WT]] : {{.*}}) outs(%[[F]] : tensor<1x2x2x4x3xf32>)
// CHECK:         %[[J:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x2x2x4x3xf32> into tensor<1x2x2x12xf32>
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[J]] : tensor<1x2x2x12xf32>) outs(%{{.*}} : tensor<1x12x2x2xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[Y]]
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @grouped(%x: tensor<1x8x6x6xf32>, %w: tensor<4x3x2x3x3xf32>) -> tensor<1x12x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 4, 2, 6, 6] : tensor<1x8x6x6xf32> into tensor<1x4x2x6x6xf32>
  %e = tensor.empty() : tensor<1x4x3x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x2x2xf32>) -> tensor<1x4x3x2x2xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%xg, %w : tensor<1x4x2x6x6xf32>, tensor<4x3x2x3x3xf32>) outs(%f : tensor<1x4x3x2x2xf32>) -> tensor<1x4x3x2x2xf32>
  %r = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x4x3x2x2xf32> into tensor<1x12x2x2xf32>
  return %r : tensor<1x12x2x2xf32>
}

// -----

// A grouped image that is no split of an NCHW tensor, and an init that is
// no fill: both transposed as 5-D tensors, [N, G, C, H, W] <-> [N, H, W, G, C].
// CHECK-LABEL: func @grouped_5d
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x2x5x5xf32>, %[[W:.*]]: tensor<4x2x2x3x3xf32>, %[[I:.*]]: tensor<2x4x2x3x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : {{.*}}) outs(%{{.*}} : tensor<2x5x5x4x2xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK:         %[[IT:.*]] = linalg.transpose ins(%[[I]] : {{.*}}) outs(%{{.*}} : tensor<2x3x3x4x2xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%[[XT]], %{{.*}} : {{.*}}) outs(%[[IT]] : tensor<2x3x3x4x2xf32>)
// CHECK:         tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<2x3x3x4x2xf32> into tensor<2x3x3x8xf32>
func.func @grouped_5d(%x: tensor<2x4x2x5x5xf32>, %w: tensor<4x2x2x3x3xf32>, %init: tensor<2x4x2x3x3xf32>) -> tensor<2x4x2x3x3xf32> {
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x4x2x5x5xf32>, tensor<4x2x2x3x3xf32>) outs(%init : tensor<2x4x2x3x3xf32>) -> tensor<2x4x2x3x3xf32>
  return %y : tensor<2x4x2x3x3xf32>
}
