// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-lower-gpu-host | FileCheck %s

// The binary becomes a constant byte array next to a null module slot; the
// entry point takes the stream last; the intermediate buffer is allocated
// and freed on the stream; the launch passes the addresses of its
// arguments; the status threads through the calls into the return.
// CHECK-DAG:   llvm.mlir.global internal constant @__pb_gpu_image_pb_kernels("CUBIN") {addr_space = 0 : i32, alignment = 16 : i64}
// CHECK-DAG:   llvm.mlir.global internal @__pb_gpu_module_pb_kernels() {{.*}} : !llvm.ptr
// CHECK-DAG:   llvm.mlir.global internal @__pb_gpu_function_f_kernel() {{.*}} : !llvm.ptr
// CHECK-DAG:   llvm.mlir.global internal constant @__pb_gpu_name_f_kernel("f_kernel\00")
// CHECK-LABEL: func.func @f
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>, %[[STREAM:.*]]: !llvm.ptr) -> i32
// CHECK-DAG:     %[[OK:.*]] = arith.constant 0 : i32
// CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK:         %[[S1:.*]] = llvm.call @pbrtAlloc(%[[OK]], %{{.*}}, %[[SLOT]], %{{.*}}, %[[STREAM]])
// CHECK:         %[[TMP:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[AINT:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:         llvm.store %[[TMP]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:         %[[S2:.*]] = llvm.call @pbrtLaunch(%[[S1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STREAM]], %{{.*}})
// CHECK:         %[[S3:.*]] = llvm.call @pbrtLaunch(%[[S2]],
// CHECK:         llvm.call @pbrtFree(%{{.*}}, %[[TMP]], %[[STREAM]])
// CHECK:         return %[[S3]] : i32
// CHECK-NOT:   gpu.binary
// CHECK-DAG:   llvm.func @pbrtLaunch(i32, i32, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @pbrtAlloc(i32, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @pbrtFree(i32, !llvm.ptr, !llvm.ptr)
module attributes {gpu.container_module} {
  gpu.binary @pb_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "CUBIN">]
  func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tmp = memref.alloc() : memref<4xf32>
    gpu.launch_func @pb_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<4xf32>, %tmp : memref<4xf32>)
    gpu.launch_func @pb_kernels::@f_kernel_0 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%tmp : memref<4xf32>, %b : memref<4xf32>)
    memref.dealloc %tmp : memref<4xf32>
    return %c0_i32 : i32
  }
}

// -----

// Host code may only allocate and launch.
module attributes {gpu.container_module} {
  func.func @g(%a: memref<4xf32>) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    // expected-error@+1 {{'memref.store' op cannot run on the host for a GPU target: only allocations, launches and pure operations may remain outside kernels}}
    memref.store %zero, %a[%c0] : memref<4xf32>
    return %c0_i32 : i32
  }
}
