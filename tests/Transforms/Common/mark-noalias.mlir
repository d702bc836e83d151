// RUN: pb-opt %s -pb-mark-noalias | FileCheck %s

// Every memref argument of a public function is marked llvm.noalias;
// private functions keep their arguments as they are.
// CHECK-LABEL: func @entry_point
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<4xf32> {llvm.noalias}
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<4xf32> {llvm.noalias}
func.func @entry_point(%a: memref<4xf32>, %out: memref<4xf32>) -> i32 {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// CHECK-LABEL: func private @helper
// CHECK-NOT:     llvm.noalias
func.func private @helper(%a: memref<4xf32>) {
  return
}
