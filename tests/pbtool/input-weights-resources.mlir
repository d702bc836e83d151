// Weights as torch-mlir and jaxlib write them: the builtin dialect's
// resources, hex strings in the section that ends the text. pbtool decodes
// that section itself (decodeBuiltinResources) and the parser reads the IR
// before it; a section in another form (here with a quoted key) goes to
// the parser whole. The program computes the same either way.
// RUN: %pbtool run %s '--input=2x4xf32=1' | FileCheck %s
// RUN: sed 's|^      torch_tensor_2_torch.float32:|      "torch_tensor_2_torch.float32":|' %s > %t.mlir
// RUN: grep -q '"torch_tensor_2_torch.float32":' %t.mlir
// RUN: %pbtool run %t.mlir '--input=2x4xf32=1' | FileCheck %s

// x . w + b with w = [[1, 2], [2, 4], [3, 6], [4, 8]], b = [0.5, -1]:
// CHECK: result0: 2x2xf32={{\[\[}}10.5 19]
func.func @dense(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense_resource<torch_tensor_4_2_torch.float32> : tensor<4x2xf32>
  %b = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %bias = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<2x2xf32>) dimensions = [0]
  %r = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%bias : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_2_torch.float32: "0x040000000000803F000000400000004000008040000040400000C0400000804000000041",
      torch_tensor_2_torch.float32: "0x040000000000003F000080BF"
    }
  }
#-}
