// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// RUN: %pbtool compile %s --compile-to=s3 --cpu=x86-64-v3 --explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=S3
// CHECK-DAG: PASS @pw_shift_residual_relu
// CHECK-DAG: PASS @pw_constant_filter
// CHECK-DAG: PASS @pw_padded_then_3x3
// CHECK-DAG: PASS @pw_downsampling_block
// Covers: pb-pointwise-convs-as-matmuls against the reference lowering,
// which computes the convolutions as written. A 1x1 convolution on
// 2 x 7 x 7 pixels (98 rows, no multiple of the register tile) with its
// per-channel shift, residual add and ReLU: a matmul whose tiles span
// image rows, the epilogue computed on them; a constant 1x1 filter (its
// matrix packed at compile time) with 12 columns, a tile and a leftover;
// a 1x1 convolution whose ReLU is padded for a 3x3 one, left a convolution
// (pb-pad-in-place writes it into the padded buffer's interior); a ResNet
// downsampling block's end (its last 1x1 convolution, the strided 1x1
// shortcut, their sum and ReLU): the matmul stays where the convolution
// was, the shortcut's nest (its filter packed at compile time, with
// prefetches) comes between it and the sum, and the sum is still computed
// on the matmul's tiles.
// S1-LABEL: func.func @pw_shift_residual_relu
// S1-NOT:     linalg.conv_2d_nhwc_hwcf
// S1:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<98x40xf32>, memref<40x16xf32>) outs(%{{.*}} : memref<98x16xf32>)
// S1-LABEL: func.func @pw_constant_filter
// S1:         memref.get_global @{{.*}} : memref<4x12xf32>
// S1:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<49x4xf32>, memref<4x12xf32>) outs(%{{.*}} : memref<49x12xf32>)
// S1-LABEL: func.func @pw_padded_then_3x3
// S1-NOT:     linalg.matmul
// S1-COUNT-2: linalg.conv_2d_nhwc_hwcf
// S1-NOT:     linalg.matmul
// S1:         return
// S3: remark: @pw_shift_residual_relu, nest {{[0-9]+}} ({{.*}} x 40 iterations): pb-register-tile-contraction: register tile 6 x 16 of f32 (16 tiles of 6 rows, then 2 rows;
// S3: remark: @pw_shift_residual_relu, nest {{[0-9]+}} ({{.*}}): pb-fuse-epilogues: the elementwise nest after it computed on the register tiles as they are stored, in place of its result
// S3: remark: @pw_constant_filter, nest {{[0-9]+}} ({{.*}}): pb-register-tile-contraction: register tile {{.*}} (8 tiles of 6 rows, then 1 rows; {{.*}} the column factor packed at compile time (a constant)
// S3: remark: @pw_padded_then_3x3, nest {{[0-9]+}} (2 x 5 x 1 x 1 x 1 x 1 x 8 iterations): pb-register-tile-contraction:
// S3: remark: @pw_padded_then_3x3, nest {{[0-9]+}} (2 x 5 x 1 x 1 x 1 x 1 x 8 iterations): pb-fuse-epilogues:
// S3: remark: @pw_downsampling_block, nest 1 ({{.*}}): pb-register-tile-contraction: register tile 4 x 16 {{.*}} the column factor packed at compile time (a constant); {{.*}} each tile prefetches the next column tile's panel
// S3: remark: @pw_downsampling_block, nest 2 ({{.*}}): pb-register-tile-contraction: register tile 6 x 16
// S3: remark: @pw_downsampling_block, nest 2 ({{.*}}): pb-fuse-epilogues: the elementwise nest after it computed on the register tiles as they are stored, in place of its result
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @pw_shift_residual_relu(%x: tensor<2x7x7x40xf32>, %w: tensor<1x1x40x16xf32>, %shift: tensor<16xf32>,
                                  %res: tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x7x7x40xf32>, tensor<1x1x40x16xf32>) outs(%f : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %shift : tensor<2x7x7x16xf32>, tensor<16xf32>) outs(%e : tensor<2x7x7x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x7x7x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %res : tensor<2x7x7x16xf32>, tensor<2x7x7x16xf32>) outs(%e : tensor<2x7x7x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x7x7x16xf32>
  return %r : tensor<2x7x7x16xf32>
}

