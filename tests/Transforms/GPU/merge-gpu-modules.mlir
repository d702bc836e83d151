// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-merge-gpu-modules | FileCheck %s

// Outlining gave both kernels of @f the name @f_kernel, in modules of
// distinct names: one module remains, the second kernel takes its module's
// name, the constant both copied is kept once, and the launches follow.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         func.func @f
// CHECK:           gpu.launch_func @pb_kernels::@f_kernel blocks
// CHECK:           gpu.launch_func @pb_kernels::@f_kernel_0 blocks
// CHECK:         gpu.module @pb_kernels {
// CHECK-COUNT-1:   memref.global "private" constant @table
// CHECK-DAG:       gpu.func @f_kernel(
// CHECK-DAG:       gpu.func @f_kernel_0(
// CHECK:         }
// CHECK-NOT:     gpu.module
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    memref.global "private" constant @table : memref<4xf32> = dense<1.0>
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %t = memref.get_global @table : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    memref.global "private" constant @table : memref<4xf32> = dense<1.0>
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %t = memref.get_global @table : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Two different globals of one name cannot be merged.
module attributes {gpu.container_module} {
  gpu.module @k0 {
    memref.global "private" constant @table : memref<4xf32> = dense<1.0>
  }
  gpu.module @k1 {
    // expected-error@+1 {{'memref.global' op has the same name as a symbol of @pb_kernels; cannot merge}}
    memref.global "private" constant @table : memref<4xf32> = dense<2.0>
  }
}
