// RUN: %pbtool crosscheck %s --l3-cache-kib=256 | FileCheck %s
// RUN: %pbtool crosscheck %s --l3-cache-kib=65536 | FileCheck %s
// RUN: %pbtool compile %s --l3-cache-kib=256 --threads=2 --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @block
// Covers: pb-tile-batch against the reference lowering (random inputs). With
// a 256 KiB L3, the 4x32x32x16 activations (256 KiB) outgrow a quarter of
// it: the padded input, the 3x3 convolution, its bias, the residual add of
// the input, the ReLU and the stride-2 depthwise convolution that reads
// them run one image at a time, the ReLU's result also returned (yielded by
// the loop); the 1x1 convolution after the cut stays batched. In the loop,
// the convolution is parallel over the threads and the buffers are views
// of the function's arena (pb-parallelize-outer-loops and pb-share-buffers
// on a loop's body). With a 64 MiB L3 the same program is left batched.
// S3-LABEL: func.func @block
// S3:         memref.get_global @__pb_arena_block :
// S3:         scf.for %{{.*}} = %{{.*}} to %c4 step %c1 {
// S3-NOT:       memref.alloc()
// S3:           affine.parallel
// S3:         }
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#c = affine_map<(n, h, w, c) -> (c)>
func.func @block(%x: tensor<4x32x32x16xf32>, %w: tensor<3x3x16x16xf32>, %b: tensor<16xf32>, %dw: tensor<3x3x16xf32>, %w1: tensor<1x1x16x8xf32>) -> (tensor<4x16x16x8xf32>, tensor<4x32x32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<4x32x32x16xf32> to tensor<4x34x34x16xf32>
  %e = tensor.empty() : tensor<4x32x32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x32x16xf32>) -> tensor<4x32x32x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<4x34x34x16xf32>, tensor<3x3x16x16xf32>) outs(%f : tensor<4x32x32x16xf32>) -> tensor<4x32x32x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #c, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b, %x : tensor<4x32x32x16xf32>, tensor<16xf32>, tensor<4x32x32x16xf32>) outs(%e : tensor<4x32x32x16xf32>) {
  ^bb0(%a: f32, %bias: f32, %res: f32, %o: f32):
    %t = arith.addf %a, %bias : f32
    %u = arith.addf %t, %res : f32
    %m = arith.maximumf %u, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x32x32x16xf32>
  %rp = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<4x32x32x16xf32> to tensor<4x34x34x16xf32>
  %ed = tensor.empty() : tensor<4x16x16x16xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%ed : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%rp, %dw : tensor<4x34x34x16xf32>, tensor<3x3x16xf32>) outs(%fd : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e1 = tensor.empty() : tensor<4x16x16x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16x16x8xf32>) -> tensor<4x16x16x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w1 : tensor<4x16x16x16xf32>, tensor<1x1x16x8xf32>) outs(%f1 : tensor<4x16x16x8xf32>) -> tensor<4x16x16x8xf32>
  return %y, %r : tensor<4x16x16x8xf32>, tensor<4x32x32x16xf32>
}
