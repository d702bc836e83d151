// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// RUN: %pbtool compile %s --compile-to=s3 --cpu=x86-64-v3 --explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=S3
// CHECK-DAG: PASS @pw_shift_residual_relu
// CHECK-DAG: PASS @pw_constant_filter
// CHECK-DAG: PASS @pw_padded_then_3x3
// Covers: pb-pointwise-convs-as-matmuls against the reference lowering,
// which computes the convolutions as written. A 1x1 convolution on
// 2 x 7 x 7 pixels (98 rows, no multiple of the register tile) with its
// per-channel shift, residual add and ReLU: a matmul whose tiles span
// image rows, the epilogue computed on them; a constant 1x1 filter (its
// matrix packed at compile time) with 12 columns, a tile and a leftover;
// a 1x1 convolution whose ReLU is padded for a 3x3 one, left a convolution
// (pb-pad-in-place writes it into the padded buffer's interior).
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
