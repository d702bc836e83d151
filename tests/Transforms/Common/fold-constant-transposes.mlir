// RUN: pb-opt %s -split-input-file -pb-fold-constant-transposes | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-fold-constant-transposes=max-bytes=16 | FileCheck %s --check-prefix=BUDGET

// Dense elements are transposed element by element.
// CHECK-LABEL: func @dense
// CHECK:         %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[C]]
// BUDGET-LABEL: func @dense
// BUDGET:         linalg.transpose
func.func @dense() -> tensor<3x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// -----

// A 3-D permutation of 16-bit integers.
// CHECK-LABEL: func @dense_3d
// CHECK:         arith.constant dense<{{\[}}{{\[}}[0, 4], [2, 6]], {{\[}}[1, 5], [3, 7]]]> : tensor<2x2x2xi16>
func.func @dense_3d() -> tensor<2x2x2xi16> {
  %w = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi16>
  %e = tensor.empty() : tensor<2x2x2xi16>
  %t = linalg.transpose ins(%w : tensor<2x2x2xi16>) outs(%e : tensor<2x2x2xi16>) permutation = [2, 1, 0]
  return %t : tensor<2x2x2xi16>
}

// -----

// Splats fold to splats whatever their size.
// CHECK-LABEL: func @splat
// CHECK:         arith.constant dense<2.500000e+00> : tensor<64x32xf32>
// CHECK-NOT:     linalg.transpose
// BUDGET-LABEL: func @splat
// BUDGET-NOT:    linalg.transpose
func.func @splat() -> tensor<64x32xf32> {
  %w = arith.constant dense<2.5> : tensor<32x64xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  return %t : tensor<64x32xf32>
}

// -----

// A resource blob becomes a new blob; little-endian f32 1, 2, 3, 4 as 2x2.
// CHECK-LABEL: func @resource
// CHECK:         arith.constant dense_resource<w_transposed> : tensor<2x2xf32>
// CHECK:       w_transposed: "0x{{[0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F]}}0000803F000040400000004000008040"
func.func @resource() -> tensor<2x2xf32> {
  %w = arith.constant dense_resource<w> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Transposes of values computed at run time stay.
// CHECK-LABEL: func @not_constant
// BUDGET-LABEL: func @not_constant
// CHECK:         linalg.transpose
func.func @not_constant(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// -----

// A depthwise filter arrives as a reshape of a Cx1xKHxKW constant: its bytes
// are the constant's, transposed in the reshape's shape.
// CHECK-LABEL: func @through_collapse
// CHECK:         %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[C]]
func.func @through_collapse() -> tensor<2x2xf32> {
  %w = arith.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %c = tensor.collapse_shape %w [[0, 1], [2]] : tensor<2x1x2xf32> into tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}
