// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %if host-x86-64-v4 %{ %pbtool crosscheck %s --cpu=x86-64-v4 --threads=2 | FileCheck %s %}
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 --threads=2 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// RUN: %pbtool compile %s --cpu=x86-64-v3 --threads=2 --compile-to=s3 -o - | FileCheck %s --check-prefix=AVX2
// RUN: %pbtool compile %s --cpu=x86-64-v4 --threads=2 --compile-to=s3 -o - | FileCheck %s --check-prefix=AVX512
// CHECK: PASS @matvec
// CHECK: PASS @matvec_odd_columns
// CHECK: PASS @classifier_bias
// CHECK: PASS @vecmat_bias
// CHECK: PASS @eight_rows
// CHECK: PASS @three_rows_odd_reduction
// CHECK: PASS @eight_rows_f64
// CHECK: PASS @eight_rows_ten_columns_bias_relu
// CHECK: PASS @one_row_27_columns
// Covers: matmuls with few rows streamed by pb-stream-skinny-contraction
// (column blocks, accumulation in registers across a few rows of the
// right-hand side, then in a block buffer): matrix-vector products with a
// column count that only small blocks divide (1000: on 2 threads, two
// blocks, the last narrower), one followed by a bias (fused elementwise
// epilogue nest after it), 8 rows, 3 rows with a reduction of
// 97 (a prime: one row of the right-hand side per register block), 8 rows
// in f64; fewer columns than a vector per thread and no multiple of the
// vector (a classifier's 10, then a bias and ReLU; 27): one block, the
// columns past the last whole vector in narrower vectors (AVX-512: 10 =
// 8 + 2, 27 = 16 + 8 + 2 + 1).
// The bias (and the ReLU) computed where each block is stored back, as
// vectors of the same widths: no nest of their own reads the product.
// A classifier's 1000 columns on 2 threads: two blocks, 504 and 496
// columns (no divisor of 1000 in whole vectors of 8 gives an even count),
// one per thread, the bias added where each is stored.
// AVX2-LABEL: func.func @classifier_bias(
// AVX2:         affine.parallel (%[[BLK:.*]]) = (0) to (2) {
// AVX2-NEXT:      memref.alloc() {{.*}} : memref<1x504xf32>
// AVX2:           affine.for %{{.*}} = #{{.*}}(%[[BLK]]) to min #{{.*}}(%[[BLK]]) step 8 {
// AVX2:             vector.fma
// AVX2:           affine.for %{{.*}} = 0 to min #{{.*}}(%[[BLK]]) step 8 {
// AVX2:             arith.addf {{.*}} : vector<8xf32>
// AVX2-NEXT:        affine.vector_store {{.*}} : memref<1x1000xf32>, vector<8xf32>
// AVX2:         block_columns = 504
// AVX2-SAME:    2 blocks of 504 columns (the last 496)
// AVX2-SAME:    pass = "pb-fuse-epilogues"
// AVX2-NOT:     affine.for
// AVX2:         return
// AVX512-LABEL: func.func @vecmat_bias(
// AVX512:         vector.fma
// AVX512:         affine.for %{{.*}} = 0 to 512 step 16 {
// AVX512-NEXT:      affine.vector_load
// AVX512-NEXT:      affine.vector_load %arg2
// AVX512-NEXT:      arith.addf {{.*}} : vector<16xf32>
// AVX512-NEXT:      affine.vector_store %{{.*}}, %arg3
// AVX512:         stores_once = true
// AVX512-SAME:    pass = "pb-fuse-epilogues"
// AVX512-NOT:     affine.for
// AVX512:         return
// AVX512-LABEL: func.func @eight_rows_ten_columns_bias_relu(
// AVX512-COUNT-8: vector.fma {{.*}} : vector<8xf32>
// AVX512-COUNT-8: vector.fma {{.*}} : vector<2xf32>
// AVX512:         arith.maximumf {{.*}} : vector<8xf32>
// AVX512:         arith.maximumf {{.*}} : vector<2xf32>
// AVX512:         block_columns = 10
// AVX512-SAME:    pass = "pb-fuse-epilogues"
// AVX512-NOT:     affine.for
// AVX512:         return
// AVX512-LABEL: func.func @one_row_27_columns(
// AVX512:         vector.fma {{.*}} : vector<16xf32>
// AVX512:         vector.fma {{.*}} : vector<8xf32>
// AVX512:         vector.fma {{.*}} : vector<2xf32>
// AVX512:         vector.fma {{.*}} : vector<1xf32>
// AVX512:         block_columns = 27
// S3-LABEL: func.func @matvec(
// S3:         memref.alloc() {{.*}} : memref<1x{{[0-9]+}}xf32>
// S3-LABEL: func.func @eight_rows(
// S3:         memref.alloc() {{.*}} : memref<8x{{[0-9]+}}xf32>
// S3-COUNT-8: vector.fma
// S3-NOT:     vector.fma
// S3:         return
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
  func.func @classifier_bias(%a: tensor<1x256xf32>, %b: tensor<256x1000xf32>, %bias: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1000xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x256xf32>, tensor<256x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    %s = linalg.add ins(%r, %bias : tensor<1x1000xf32>, tensor<1x1000xf32>) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    return %s : tensor<1x1000xf32>
  }
  func.func @vecmat_bias(%a: tensor<1x512xf32>, %b: tensor<512x1024xf32>, %bias: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1024xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %s = linalg.add ins(%r, %bias : tensor<1x1024xf32>, tensor<1x1024xf32>) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    return %s : tensor<1x1024xf32>
  }
  func.func @eight_rows(%a: tensor<8x256xf32>, %b: tensor<256x512xf32>) -> tensor<8x512xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x512xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
    %r = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x512xf32>) outs(%f : tensor<8x512xf32>) -> tensor<8x512xf32>
    return %r : tensor<8x512xf32>
  }
  func.func @three_rows_odd_reduction(%a: tensor<3x97xf32>, %b: tensor<97x384xf32>) -> tensor<3x384xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<3x384xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x384xf32>) -> tensor<3x384xf32>
    %r = linalg.matmul ins(%a, %b : tensor<3x97xf32>, tensor<97x384xf32>) outs(%f : tensor<3x384xf32>) -> tensor<3x384xf32>
    return %r : tensor<3x384xf32>
  }
  func.func @eight_rows_f64(%a: tensor<8x64xf64>, %b: tensor<64x256xf64>) -> tensor<8x256xf64> {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<8x256xf64>
    %f = linalg.fill ins(%zero : f64) outs(%e : tensor<8x256xf64>) -> tensor<8x256xf64>
    %r = linalg.matmul ins(%a, %b : tensor<8x64xf64>, tensor<64x256xf64>) outs(%f : tensor<8x256xf64>) -> tensor<8x256xf64>
    return %r : tensor<8x256xf64>
  }
  func.func @eight_rows_ten_columns_bias_relu(%a: tensor<8x256xf32>, %b: tensor<256x10xf32>, %bias: tensor<10xf32>) -> tensor<8x10xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x10xf32>) -> tensor<8x10xf32>
    %r = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x10xf32>) outs(%f : tensor<8x10xf32>) -> tensor<8x10xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<8x10xf32>, tensor<10xf32>) outs(%e : tensor<8x10xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %t = arith.addf %v, %c : f32
      %m = arith.maximumf %t, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x10xf32>
    return %s : tensor<8x10xf32>
  }
  func.func @one_row_27_columns(%a: tensor<1x100xf32>, %b: tensor<100x27xf32>) -> tensor<1x27xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x27xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x27xf32>) -> tensor<1x27xf32>
    %r = linalg.matmul ins(%a, %b : tensor<1x100xf32>, tensor<100x27xf32>) outs(%f : tensor<1x27xf32>) -> tensor<1x27xf32>
    return %r : tensor<1x27xf32>
  }
}
