// The error for an op of an unknown dialect must not tell the user to pass
// -allow-unregistered-dialect: pbtool has no such flag (it is rejected as a
// bad command line).
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o 2>&1 | FileCheck %s

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: input-unknown-dialect-hint.mlir:[[@LINE+1]]:17: error:
  %r = "foo.bar"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-NOT: allow-unregistered-dialect
// CHECK: exit code: 1
