// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pb-reference-pipeline | FileCheck %s
// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(pb-reference-pipeline{fuse=true})' | FileCheck %s
// RUN: %pb-opt %s -split-input-file -verify-diagnostics --pb-reference-pipeline | FileCheck %s --check-prefix=PLAIN

// Tests for pb-reference-pipeline, the unoptimized lowering that optimized
// code is checked against: S1, then linalg straight to loops, then LLVM. It
// produces only the llvm dialect, with no OpenMP (even with `parallelize`),
// no affine code, no tiling and no call to the memref runtime.

// PLAIN-NOT: omp.
// PLAIN-NOT: __kmpc
// PLAIN-NOT: affine
// PLAIN-NOT: memrefCopy
// PLAIN-NOT: func.func
// PLAIN-NOT: memref.
// PLAIN-NOT: arith.
// PLAIN-NOT: math.
// PLAIN-NOT: scf.
// PLAIN-NOT: cf.
// PLAIN-NOT: linalg.
// PLAIN-NOT: tosa.
// PLAIN-NOT: unrealized_conversion_cast

// A parallel elementwise op becomes a plain sequential 2-deep loop of
// branches in an llvm.func with bare pointers returning the i32 status.

// CHECK-LABEL: llvm.func @parallel_op_becomes_sequential_llvm_loops
// CHECK-SAME:    (%[[A:[^:]*]]: !llvm.ptr{{[^,]*}}, %[[OUT:[^:]*]]: !llvm.ptr{{[^)]*}}) -> i32
// CHECK-DAG:     %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:     %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK-DAG:     %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK:       ^{{.*}}(%[[I:.*]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[I]], %[[C64]] : i64
// CHECK:       ^{{.*}}(%[[J:.*]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[J]], %[[C32]] : i64
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NEXT:    %[[E:.*]] = llvm.intr.exp(%[[X]]) : (f32) -> f32
// CHECK:         llvm.store %[[E]], %{{.*}} : f32, !llvm.ptr
// CHECK:         llvm.return %[[OK]] : i32
func.func @parallel_op_becomes_sequential_llvm_loops(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %0 = linalg.exp ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// A large matmul is not tiled: after the fill nest, three loops step by 1
// over the full extents.

// CHECK-LABEL: llvm.func @matmul_is_not_tiled
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-DAG:     %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-DAG:     %[[C1024:.*]] = llvm.mlir.constant(1024 : index) : i64
// CHECK:         llvm.store %[[ZERO]]
// CHECK:       ^{{.*}}(%[[I:.*]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[I]], %[[C1024]] : i64
// CHECK:       ^{{.*}}(%[[J:.*]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[J]], %[[C1024]] : i64
// CHECK:       ^{{.*}}(%[[K:.*]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[K]], %[[C1024]] : i64
// CHECK:         llvm.fmul
// CHECK-NEXT:    llvm.fadd
// CHECK:         llvm.add %[[K]], %[[C1]] : i64
// CHECK:         llvm.add %[[J]], %[[C1]] : i64
// CHECK:         llvm.add %[[I]], %[[C1]] : i64
func.func @matmul_is_not_tiled(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// A strided slice is copied by a loop (through pb-lower-copies) indexing the
// bare pointer with the slice's strides, not by a call to memrefCopy.

// CHECK-LABEL: llvm.func @strided_slice_copy_becomes_a_loop
// CHECK-SAME:    (%[[A:[^:]*]]: !llvm.ptr{{[^,]*}}, %[[OUT:[^:]*]]: !llvm.ptr{{[^)]*}}) -> i32
// CHECK-DAG:     %[[C2:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK-DAG:     %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
// CHECK-NOT:     llvm.call
// CHECK:         %[[ROW:.*]] = llvm.mul %{{.*}}, %[[C16]] {{.*}}: i64
// CHECK-NEXT:    %[[COL:.*]] = llvm.mul %{{.*}}, %[[C2]] {{.*}}: i64
// CHECK-NEXT:    %[[IDX:.*]] = llvm.add %[[ROW]], %[[COL]] {{.*}}: i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr {{.*}}%[[A]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NOT:     llvm.call
// CHECK:         llvm.return
func.func @strided_slice_copy_becomes_a_loop(%a: tensor<8x8xf32>) -> tensor<4x4xf32> {
  %0 = tensor.extract_slice %a[0, 0] [4, 4] [2, 2] : tensor<8x8xf32> to tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// bf16 arithmetic from TOSA is emulated in f32 with integer conversions, as
// in stage 4; no bf16 fadd remains.

// CHECK-LABEL: llvm.func @bf16_tosa_add_is_emulated_in_f32
// CHECK-NOT:     llvm.fadd {{.*}} : bf16
// CHECK:         llvm.bitcast %{{.*}} : bf16 to i16
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     llvm.fadd {{.*}} : bf16
// CHECK:         llvm.bitcast %{{.*}} : i16 to bf16
// CHECK:         llvm.return
func.func @bf16_tosa_add_is_emulated_in_f32(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tosa.add %a, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// The input checks run first in the reference pipeline too.

func.func @reference_pipeline_rejects_invalid_input(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'memref.alloc' is not supported in an input program}}
  %0 = memref.alloc() : memref<4xf32>
  return %a : tensor<4xf32>
}
