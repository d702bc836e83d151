// RUN: pb-opt %s -split-input-file -pb-set-machine-model='machine={l3_kib = 64 : i64}' -pb-tile-batch | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-set-machine-model='machine={l3_kib = 4096 : i64}' -pb-tile-batch | FileCheck %s --check-prefix=LARGE

// A 64 KiB L3: activations of more than 16 KiB at batch 4 are tiled. The
// 3x3 convolution's result (4x16x16x16, 64 KiB) and the ReLU after it are
// read by the 1x1 convolution, the cut; the padded input, the convolutions
// and the ReLU run one image at a time, the mean over the image (reading
// 4x16x16x4, 16 KiB) stays batched after the loop. With a 4 MiB L3 nothing
// outgrows the cache.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[LOOP:.*]] = scf.for %[[N:.*]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x16x16x4xf32>) {
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[%[[N]], 0, 0, 0] [1, 16, 16, 8] [1, 1, 1, 1] : tensor<4x16x16x8xf32> to tensor<1x16x16x8xf32>
// CHECK:           tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:           } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
// CHECK:           linalg.fill {{.*}} -> tensor<1x16x16x16xf32>
// CHECK:           linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x16x16x16xf32>
// CHECK:           linalg.generic
// CHECK:           } -> tensor<1x16x16x16xf32>
// CHECK:           %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x16x16x4xf32>
// CHECK:           %[[INS:.*]] = tensor.insert_slice %[[Y]] into %[[ACC]][%[[N]], 0, 0, 0] [1, 16, 16, 4] [1, 1, 1, 1] : tensor<1x16x16x4xf32> into tensor<4x16x16x4xf32>
// CHECK:           scf.yield %[[INS]] : tensor<4x16x16x4xf32>
// CHECK:         }
// CHECK:         linalg.generic {{.*}} ins(%[[LOOP]] : tensor<4x16x16x4xf32>)
// CHECK:         } -> tensor<4x4xf32>
// LARGE-LABEL: func.func @chain
// LARGE-NOT:     scf.for
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (n, c)>
func.func @chain(%x: tensor<4x16x16x8xf32>, %w: tensor<3x3x8x16xf32>, %w1: tensor<1x1x16x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x8xf32> to tensor<4x18x18x8xf32>
  %e = tensor.empty() : tensor<4x16x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<4x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<4x16x16x16xf32>) outs(%e : tensor<4x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16x16x16xf32>
  %e1 = tensor.empty() : tensor<4x16x16x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16x16x4xf32>) -> tensor<4x16x16x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r, %w1 : tensor<4x16x16x16xf32>, tensor<1x1x16x4xf32>) outs(%f1 : tensor<4x16x16x4xf32>) -> tensor<4x16x16x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%y : tensor<4x16x16x4xf32>) outs(%f2 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// The ReLU's result is also returned, read after the cut (as by a
// residual connection across it): the loop yields it as well (the doubled
// input before it stays in the loop).
// CHECK-LABEL: func.func @read_after_cut
// CHECK:         %[[LOOP:.*]]:2 = scf.for {{.*}} -> (tensor<4x16x16x16xf32>, tensor<4x16x16x4xf32>) {
// CHECK:           linalg.generic
// CHECK:           %[[R:.*]] = linalg.generic
// CHECK:           } -> tensor<1x16x16x16xf32>
// CHECK:           %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[R]], {{.*}} -> tensor<1x16x16x4xf32>
// CHECK:           %[[IR:.*]] = tensor.insert_slice %[[R]]
// CHECK:           %[[IY:.*]] = tensor.insert_slice %[[Y]]
// CHECK:           scf.yield %[[IR]], %[[IY]]
// CHECK:         }
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[LOOP]]#1 : tensor<4x16x16x4xf32>)
// CHECK:         return %[[S]], %[[LOOP]]#0
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (n, c)>
func.func @read_after_cut(%x: tensor<4x16x16x16xf32>, %w1: tensor<1x1x16x4xf32>) -> (tensor<4x4xf32>, tensor<4x16x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x16x16x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<4x16x16x16xf32>) outs(%e : tensor<4x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<4x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d : tensor<4x16x16x16xf32>) outs(%e : tensor<4x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16x16x16xf32>
  %e1 = tensor.empty() : tensor<4x16x16x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16x16x4xf32>) -> tensor<4x16x16x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r, %w1 : tensor<4x16x16x16xf32>, tensor<1x1x16x4xf32>) outs(%f1 : tensor<4x16x16x4xf32>) -> tensor<4x16x16x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%y : tensor<4x16x16x4xf32>) outs(%f2 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %s, %r : tensor<4x4xf32>, tensor<4x16x16x16xf32>
}

