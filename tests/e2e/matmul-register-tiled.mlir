// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --no-parallel --function=matmul_many_panels | FileCheck %s --check-prefix=SEQ
// CHECK: PASS @matmul_two_k_blocks
// CHECK: PASS @matmul_f64_one_k_block
// CHECK: PASS @matmul_bias_relu_tiled
// CHECK: PASS @matmul_rows_left_over
// CHECK: PASS @matmul_packed_rows
// CHECK: PASS @matmul_many_panels
// SEQ: PASS @matmul_many_panels
// Covers: matmuls that take the register-tiled micro-kernel (N a multiple of the vector tile): several k blocks, f64, an epilogue after the tiled nest (64 rows: ten 6-row tiles and one of the 4 rows left), and 13 rows (two 5-row tiles and one of 3); a row factor whose k block (2054 x 256 to 512 f32, 2.1 to 4.2 MB) outgrows any L2 and that 4 or 8 column tiles read, packed into slivers per k block, with rows left over read in place; run on one thread, 64-128 column panels x 4 k blocks, each packed into a stack buffer that pb-hoist-stack-buffers allocates once (left in the loop, 16 MiB of stack in all).
func.func @matmul_two_k_blocks(%a: tensor<16x1024xf32>, %b: tensor<1024x48xf32>) -> tensor<16x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x48xf32>) -> tensor<16x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x48xf32>) outs(%f : tensor<16x48xf32>) -> tensor<16x48xf32>
  return %r : tensor<16x48xf32>
}

func.func @matmul_f64_one_k_block(%a: tensor<12x40xf64>, %b: tensor<40x32xf64>) -> tensor<12x32xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<12x32xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<12x32xf64>) -> tensor<12x32xf64>
  %r = linalg.matmul ins(%a, %b : tensor<12x40xf64>, tensor<40x32xf64>) outs(%f : tensor<12x32xf64>) -> tensor<12x32xf64>
  return %r : tensor<12x32xf64>
}

func.func @matmul_bias_relu_tiled(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @matmul_rows_left_over(%a: tensor<13x96xf32>, %b: tensor<96x32xf32>) -> tensor<13x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<13x32xf32>) -> tensor<13x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<13x96xf32>, tensor<96x32xf32>) outs(%f : tensor<13x32xf32>) -> tensor<13x32xf32>
  return %r : tensor<13x32xf32>
}

func.func @matmul_packed_rows(%a: tensor<2054x1024xf32>, %b: tensor<1024x128xf32>) -> tensor<2054x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2054x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2054x128xf32>) -> tensor<2054x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2054x1024xf32>, tensor<1024x128xf32>) outs(%f : tensor<2054x128xf32>) -> tensor<2054x128xf32>
  return %r : tensor<2054x128xf32>
}

func.func @matmul_many_panels(%a: tensor<20x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<20x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<20x2048xf32>) -> tensor<20x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<20x2048xf32>, tensor<2048x2048xf32>) outs(%f : tensor<20x2048xf32>) -> tensor<20x2048xf32>
  return %r : tensor<20x2048xf32>
}
