// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 --threads=2 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --cpu=x86-64-v3 --threads=2 --explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILED
// CHECK: PASS @grouped_nchw
// CHECK: PASS @grouped_nchw_stride2_batch2
// CHECK: PASS @grouped_jax_dilation2
// Covers: grouped convolutions (pb-convert-convs-to-channels-last,
// pb-grouped-convs-as-batches) against the reference lowering on random
// inputs: PyTorch's NGCHW form between torch-mlir's reshapes (4 groups of 4
// channels to 8), strided with 4 channels in and out per group at batch 2
// (a 4-lane tile), JAX's generic with dilation 2 (8 groups of 2 to 8).
// Each is register-tiled as a batch over its groups (the column factor of
// each group packed by the thread that computes it); JAX's, with enough
// work, runs its groups on the threads:
// TILED: remark: @grouped_nchw, {{.*}}pb-register-tile-contraction: register tile 6 x 8 of f32 {{.*}}the column factor packed per batch
// TILED: remark: @grouped_nchw_stride2_batch2, {{.*}}pb-register-tile-contraction: register tile 5 x 4 of f32 {{.*}}the column factor packed per batch
// TILED: remark: @grouped_jax_dilation2, {{.*}}pb-register-tile-contraction: register tile 5 x 8 of f32 {{.*}}the column factor packed per batch
// TILED: remark: @grouped_jax_dilation2, nest 3 {{.*}}pb-parallelize-outer-loops: parallel over the threads: a loop of 8 iterations,
func.func @grouped_nchw(%x: tensor<1x16x8x8xf32>, %w: tensor<32x4x3x3xf32>) -> tensor<1x32x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 8, 8] : tensor<1x16x8x8xf32> into tensor<1x4x4x8x8xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 8, 4, 3, 3] : tensor<32x4x3x3xf32> into tensor<4x8x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x8x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x6x6xf32>) -> tensor<1x4x8x6x6xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x4x4x8x8xf32>, tensor<4x8x4x3x3xf32>) outs(%f : tensor<1x4x8x6x6xf32>) -> tensor<1x4x8x6x6xf32>
  %r = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x4x8x6x6xf32> into tensor<1x32x6x6xf32>
  return %r : tensor<1x32x6x6xf32>
}

func.func @grouped_nchw_stride2_batch2(%x: tensor<2x4x4x11x11xf32>, %w: tensor<4x4x4x3x3xf32>, %init: tensor<2x4x4x5x5xf32>) -> tensor<2x4x4x5x5xf32> {
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x4x4x11x11xf32>, tensor<4x4x4x3x3xf32>) outs(%init : tensor<2x4x4x5x5xf32>) -> tensor<2x4x4x5x5xf32>
  return %y : tensor<2x4x4x5x5xf32>
}

#image = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d3 + d4 * 2, d5 + d6 * 2, d0, d1)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d6, d1, d0, d2)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d3, d5, d0, d2)>
func.func @grouped_jax_dilation2(%x: tensor<1x13x13x16xf32>, %w: tensor<3x3x2x64xf32>) -> tensor<1x9x9x64xf32> {
  %zero = arith.constant 0.0 : f32
  %xg = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 13, 13, 8, 2] : tensor<1x13x13x16xf32> into tensor<1x13x13x8x2xf32>
  %wg = tensor.expand_shape %w [[0], [1], [2], [3, 4]] output_shape [3, 3, 2, 8, 8] : tensor<3x3x2x64xf32> into tensor<3x3x2x8x8xf32>
  %e = tensor.empty() : tensor<1x9x9x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x8x8xf32>) -> tensor<1x9x9x8x8xf32>
  %y = linalg.generic {indexing_maps = [#image, #filter, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
      ins(%xg, %wg : tensor<1x13x13x8x2xf32>, tensor<3x3x2x8x8xf32>) outs(%f : tensor<1x9x9x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x9x9x8x8xf32>
  %r = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x9x9x8x8xf32> into tensor<1x9x9x64xf32>
  return %r : tensor<1x9x9x64xf32>
}
