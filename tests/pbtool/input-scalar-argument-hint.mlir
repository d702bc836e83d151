// The error for a scalar argument suggests the tensor type to use instead,
// spelled as MLIR: tensor<f32>.
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o 2>&1 | FileCheck %s

// CHECK: input-scalar-argument-hint.mlir:[[@LINE+1]]:14: error: {{.*}} (use tensor<f32> for a scalar)
func.func @f(%a: f32) -> tensor<f32> {
  %t = tensor.from_elements %a : tensor<f32>
  return %t : tensor<f32>
}
// CHECK: exit code: 1
