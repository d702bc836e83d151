// A 64x32 by 32x48 matmul and a bias added to its result: 2 x 64 x 48 x 32
// + 64 x 48 = 199680 arithmetic operations per call.
func.func @matmul_bias(%x: tensor<64x32xf32>, %w: tensor<32x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.add ins(%m, %b : tensor<64x48xf32>, tensor<64x48xf32>) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// The same sum, one row at a time in a loop: how many times the loop's
// linalg op runs is not counted, so no arithmetic is reported.
func.func @rows_in_a_loop(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x8xf32>) {
    %a = tensor.extract_slice %acc[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %b = tensor.extract_slice %y[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %n = tensor.insert_slice %s into %acc[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
    scf.yield %n : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
