// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @two_layers_one_empty
// Covers: pb-fuse-epilogues when the epilogue's output is an operand of the
// contraction before it. Both layers' results come from one tensor.empty,
// so bufferization writes the first layer's result into the out-parameter
// and the second layer reads it there (its A) while its bias and ReLU write
// the out-parameter again. Computed at the second matmul's tiles, the
// epilogue would overwrite rows of A that the next column tiles still read:
// the first layer's epilogue is fused, the second's stays a nest of its own.
// S3-LABEL: func.func @two_layers_one_empty
// S3:         pass = "pb-fuse-epilogues"
// S3-NOT:     pass = "pb-fuse-epilogues"
// S3:         return
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
module {
  func.func @two_layers_one_empty(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %b1: tensor<64xf32>,
                                  %w2: tensor<64x64xf32>, %b2: tensor<64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %m1 = linalg.matmul ins(%x, %w1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %y1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%m1, %b1 : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<64x64xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %m2 = linalg.matmul ins(%y1, %w2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %y2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%m2, %b2 : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<64x64xf32>
    return %y2 : tensor<64x64xf32>
  }
}
