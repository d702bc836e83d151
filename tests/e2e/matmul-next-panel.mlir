// RUN: %pbtool crosscheck %s --l2-cache-kib=256 | FileCheck %s
// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 --l2-cache-kib=256 -o - | FileCheck %s --check-prefix=IR
// CHECK: PASS @matmul_argument_weights
// CHECK: PASS @matmul_three_vector_columns
// CHECK: PASS @matmul_f64_argument_weights
// IR-LABEL: func.func @matmul_argument_weights
// IR: affine.prefetch
// IR-LABEL: func.func @matmul_three_vector_columns
// IR: affine.prefetch
// IR-LABEL: func.func @matmul_f64_argument_weights
// IR: affine.prefetch
// Covers: matmuls by arguments with few rows whose column factor outgrows L2 (a 256 KiB one, and the host's): k blocks as long as half of L2 holds the panel and the row factor's block, the first register tile of each column tile prefetching the next column tile's panel rows (the last one's wrapping to the first); a bias and ReLU on the tiles; a tile of three vectors (144 columns: 48 per tile on AVX-512, the line offsets past a vector's end); f64 (half the elements per line).
func.func @matmul_argument_weights(%a: tensor<40x768xf32>, %b: tensor<768x320xf32>, %bias: tensor<320xf32>) -> tensor<40x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x320xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x320xf32>) -> tensor<40x320xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40x768xf32>, tensor<768x320xf32>) outs(%f : tensor<40x320xf32>) -> tensor<40x320xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<40x320xf32>, tensor<320xf32>) outs(%e : tensor<40x320xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<40x320xf32>
  return %o : tensor<40x320xf32>
}

func.func @matmul_three_vector_columns(%a: tensor<30x512xf32>, %b: tensor<512x144xf32>) -> tensor<30x144xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<30x144xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<30x144xf32>) -> tensor<30x144xf32>
  %r = linalg.matmul ins(%a, %b : tensor<30x512xf32>, tensor<512x144xf32>) outs(%f : tensor<30x144xf32>) -> tensor<30x144xf32>
  return %r : tensor<30x144xf32>
}

func.func @matmul_f64_argument_weights(%a: tensor<20x384xf64>, %b: tensor<384x192xf64>) -> tensor<20x192xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<20x192xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<20x192xf64>) -> tensor<20x192xf64>
  %r = linalg.matmul ins(%a, %b : tensor<20x384xf64>, tensor<384x192xf64>) outs(%f : tensor<20x192xf64>) -> tensor<20x192xf64>
  return %r : tensor<20x192xf64>
}
