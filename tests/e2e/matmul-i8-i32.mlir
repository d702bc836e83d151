// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @matmul_i8_extsi_generic
// CHECK: PASS @matmul_i8_named
// Covers: i8 x i8 matmul accumulating in i32: a linalg.generic with explicit arith.extsi, and linalg.matmul with i8 inputs / i32 output.
module {
  func.func @matmul_i8_extsi_generic(%a: tensor<33x65xi8>, %b: tensor<65x17xi8>) -> tensor<33x17xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<33x17xi32>
    %c = linalg.fill ins(%zero : i32) outs(%e : tensor<33x17xi32>) -> tensor<33x17xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<33x65xi8>, tensor<65x17xi8>) outs(%c : tensor<33x17xi32>) {
    ^bb0(%x: i8, %y: i8, %acc: i32):
      %xe = arith.extsi %x : i8 to i32
      %ye = arith.extsi %y : i8 to i32
      %p = arith.muli %xe, %ye : i32
      %s = arith.addi %acc, %p : i32
      linalg.yield %s : i32
    } -> tensor<33x17xi32>
    return %r : tensor<33x17xi32>
  }

  func.func @matmul_i8_named(%a: tensor<17x64xi8>, %b: tensor<64x33xi8>) -> tensor<17x33xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<17x33xi32>
    %c = linalg.fill ins(%zero : i32) outs(%e : tensor<17x33xi32>) -> tensor<17x33xi32>
    %r = linalg.matmul ins(%a, %b : tensor<17x64xi8>, tensor<64x33xi8>) outs(%c : tensor<17x33xi32>) -> tensor<17x33xi32>
    return %r : tensor<17x33xi32>
  }
}
