// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// RUN: %pbtool compile %s --compile-to=s3 --cpu=x86-64-v3 -o - | FileCheck %s --check-prefixes=S3,V3
// CHECK: PASS @dw_columns_left_over
// CHECK: PASS @dw_stride2_pad
// CHECK: PASS @dw_dilated
// CHECK: PASS @dw_f64
// CHECK: PASS @dw_shift_relu6
// CHECK: PASS @dw1d_leftover_relu6
// Covers: pb-register-tile-depthwise against the reference lowering (on
// the host's vectors and on AVX2's): a width no tile divides (a last tile
// of the columns left over), stride 2 after a pad, dilation 2, f64; and
// MobileNet's shift and ReLU6 after it, computed on the tiles
// (pb-fuse-epilogues), also with a column left over (1-D, 7 columns: tiles
// of at most 6 on AVX2, hence the runs on x86-64-v3 whatever the host);
// every nest's channels are a multiple of the vector width.
// S3-LABEL: func.func @dw_columns_left_over
// S3:         vector.fma
// S3:         pass = "pb-register-tile-depthwise"
// S3-LABEL: func.func @dw_stride2_pad
// S3:         pass = "pb-register-tile-depthwise"
// S3-LABEL: func.func @dw_dilated
// S3:         pass = "pb-register-tile-depthwise"
// S3-LABEL: func.func @dw_f64
// S3:         vector.fma {{.*}} : vector<{{[0-9]+}}xf64>
// S3:         pass = "pb-register-tile-depthwise"
// S3-LABEL: func.func @dw_shift_relu6
// S3:         vector.fma
// S3:         arith.minimumf {{.*}} : vector<
// S3:         pass = "pb-register-tile-depthwise"{{.*}}pass = "pb-fuse-epilogues"
// V3-LABEL: func.func @dw1d_leftover_relu6
// V3:         affine.for %{{.*}} = 0 to 6 step 6 {
// V3:         affine.vector_store %{{.*}}[%{{.*}}, 6, %{{.*}}]
// V3:         pass = "pb-register-tile-depthwise"{{.*}}pass = "pb-fuse-epilogues"
func.func @dw_columns_left_over(%in: tensor<1x10x19x32xf32>, %f: tensor<3x3x32xf32>) -> tensor<1x8x17x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x17x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x17x32xf32>) -> tensor<1x8x17x32xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x10x19x32xf32>, tensor<3x3x32xf32>) outs(%init : tensor<1x8x17x32xf32>) -> tensor<1x8x17x32xf32>
  return %r : tensor<1x8x17x32xf32>
}

func.func @dw_stride2_pad(%in: tensor<2x14x14x48xf32>, %f: tensor<3x3x48xf32>) -> tensor<2x7x7x48xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x14x14x48xf32> to tensor<2x16x16x48xf32>
  %e = tensor.empty() : tensor<2x7x7x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x48xf32>) -> tensor<2x7x7x48xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %f : tensor<2x16x16x48xf32>, tensor<3x3x48xf32>) outs(%init : tensor<2x7x7x48xf32>) -> tensor<2x7x7x48xf32>
  return %r : tensor<2x7x7x48xf32>
}

func.func @dw_dilated(%in: tensor<1x12x26x16xf32>, %f: tensor<3x3x16xf32>) -> tensor<1x8x22x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x22x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x22x16xf32>) -> tensor<1x8x22x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x12x26x16xf32>, tensor<3x3x16xf32>) outs(%init : tensor<1x8x22x16xf32>) -> tensor<1x8x22x16xf32>
  return %r : tensor<1x8x22x16xf32>
}

func.func @dw_f64(%in: tensor<1x6x9x16xf64>, %f: tensor<3x3x16xf64>) -> tensor<1x4x7x16xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x4x7x16xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<1x4x7x16xf64>) -> tensor<1x4x7x16xf64>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x6x9x16xf64>, tensor<3x3x16xf64>) outs(%init : tensor<1x4x7x16xf64>) -> tensor<1x4x7x16xf64>
  return %r : tensor<1x4x7x16xf64>
}

func.func @dw_shift_relu6(%in: tensor<1x10x19x32xf32>, %f: tensor<3x3x32xf32>, %shift: tensor<32xf32>) -> tensor<1x8x17x32xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x8x17x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x17x32xf32>) -> tensor<1x8x17x32xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x10x19x32xf32>, tensor<3x3x32xf32>) outs(%init : tensor<1x8x17x32xf32>) -> tensor<1x8x17x32xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %shift : tensor<1x8x17x32xf32>, tensor<32xf32>) outs(%e : tensor<1x8x17x32xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x8x17x32xf32>
  return %act : tensor<1x8x17x32xf32>
}

func.func @dw1d_leftover_relu6(%in: tensor<1x9x16xf32>, %f: tensor<3x16xf32>) -> tensor<1x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x7x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x16xf32>) -> tensor<1x7x16xf32>
  %r = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%in, %f : tensor<1x9x16xf32>, tensor<3x16xf32>) outs(%init : tensor<1x7x16xf32>) -> tensor<1x7x16xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(n, w, c) -> (n, w, c)>, affine_map<(n, w, c) -> (n, w, c)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x7x16xf32>) outs(%e : tensor<1x7x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %lo = arith.maximumf %x, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x7x16xf32>
  return %act : tensor<1x7x16xf32>
}
