// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @conv_from_fill
// CHECK: PASS @matmul_from_fill
// Covers: pb-register-tile-contraction starting its accumulators from the
// value a fill put into the result (not zero here, so a wrong start shows),
// the fill's nest removed: a convolution with a ReLU after it, and a matmul
// whose 30 rows leave a smaller tile after the whole ones.
// S3-LABEL: func.func @conv_from_fill
// S3:         fill_folded = true
// S3-LABEL: func.func @matmul_from_fill
// S3:         fill_folded = true
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @conv_from_fill(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x8x32xf32>) -> tensor<2x8x8x32xf32> {
    %v = arith.constant 0.75 : f32
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x8x8x32xf32>
    %c = linalg.fill ins(%v : f32) outs(%e : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
    %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : tensor<2x10x10x8xf32>, tensor<3x3x8x32xf32>) outs(%c : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%conv : tensor<2x8x8x32xf32>) outs(%e : tensor<2x8x8x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    } -> tensor<2x8x8x32xf32>
    return %r : tensor<2x8x8x32xf32>
  }

  func.func @matmul_from_fill(%x: tensor<30x64xf32>, %w: tensor<64x48xf32>) -> tensor<30x48xf32> {
    %v = arith.constant -0.5 : f32
    %e = tensor.empty() : tensor<30x48xf32>
    %c = linalg.fill ins(%v : f32) outs(%e : tensor<30x48xf32>) -> tensor<30x48xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<30x64xf32>, tensor<64x48xf32>) outs(%c : tensor<30x48xf32>) -> tensor<30x48xf32>
    return %mm : tensor<30x48xf32>
  }
}
