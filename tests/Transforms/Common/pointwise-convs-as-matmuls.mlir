// RUN: pb-opt %s -split-input-file -pb-pointwise-convs-as-matmuls | FileCheck %s

// A 1x1 convolution of unit stride and the elementwise op that alone reads
// its result (a per-channel shift read through a Cx1x1 tensor, a residual
// add, a clamp): a matmul of pixels (2 * 7 * 7 = 98) by channels and the
// elementwise op on the same matrix, its result expanded back to NHWC.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[CH:.*]] = affine_map<(d0, d1) -> (d1, 0, 0)>
// CHECK-LABEL: func @conv_shift_residual
// CHECK-SAME:    (%[[X:.*]]: tensor<2x7x7x16xf32>, %[[W:.*]]: tensor<1x1x16x24xf32>, %[[S:.*]]: tensor<24x1x1xf32>, %[[R:.*]]: tensor<2x7x7x24xf32>)
// CHECK-DAG:     %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3]] : tensor<2x7x7x16xf32> into tensor<98x16xf32>
// CHECK-DAG:     %[[WC:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x16x24xf32> into tensor<16x24xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[XC]], %[[WC]] : tensor<98x16xf32>, tensor<16x24xf32>) outs(%{{.*}} : tensor<98x24xf32>)
// CHECK:         %[[RC:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1, 2], [3]] : tensor<2x7x7x24xf32> into tensor<98x24xf32>
// CHECK:         %[[E:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[MM]], %[[S]], %[[RC]] : tensor<98x24xf32>, tensor<24x1x1xf32>, tensor<98x24xf32>) outs(%{{.*}} : tensor<98x24xf32>)
// CHECK:           arith.subf
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %[[E]] {{\[}}[0, 1, 2], [3]] output_shape [2, 7, 7, 24] : tensor<98x24xf32> into tensor<2x7x7x24xf32>
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         return %[[OUT]]
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c, 0, 0)>
func.func @conv_shift_residual(%x: tensor<2x7x7x16xf32>, %w: tensor<1x1x16x24xf32>, %s: tensor<24x1x1xf32>, %r: tensor<2x7x7x24xf32>) -> tensor<2x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x24xf32>) -> tensor<2x7x7x24xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x7x7x16xf32>, tensor<1x1x16x24xf32>) outs(%f : tensor<2x7x7x24xf32>) -> tensor<2x7x7x24xf32>
  %y = linalg.generic {indexing_maps = [#id, #ch, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s, %r : tensor<2x7x7x24xf32>, tensor<24x1x1xf32>, tensor<2x7x7x24xf32>) outs(%e : tensor<2x7x7x24xf32>) {
  ^bb0(%a: f32, %b: f32, %res: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %sum = arith.addf %d, %res : f32
    %m = arith.maximumf %sum, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x7x7x24xf32>
  return %y : tensor<2x7x7x24xf32>
}

// -----

// No elementwise op after it (the result returned): the matmul alone; the
// dilation of a 1x1 filter changes nothing.
// CHECK-LABEL: func @conv_alone
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<12x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<12x4xf32>)
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 4, 4] : tensor<12x4xf32> into tensor<1x3x4x4xf32>
// CHECK:         return %[[OUT]]
func.func @conv_alone(%x: tensor<1x3x4x8xf32>, %w: tensor<1x1x8x4xf32>, %init: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x4x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}

// -----

// The result read by two ops: the matmul, its result expanded for both;
// the elementwise op stays in NHWC.
// CHECK-LABEL: func @conv_two_readers
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK:         %[[C:.*]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[C]] : tensor<1x3x4x4xf32>)
// CHECK:         return %{{.*}}, %[[C]]
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @conv_two_readers(%x: tensor<1x3x4x8xf32>, %w: tensor<1x1x8x4xf32>, %init: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x4x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x3x4x4xf32>) outs(%e : tensor<1x3x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x3x4x4xf32>
  return %y, %c : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

// An epilogue that reads its position (linalg.index) or reads the pixels
// in another order (a transpose of h and w) is not reshaped; the
// convolution still becomes the matmul.
// CHECK-LABEL: func @epilogues_kept
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK:         %[[C:.*]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<1x3x3x4xf32>)
// CHECK:           linalg.index 1
// CHECK:         %[[MM2:.*]] = linalg.matmul
// CHECK:         %[[C2:.*]] = tensor.expand_shape %[[MM2]]
// CHECK:         linalg.generic {{.*}} ins(%[[C2]], %{{.*}} : tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>)
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#hw = affine_map<(n, h, w, c) -> (n, w, h, c)>
func.func @epilogues_kept(%x: tensor<1x3x3x8xf32>, %w: tensor<1x1x8x4xf32>, %init: tensor<1x3x3x4xf32>, %q: tensor<1x3x3x4xf32>) -> (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x3x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x3x3x4xf32>) outs(%e : tensor<1x3x3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %s = arith.addf %a, %fi : f32
    linalg.yield %s : f32
  } -> tensor<1x3x3x4xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x3x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #hw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %q : tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) outs(%e : tensor<1x3x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x3x4xf32>
  return %y, %t : tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>
}

// -----

// Left alone: a result padded for the next layer, directly or after its
// epilogue (pb-pad-in-place writes it into the padded tensor's interior);
// a strided 1x1 convolution; a 3x3 one.
// CHECK-LABEL: func @convs_kept
// CHECK-NOT:     linalg.matmul
// CHECK-COUNT-4: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.matmul
// CHECK:         return
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @convs_kept(%x: tensor<1x4x4x8xf32>, %w: tensor<1x1x8x4xf32>, %w3: tensor<3x3x8x4xf32>,
                      %init: tensor<1x4x4x4xf32>, %init2: tensor<1x2x2x4xf32>)
    -> (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %p2 = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  %s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x4xf32>) outs(%init2 : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %k = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w3 : tensor<1x4x4x8xf32>, tensor<3x3x8x4xf32>) outs(%init2 : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %p, %p2, %s, %k : tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>
}

// -----

// A ResNet block's last convolution, then the downsampling one, then the
// residual add that reads both: the matmul takes the convolution's place,
// the add (reshaped with it) the add's, the strided convolution between
// them (pb-fuse-epilogues reaches the add past it).
// CHECK-LABEL: func @matmul_in_place_of_the_conv
// CHECK:         tensor.collapse_shape
// CHECK-NEXT:    tensor.collapse_shape
// CHECK-NEXT:    tensor.empty() : tensor<16x4xf32>
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    linalg.matmul
// CHECK-NEXT:    linalg.conv_2d_nhwc_hwcf {{.*}} strides = dense<2>
// CHECK-NEXT:    tensor.collapse_shape
// CHECK-NEXT:    tensor.empty() : tensor<16x4xf32>
// CHECK-NEXT:    linalg.generic
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @matmul_in_place_of_the_conv(%x: tensor<1x4x4x8xf32>, %big: tensor<1x8x8x8xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%big, %w : tensor<1x8x8x8xf32>, tensor<1x1x8x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %d : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
