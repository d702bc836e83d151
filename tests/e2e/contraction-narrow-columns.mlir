// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @matmul_n40
// CHECK: PASS @pointwise_conv_n24
// CHECK: PASS @matmul_n12_f64
// Covers: pb-register-tile-contraction with column counts no multiple of a
// full tile (40, 24, 12 columns: tiles of 8 or 4 columns in narrower
// vectors) against the reference lowering, on the host's vectors and on
// AVX2's.
// S3-LABEL: func.func @matmul_n40
// S3:         vector.fma
// S3:         pass = "pb-register-tile-contraction"
// S3-LABEL: func.func @pointwise_conv_n24
// S3:         pass = "pb-register-tile-contraction"
// S3-LABEL: func.func @matmul_n12_f64
// S3:         pass = "pb-register-tile-contraction"
func.func @matmul_n40(%a: tensor<200x256xf32>, %b: tensor<256x40xf32>) -> tensor<200x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<200x40xf32>) -> tensor<200x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x256xf32>, tensor<256x40xf32>) outs(%init : tensor<200x40xf32>) -> tensor<200x40xf32>
  return %r : tensor<200x40xf32>
}

func.func @pointwise_conv_n24(%in: tensor<1x14x14x144xf32>, %f: tensor<1x1x144x24xf32>) -> tensor<1x14x14x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x24xf32>) -> tensor<1x14x14x24xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x14x14x144xf32>, tensor<1x1x144x24xf32>) outs(%init : tensor<1x14x14x24xf32>) -> tensor<1x14x14x24xf32>
  return %r : tensor<1x14x14x24xf32>
}

func.func @matmul_n12_f64(%a: tensor<30x64xf64>, %b: tensor<64x12xf64>) -> tensor<30x12xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<30x12xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<30x12xf64>) -> tensor<30x12xf64>
  %r = linalg.matmul ins(%a, %b : tensor<30x64xf64>, tensor<64x12xf64>) outs(%init : tensor<30x12xf64>) -> tensor<30x12xf64>
  return %r : tensor<30x12xf64>
}