func.func @pw_constant_filter(%x: tensor<1x7x7x4xf32>) -> tensor<1x7x7x12xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.35, -0.70, 0.30, -0.86, 0.07, -0.27, -0.88, 0.01, 0.5, -0.25, 0.75, 1.0],
                               [-0.93, -0.13, -0.86, -0.82, -0.15, 0.65, -0.75, -0.55, 0.125, 0.0, -1.5, 0.3],
                               [0.25, 0.90, 0.15, -0.21, 0.95, -0.91, 0.72, -0.42, -0.6, 0.6, 0.2, -0.2],
                               [-0.71, -0.76, -0.38, 0.63, -0.64, 0.16, 0.28, -0.26, 0.9, -0.9, 0.45, 0.05]]]]> : tensor<1x1x4x12xf32>
  %e = tensor.empty() : tensor<1x7x7x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x12xf32>) -> tensor<1x7x7x12xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x7x7x4xf32>, tensor<1x1x4x12xf32>) outs(%f : tensor<1x7x7x12xf32>) -> tensor<1x7x7x12xf32>
  return %c : tensor<1x7x7x12xf32>
}

func.func @pw_padded_then_3x3(%x: tensor<2x5x5x8xf32>, %w: tensor<1x1x8x16xf32>, %k: tensor<3x3x16x8xf32>) -> tensor<2x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x5x5x8xf32>, tensor<1x1x8x16xf32>) outs(%f : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x5x5x16xf32>) outs(%e : tensor<2x5x5x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x5x5x16xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<2x5x5x16xf32> to tensor<2x7x7x16xf32>
  %e2 = tensor.empty() : tensor<2x5x5x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %k : tensor<2x7x7x16xf32>, tensor<3x3x16x8xf32>) outs(%f2 : tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32>
  return %y : tensor<2x5x5x8xf32>
}

