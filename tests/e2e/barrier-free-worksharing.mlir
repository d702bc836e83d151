// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s4 -o - | FileCheck %s --check-prefix=S4
// CHECK: PASS @odd_sizes
// Covers: pb-barrier-free-worksharing against the reference lowering: a
// matmul (its k-block loop of parts), a row softmax (reductions then
// elementwise parts) and a transposing add, of sizes no number of chunks or
// home ranges divides (1031 rows, 77 and 301 columns), the threads claiming
// every part's iterations and waiting for no barrier.
// S4-LABEL: func.func @odd_sizes
// S4:         omp.parallel {
// S4:           func.call @omp_get_thread_num()
// S4:           func.call @__pb_claim_chunk
// S4:           omp.terminator
// S4-NOT:     omp.wsloop
// S4-NOT:     omp.barrier
// S4:         return
func.func @odd_sizes(%a: tensor<1031x515xf32>, %b: tensor<515x77xf32>, %x: tensor<1031x301xf32>,
                     %y: tensor<301x1031xf32>)
    -> (tensor<1031x77xf32>, tensor<1031x301xf32>, tensor<1031x301xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1031x77xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1031x77xf32>) -> tensor<1031x77xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1031x515xf32>, tensor<515x77xf32>) outs(%f : tensor<1031x77xf32>) -> tensor<1031x77xf32>
  %es = tensor.empty() : tensor<1031x301xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<1031x301xf32>) outs(%es : tensor<1031x301xf32>) -> tensor<1031x301xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<1031x301xf32>, tensor<301x1031xf32>) outs(%es : tensor<1031x301xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %z = arith.addf %u, %v : f32
    linalg.yield %z : f32
  } -> tensor<1031x301xf32>
  return %m, %s, %t : tensor<1031x77xf32>, tensor<1031x301xf32>, tensor<1031x301xf32>
}

// CHECK: PASS @inverted_residual
// Parts that do not depend on each other do not wait for each other, against
// the reference lowering: the zero fills of the two convolutions'
// accumulators, the packing of the first one's filter and the border fills
// of the padded buffer the depthwise convolution reads follow each other
// without waiting; the pointwise convolution that computes the buffer's
// interior (with its ReLU) waits for them, since it reads its accumulator.
// Sizes no chunk count divides (29 rows, 48 channels).
// S4-LABEL: func.func @inverted_residual
// S4:         omp.parallel {
// S4:           memref.store %{{.*}} : memref<1x1x31x48xf32, strided<[46128, 1488, 48, 1]>>
// S4-NOT:       __pb_wait_done
// S4:           memref.store %{{.*}} : memref<1x1x31x48xf32, strided<[46128, 1488, 48, 1], offset: 44640>>
// S4-NOT:       __pb_wait_done
// S4:           memref.store %{{.*}} : memref<1x29x1x48xf32, strided<[46128, 1488, 48, 1], offset: 1488>>
// S4-NOT:       __pb_wait_done
// S4:           memref.store %{{.*}} : memref<1x29x1x48xf32, strided<[46128, 1488, 48, 1], offset: 2928>>
// S4:           func.call @__pb_wait_done
// S4:           vector.store %{{.*}} : memref<1x29x29x48xf32, strided<[46128, 1488, 48, 1], offset: 1536>>, vector<16xf32>
// S4:           return
func.func @inverted_residual(%x: tensor<1x29x29x8xf32>, %w1: tensor<1x1x8x48xf32>, %dw: tensor<3x3x48xf32>,
                             %w2: tensor<1x1x48x8xf32>) -> tensor<1x29x29x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x29x29x48xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x29x29x48xf32>) -> tensor<1x29x29x48xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x29x29x8xf32>, tensor<1x1x8x48xf32>) outs(%f1 : tensor<1x29x29x48xf32>) -> tensor<1x29x29x48xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x29x29x48xf32>) outs(%e1 : tensor<1x29x29x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x29x29x48xf32>
  %p = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x29x29x48xf32> to tensor<1x31x31x48xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %dw : tensor<1x31x31x48xf32>, tensor<3x3x48xf32>) outs(%f1 : tensor<1x29x29x48xf32>) -> tensor<1x29x29x48xf32>
  %e2 = tensor.empty() : tensor<1x29x29x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x29x29x8xf32>) -> tensor<1x29x29x8xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%d, %w2 : tensor<1x29x29x48xf32>, tensor<1x1x48x8xf32>) outs(%f2 : tensor<1x29x29x8xf32>) -> tensor<1x29x29x8xf32>
  %s = linalg.add ins(%c2, %x : tensor<1x29x29x8xf32>, tensor<1x29x29x8xf32>) outs(%e2 : tensor<1x29x29x8xf32>) -> tensor<1x29x29x8xf32>
  return %s : tensor<1x29x29x8xf32>
}
