// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s3-pipeline{cpu=x86-64-v3})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s3-pipeline{no-parallel})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SERIAL
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s3-pipeline{target=nvgpu})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// S3's passes, in the order buildS3Pipeline adds its pieces: the machine
// model, the CPU micro-kernels, fusion, the reciprocals, the CPU's threads
// and row kernels. GPUs get the matrix units and the target-neutral fusion
// only.

// CPU:      pb-set-machine-model{machine={target = "cpu", vector_bits = 256 : i64, vector_registers = 16 : i64
// CPU:        pb-unroll-short-loops
// CPU-NEXT:   pb-permute-for-vectorization,
// CPU-NEXT:   pb-scalar-replacement,
// CPU-NEXT:   pb-stream-skinny-contraction
// CPU-NEXT:   ),
// CPU-NEXT:   pb-register-tile-contraction
// CPU-NEXT:   func.func(
// CPU-NEXT:   pb-register-tile-depthwise
// CPU-NEXT:   pb-fuse-epilogues
// CPU-NEXT:   pb-forward-fills,
// CPU-NEXT:   pb-fuse-producer-slices
// CPU-NEXT:   affine-loop-invariant-code-motion,
// CPU-NEXT:   pb-fuse-loop-nests,
// CPU-NEXT:   pb-promote-accumulators,
// CPU-NEXT:   pb-scalar-replacement,
// CPU-NEXT:   affine-loop-invariant-code-motion,
// CPU-NEXT:   pb-hoist-reciprocals,
// CPU-NEXT:   pb-parallelize-outer-loops
// CPU-NEXT:   pb-hoist-stack-buffers,
// CPU-NEXT:   pb-prefetch-next-row
// CPU-NEXT:   pb-vectorize-max-reductions
// CPU-NEXT:   canonicalize
// CPU-NEXT:   cse
// CPU-NEXT:   pb-share-buffers
// CPU:        pb-static-arenas

// SERIAL:     pb-hoist-reciprocals,
// SERIAL-NEXT: pb-hoist-stack-buffers,

// GPU:      pb-set-machine-model{machine={target = "nvgpu", {{.*}}chip = "sm_80"}}
// GPU-NOT:  pb-register-tile-
// GPU-NOT:  pb-fuse-epilogues
// GPU:      pb-map-contraction-to-tensor-cores
// GPU-NEXT: pb-scalar-replacement,
// GPU-NEXT: pb-forward-fills,
// GPU-NEXT: affine-loop-invariant-code-motion,
// GPU-NOT:  pb-parallelize-outer-loops
// GPU:      pb-hoist-reciprocals,
// GPU-NEXT: canonicalize
// GPU-NOT:  pb-share-buffers
func.func @f() {
  return
}
