// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @extract_strided
// CHECK: PASS @insert_into_fill
// CHECK: PASS @extract_compute_insert
// Covers: tensor.extract_slice with offsets and strides, tensor.insert_slice into a filled tensor and into an input-derived tensor.
module {
  func.func @extract_strided(%x: tensor<33x65xf32>) -> tensor<10x20xf32> {
    %r = tensor.extract_slice %x[3, 5] [10, 20] [3, 2] : tensor<33x65xf32> to tensor<10x20xf32>
    return %r : tensor<10x20xf32>
  }

  func.func @insert_into_fill(%x: tensor<7x9xf32>) -> tensor<17x33xf32> {
    %c = arith.constant 0.5 : f32
    %e = tensor.empty() : tensor<17x33xf32>
    %f = linalg.fill ins(%c : f32) outs(%e : tensor<17x33xf32>) -> tensor<17x33xf32>
    %r = tensor.insert_slice %x into %f[4, 11] [7, 9] [2, 1] : tensor<7x9xf32> into tensor<17x33xf32>
    return %r : tensor<17x33xf32>
  }

  func.func @extract_compute_insert(%x: tensor<4x17x33xf32>) -> tensor<4x17x33xf32> {
    %s = tensor.extract_slice %x[1, 2, 2] [2, 8, 16] [1, 1, 2] : tensor<4x17x33xf32> to tensor<2x8x16xf32>
    %e = tensor.empty() : tensor<2x8x16xf32>
    %t = linalg.map ins(%s : tensor<2x8x16xf32>) outs(%e : tensor<2x8x16xf32>)
      (%v: f32, %o: f32) {
        %c = arith.constant 3.0 : f32
        %m = arith.mulf %v, %c : f32
        linalg.yield %m : f32
      }
    %e2 = tensor.empty() : tensor<4x17x33xf32>
    %cp = linalg.copy ins(%x : tensor<4x17x33xf32>) outs(%e2 : tensor<4x17x33xf32>) -> tensor<4x17x33xf32>
    %r = tensor.insert_slice %t into %cp[2, 9, 0] [2, 8, 16] [1, 1, 2] : tensor<2x8x16xf32> into tensor<4x17x33xf32>
    return %r : tensor<4x17x33xf32>
  }
}
