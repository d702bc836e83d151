// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @matmul_chain
// Covers: pb-share-buffers against the reference lowering: four 64x64
// intermediate products (the fifth is written into the result), the first
// read again by the last op; the fourth takes the bytes of the second, dead
// once the third is computed: an arena of three, kept in a global between
// calls (pb-static-arenas).
// S3:         memref.global "private" @__pb_arena_matmul_chain : memref<49152xi8> = uninitialized {alignment = 64 : i64}
// S3:         memref.global "private" @__pb_arena_matmul_chain_taken : memref<1xi32> = dense<0>
// S3-LABEL: func.func @matmul_chain
// S3:         memref.atomic_rmw assign
// S3:         memref.get_global @__pb_arena_matmul_chain : memref<49152xi8>
// S3:         memref.alloc() {alignment = 64 : i64} : memref<49152xi8>
// S3:         memref.view %{{.*}}[%c0{{.*}}]
// S3:         memref.view %{{.*}}[%c16384{{.*}}]
// S3:         memref.view %{{.*}}[%c32768{{.*}}]
// S3:         memref.view %{{.*}}[%c16384{{.*}}]
// S3-NOT:     memref.alloc()
module {
  func.func @matmul_chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p1 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p2 = linalg.matmul ins(%p1, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p3 = linalg.matmul ins(%p2, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p4 = linalg.matmul ins(%p3, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p5 = linalg.matmul ins(%p4, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    %sum = linalg.add ins(%p5, %p1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %sum : tensor<64x64xf32>
  }
}