func.func @pw_downsampling_block(%x: tensor<1x16x16x16xf32>, %y: tensor<1x8x8x32xf32>, %w: tensor<1x1x32x48xf32>) -> tensor<1x8x8x48xf32> {
  %zero = arith.constant 0.0 : f32
  %ws = arith.constant dense<[[[[0.35, 0.57, 0.04, 0.02, -0.21, 0.99, -0.42, -0.70, -0.48, -0.48, -0.35, -0.46, -0.78, -0.35, -0.38, 0.14, -0.60, -0.86, -0.59, 0.08, -0.22, 0.47, 0.61, -0.17, -0.80, 0.46, 0.51, -0.21, 0.32, -0.40, 0.83, 0.67, 0.58, 0.91, -0.53, 0.09, 0.46, 0.60, -0.22, -0.72, 0.25, -0.79, 0.41, -0.99, -0.09, -0.04, -0.76, -0.04],
                               [0.00, -0.26, 0.79, 0.73, 0.78, -0.51, -0.95, -0.25, -0.77, 0.41, -0.47, -0.74, -0.43, -0.19, 0.47, -0.08, -0.40, 0.35, -0.91, -0.58, 0.37, 0.50, -0.80, -0.87, 0.01, 0.31, -0.97, -0.13, -0.45, -0.83, -0.66, -0.43, -0.07, -0.78, 0.24, 0.76, 0.37, -0.86, 0.30, 0.27, -0.98, -0.23, 0.31, 0.90, 0.86, 0.14, 0.18, 0.92],
                               [-0.58, 0.02, -0.88, 0.55, 0.31, -0.58, -0.61, 0.05, 0.50, -0.73, -0.35, 0.03, -0.48, 0.77, 0.45, 0.91, 0.28, 0.36, -0.43, 0.01, -0.14, -0.04, -0.88, 0.70, -0.69, -0.08, 0.86, 0.03, 0.74, -0.48, -0.07, -0.24, -0.35, -0.26, -0.11, 0.68, 0.94, -0.81, 0.34, 0.06, -0.17, -0.92, -0.28, -0.37, -0.27, 0.19, -0.27, -0.41],
                               [-0.45, 0.95, -0.22, 0.95, -0.67, 0.33, 0.11, 0.42, 0.03, 0.75, 0.18, -0.91, 0.37, 0.23, -0.51, 0.46, 0.67, -0.45, -0.70, -0.42, 0.18, -0.11, -0.86, -0.10, 0.09, 0.16, -0.29, 0.57, 0.35, -0.48, -0.31, 0.85, -0.56, -0.11, -0.39, 0.17, 0.59, -0.75, -0.62, -0.87, -0.75, 0.04, -0.02, 0.89, -0.09, 0.05, -0.95, -0.55],
                               [-0.38, -0.51, 0.58, -0.17, -0.73, 0.07, -0.69, -0.63, 0.22, -0.83, 0.51, -0.12, -0.87, 0.35, 0.92, 0.48, 0.68, 0.88, -0.46, -0.03, 0.48, -0.21, 0.93, -0.15, -0.96, -0.81, -0.15, -0.96, 0.22, 0.99, 0.87, 0.97, -0.50, -0.64, -0.86, 0.86, -0.95, -0.86, 0.33, 0.90, 0.07, -0.87, -0.93, 0.64, 0.38, -0.38, 0.97, -0.44],
                               [-0.70, 0.93, -0.89, -0.27, -0.64, 0.28, -0.02, -0.50, 0.26, -0.79, 0.97, 0.57, -0.58, 0.19, -0.46, 0.15, -0.37, -0.58, -0.02, -0.86, 0.99, 0.58, -0.55, 0.20, -0.65, -0.67, -0.23, 0.43, -0.86, 0.87, -0.50, -0.67, -0.02, 0.81, -0.17, 0.07, 0.97, 0.05, -0.31, -0.62, 0.04, 0.26, 0.18, -0.61, -0.98, 0.93, 0.38, 0.69],
                               [0.68, -0.15, -0.63, 0.93, 0.79, -0.87, 0.26, 0.00, -0.95, 0.14, 0.30, -0.11, -0.49, 0.77, 0.34, -0.44, 0.56, 0.82, -0.22, 0.15, -0.81, -0.74, 0.70, 0.91, 0.86, -0.70, 0.40, -0.22, -0.57, 0.79, -0.81, -0.84, -0.30, -0.71, -0.21, 0.26, 0.03, 0.84, -0.03, -0.71, 0.10, -0.95, 0.32, -0.68, -0.03, -0.12, 0.86, -0.74],
                               [-0.44, -0.34, 0.04, -0.23, 0.96, 0.85, 0.89, 0.34, 0.59, 0.10, -0.60, -0.67, -0.62, 0.53, 0.34, -0.93, -0.42, -0.85, 0.05, -0.32, -0.03, -0.26, -0.19, -0.09, 0.57, -0.86, 0.52, 0.17, 0.58, -0.69, -0.42, 0.81, 0.92, -0.45, -0.25, -0.33, -0.34, 0.90, 0.00, -0.15, 0.81, 0.27, 0.88, 0.30, -0.12, -0.84, -0.01, 0.04],
                               [0.24, 0.69, -0.27, 0.10, 0.65, 0.90, 0.65, -0.47, 0.65, 0.35, -0.37, 0.11, 0.59, 0.62, -0.51, -0.02, 0.33, -0.66, 0.53, 0.58, 0.16, 0.91, -0.37, -0.44, 0.94, 0.23, -0.99, -0.13, -0.37, 0.66, 0.95, -0.73, 0.36, 0.71, -0.77, -0.12, -0.93, -0.29, 0.17, 0.42, -0.45, 0.32, 0.11, -0.27, 0.01, 0.60, 0.58, -0.16],
                               [0.59, -0.12, -0.05, -0.55, -0.00, -0.89, 0.69, -0.26, -0.28, 0.71, 0.37, -0.09, 0.73, 0.19, 0.72, -0.47, 0.57, 0.90, -0.20, 0.52, 0.95, 0.18, 0.51, -0.78, -0.77, 0.65, 0.54, -0.69, 0.59, -0.71, 0.70, 0.86, 0.06, -0.40, 0.52, 0.73, -0.69, -0.06, 0.30, 0.52, -0.97, 0.61, 0.25, 0.65, -0.74, -0.17, 0.25, 0.80],
                               [-0.17, 0.88, 0.06, 0.83, 0.95, -0.84, -0.59, -0.37, 0.07, 0.43, 0.19, -0.31, -0.65, -0.13, 0.98, -0.61, -0.64, 0.08, -0.64, 0.59, -0.04, -0.85, -0.05, 0.40, 0.17, -0.55, 0.88, -0.78, -0.95, -0.51, 0.77, 0.05, 0.31, -0.26, -0.28, -0.12, -0.63, 0.19, -0.37, 0.90, 0.56, -0.62, 0.87, -0.75, 0.85, -0.11, 0.66, 0.05],
                               [-0.15, -0.28, 0.13, 0.06, -0.76, -0.04, -0.04, 0.68, -0.67, -0.61, -0.83, -0.22, -0.16, -0.28, -0.83, 0.85, -0.89, 0.37, -0.56, -0.03, -0.20, 0.01, -0.79, -0.57, -0.81, 0.41, -0.95, 0.35, -0.46, -0.79, 0.67, 0.49, -0.72, -0.49, 0.50, -0.38, 0.49, 0.12, 0.10, -0.41, 0.06, 0.75, -0.82, -0.03, -0.02, -0.97, -0.44, -0.60],
                               [0.34, 0.36, 0.26, -0.18, 0.60, 0.65, 0.39, -0.89, -0.62, 0.65, -0.59, 0.20, 0.84, -0.38, -0.11, -0.26, 0.10, -0.29, -0.58, 0.90, -0.24, 0.89, -0.14, -0.72, -0.58, -0.17, 0.97, -0.12, -0.77, -0.27, -0.18, 0.16, -0.71, -0.40, -0.76, -0.34, 0.00, 0.58, -0.74, -0.75, -0.74, -0.22, 0.81, 0.97, -0.05, 0.82, -0.38, -0.26],
                               [-0.53, 0.03, -0.56, 0.70, 0.56, 0.41, 0.29, -0.33, -0.35, 0.28, -0.26, 0.17, -0.62, 0.17, 0.71, 0.29, -0.41, -0.41, -0.36, -0.33, 0.64, -0.81, 0.21, -0.58, 0.08, 0.43, -0.13, -0.59, 0.19, -0.35, 0.13, 0.47, -0.35, 0.08, 0.15, 0.02, -0.41, -0.56, 0.71, -0.66, -0.73, -1.00, 0.86, -0.51, 0.40, -0.34, 0.27, 0.16],
                               [-0.42, -0.24, 0.80, 0.36, -0.73, 0.68, -0.17, -0.99, 0.08, 0.68, 0.20, -0.46, 0.13, -0.83, -0.83, -0.88, 0.08, 0.08, -0.19, 0.25, -0.57, 0.99, -0.65, -0.18, 0.25, -0.79, 0.98, -0.86, 0.46, -0.87, -0.03, 0.80, 0.24, -0.56, 0.85, -0.65, -0.64, 0.02, 0.29, -0.24, 0.07, 0.07, -0.58, -0.13, -0.56, 0.81, 0.30, -0.73],
                               [-0.11, -0.46, 0.39, 1.00, -0.44, 0.33, -0.42, -0.13, 0.03, -0.02, 0.04, 0.09, 0.10, 0.67, 0.79, -0.56, 0.06, 0.62, 0.87, -0.21, -0.50, 0.41, 0.85, -0.64, -0.41, 0.36, -0.74, -0.46, -0.28, -0.40, 0.06, -0.09, -0.65, 0.45, 0.02, 0.53, -0.83, 0.84, -0.13, 0.39, 0.08, 0.92, 0.93, 0.06, -0.20, -0.99, -0.83, -0.65]]]]> : tensor<1x1x16x48xf32>
  %e = tensor.empty() : tensor<1x8x8x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x48xf32>) -> tensor<1x8x8x48xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%y, %w : tensor<1x8x8x32xf32>, tensor<1x1x32x48xf32>) outs(%f : tensor<1x8x8x48xf32>) -> tensor<1x8x8x48xf32>
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %ws : tensor<1x16x16x16xf32>, tensor<1x1x16x48xf32>) outs(%f : tensor<1x8x8x48xf32>) -> tensor<1x8x8x48xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %d : tensor<1x8x8x48xf32>, tensor<1x8x8x48xf32>) outs(%e : tensor<1x8x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x48xf32>
  return %r : tensor<1x8x8x48xf32>
}
