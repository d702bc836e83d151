// A constant tensor (a weight) becomes one flat LLVM array of its bytes, not
// an array of rows (one LLVM constant per row made compiling ResNet-50 take
// a minute and 4 GB) nor of floats (written out one by one); the program
// still computes with it in its shape. The weight as
// written is gone: only its packed panels remain (20 rows: too many to
// stream, the register-tiled nest packs it at compile time).
// RUN: %pbtool compile %s --compile-to=s5 -o - | FileCheck %s --implicit-check-not='@__constant_8x24xf32('
// RUN: %pbtool run %s '--input=20x8xf32=1' | FileCheck %s --check-prefix=RESULT

// CHECK: llvm.mlir.global private constant @__constant_8x24xf32_packed(dense<"0x{{[0-9A-F]+}}"> : tensor<768xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<768 x i8>
// The column sums of the weight, (sum over i of (24 i + j) mod 7):
// RESULT: result0: 20x24xf32={{\[\[}}21 22 23 24 25 26 27 21 22 23 24 25 26 27 21 22 23 24 25 26 27 21 22 23]
func.func @times_weight(%x: tensor<20x8xf32>) -> tensor<20x24xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0], [2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0]]> : tensor<8x24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = linalg.matmul ins(%x, %w : tensor<20x8xf32>, tensor<8x24xf32>) outs(%z : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}