// -----

// An op that reads the image's index (linalg.index on the batch loop) would
// see 0 in every iteration: it is no per-image op, and the only op reading
// the large activation is not tiled.
// CHECK-LABEL: func.func @indexes_images
// CHECK-NOT:     scf.for
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @indexes_images(%x: tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32> {
  %e = tensor.empty() : tensor<4x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<4x16x16x16xf32>) outs(%e : tensor<4x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = linalg.index 0 : index
    %i = arith.index_cast %n : index to i32
    %f = arith.sitofp %i : i32 to f32
    %m = arith.addf %a, %f : f32
    linalg.yield %m : f32
  } -> tensor<4x16x16x16xf32>
  return %r : tensor<4x16x16x16xf32>
}

// -----

// A convolution mixing the images (a batch-to-channels transpose feeds it
// through a map reading the batch elsewhere than dim 0) is no per-image op.
// CHECK-LABEL: func.func @mixes_images
// CHECK-NOT:     scf.for
#in = affine_map<(n, h, w, c) -> (c, h, w, n)>
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @mixes_images(%x: tensor<16x16x16x16xf32>) -> tensor<16x16x16x16xf32> {
  %e = tensor.empty() : tensor<16x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<16x16x16x16xf32>) outs(%e : tensor<16x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x16x16x16xf32>
  return %r : tensor<16x16x16x16xf32>
}

// -----

// The ReLU's result is read by the cut directly and through an op mixing
// the images before it; that op cannot go into the loop, and the ReLU
// cannot leave it: nothing is tiled.
// CHECK-LABEL: func.func @read_before_cut
// CHECK-NOT:     scf.for
#in = affine_map<(n, h, w, c) -> (c, h, w, n)>
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @read_before_cut(%x: tensor<16x16x16x16xf32>) -> tensor<16x16x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<16x16x16x16xf32>) outs(%e : tensor<16x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x16x16x16xf32>
  %t = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<16x16x16x16xf32>) outs(%e : tensor<16x16x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x16x16x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %t : tensor<16x16x16x16xf32>, tensor<16x16x16x16xf32>) outs(%e : tensor<16x16x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %u = arith.addf %a, %b : f32
    linalg.yield %u : f32
  } -> tensor<16x16x16x16xf32>
  return %s : tensor<16x16x16x16xf32>
}

// -----

// Only the cut would run in the loop (its producer, a matmul, stays
// batched: split by image, its weight would be packed once per image), and
// no large activation would stay in the loop: nothing is tiled.
// CHECK-LABEL: func.func @matmul_then_gelu
// CHECK-NOT:     scf.for
#in = affine_map<(b, s, n, k) -> (b, s, k)>
#w = affine_map<(b, s, n, k) -> (k, n)>
#out = affine_map<(b, s, n, k) -> (b, s, n)>
#id = affine_map<(b, s, n) -> (b, s, n)>
func.func @matmul_then_gelu(%x: tensor<4x64x64xf32>, %w: tensor<64x256xf32>) -> tensor<4x64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x256xf32>) -> tensor<4x64x256xf32>
  %m = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x64x64xf32>, tensor<64x256xf32>) outs(%f : tensor<4x64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x64x256xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<4x64x256xf32>) outs(%e : tensor<4x64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x64x256xf32>
  return %g : tensor<4x64x256xf32>
}
