// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s2-pipeline)' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s2-pipeline{no-winograd})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s2-pipeline{target=nvgpu})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIRECT

// S2's passes: copies and tm_tensor ops lowered, then (CPU) 3x3
// convolutions as Winograd transforms around a batch of matmuls, on the
// module, before linalg becomes affine loops. Not with --no-winograd, nor
// for GPUs.

// CHECK:      pb-lower-copies
// CHECK-NEXT: pb-lower-tm-tensor
// CHECK-NEXT: ),
// CHECK-NEXT: pb-winograd-convolutions{tile=0}
// CHECK-NEXT: func.func(
// CHECK-NEXT: convert-linalg-to-affine-loops

// DIRECT-NOT: pb-winograd-convolutions
// DIRECT:     convert-linalg-to-affine-loops
func.func @f() {
  return
}
