// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @matvec
// CHECK: PASS @matvec_odd_columns
// CHECK: PASS @vecmat_bias
// Covers: matrix-vector products streamed by pb-stream-skinny-contraction
// (column blocks, accumulation in a block buffer), with a column count that
// only small blocks divide, and one followed by a bias (fused elementwise
// epilogue nest after it).
// S3-LABEL: func.func @matvec(
// S3:         memref.alloc() {{.*}} : memref<1x{{[0-9]+}}xf32>
module {
  func.func @matvec(%a: tensor<1x300xf32>, %b: tensor<300x2048xf32>) -> tensor<1x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x2048xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2048xf32>) -> tensor<1x2048xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x300xf32>, tensor<300x2048xf32>) outs(%f : tensor<1x2048xf32>) -> tensor<1x2048xf32>
    return %r : tensor<1x2048xf32>
  }
  func.func @matvec_odd_columns(%a: tensor<1x77xf32>, %b: tensor<77x1000xf32>) -> tensor<1x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1000xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x77xf32>, tensor<77x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    return %r : tensor<1x1000xf32>
  }
  func.func @vecmat_bias(%a: tensor<1x512xf32>, %b: tensor<512x1024xf32>, %bias: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1024xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %s = linalg.add ins(%r, %bias : tensor<1x1024xf32>, tensor<1x1024xf32>) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    return %s : tensor<1x1024xf32>
  }
}
