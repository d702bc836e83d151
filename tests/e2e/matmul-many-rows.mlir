// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --l2-cache-kib=64 | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --l2-cache-kib=64 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @matmul_many_rows
// Covers: a matmul of 520 rows by weights passed as an argument: with a 64
// KiB L2 (32 KiB row blocks of 256-byte rows) it takes several row blocks,
// so pb-register-tile-contraction packs all the panels before the nest and
// takes the rows in blocks, the rows left over after the whole tiles with
// the last block; checked against the reference lowering.
// S3-LABEL: func.func @matmul_many_rows
// S3: affine.if
// S3: k_block = 64 : i64
// S3-SAME: packed_at_compile_time = false
module {
  func.func @matmul_many_rows(%x: tensor<520x64xf32>, %w: tensor<64x48xf32>) -> tensor<520x48xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<520x48xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<520x48xf32>) -> tensor<520x48xf32>
    %y = linalg.matmul ins(%x, %w : tensor<520x64xf32>, tensor<64x48xf32>) outs(%f : tensor<520x48xf32>) -> tensor<520x48xf32>
    return %y : tensor<520x48xf32>
  }
}
