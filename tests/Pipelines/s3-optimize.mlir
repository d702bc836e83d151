// RUN: %pb-opt %s -split-input-file --pb-s3-pipeline | FileCheck %s --check-prefixes=CHECK,PAR
// RUN: %pb-opt %s -split-input-file --pass-pipeline='builtin.module(pb-s3-pipeline{no-parallel fuse=true})' | FileCheck %s --check-prefixes=CHECK,SEQ
// RUN: %pb-opt %s -split-input-file --pass-pipeline='builtin.module(pb-s3-pipeline{fuse=true})' | FileCheck %s --check-prefixes=CHECK,PAR
// RUN: %pb-opt %s -split-input-file --pass-pipeline='builtin.module(pb-s3-pipeline{tile-cache-size-kib=64})' | FileCheck %s --check-prefix=TILE
// RUN: %pb-opt %s -split-input-file --pass-pipeline='builtin.module(pb-s3-pipeline{tile-cache-size-kib=0})' | FileCheck %s --check-prefix=NOTILE

// Tests for S3 (pb-s3-pipeline) on S2 output: parallel loop detection
// (`parallelize`), fusion (pb-fuse-loop-nests; the experimental upstream
// sibling fusion, `fuse`, off by default, finds nothing more here), the
// experimental cache tiling (`tile-cache-size-kib`, 0 by default: off),
// scalar replacement and invariant code motion.

// The outermost parallel loop becomes affine.parallel; the loops inside it stay
// sequential. Without parallelization, no affine.parallel appears. With
// tiling off, the two loops index the accesses directly.

// NOTILE-LABEL: func.func @outermost_parallel_loop_becomes_affine_parallel
// NOTILE:         affine.parallel (%[[I:.*]]) = (0) to (256) {
// NOTILE-NEXT:      affine.for %[[J:.*]] = 0 to 256 {
// NOTILE-NEXT:        affine.load %{{.*}}[%[[I]], %[[J]]] : memref<256x256xf32>

// CHECK-LABEL: func.func @outermost_parallel_loop_becomes_affine_parallel
// CHECK-SAME:    (%[[A:.*]]: memref<256x256xf32>, %[[OUT:.*]]: memref<256x256xf32>) -> i32
// PAR:           affine.parallel (%{{.*}}) = (0) to (256) {
// PAR-NOT:         affine.parallel
// PAR:             affine.for %{{.*}} = 0 to 256 {
// PAR-NOT:         affine.parallel
// SEQ-NOT:       affine.parallel
// SEQ:           affine.for %{{.*}} = 0 to 256 {
// SEQ-NOT:       affine.parallel
// SEQ:             affine.for %{{.*}} = 0 to 256 {
// SEQ-NOT:       affine.parallel
// CHECK:         %[[V:.*]] = affine.load %[[A]]
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:    affine.store %[[E]], %[[OUT]]
// CHECK:         return
func.func @outermost_parallel_loop_becomes_affine_parallel(%a: memref<256x256xf32>, %out: memref<256x256xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %0 = affine.load %a[%i, %j] : memref<256x256xf32>
      %1 = math.exp %0 : f32
      affine.store %1, %out[%i, %j] : memref<256x256xf32>
    }
  }
  return %ok : i32
}

// -----

// An outer loop carrying a dependence (row i reads row i - 1) stays
// sequential; the parallel loop inside it does too little work (32
// iterations) each time it is entered to be worth waking the threads.

// CHECK-LABEL: func.func @loop_carried_dependence_keeps_loop_sequential
// CHECK:         affine.for %{{.*}} = 1 to 64 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 32 {
// CHECK-NOT:     affine.parallel
// CHECK:         return
func.func @loop_carried_dependence_keeps_loop_sequential(%a: memref<64x32xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  affine.for %i = 1 to 64 {
    affine.for %j = 0 to 32 {
      %0 = affine.load %a[%i - 1, %j] : memref<64x32xf32>
      %1 = arith.addf %0, %one : f32
      affine.store %1, %a[%i, %j] : memref<64x32xf32>
    }
  }
  return %ok : i32
}

// -----

// A 500x1024 by 1024x1024 matmul (B an argument, fewer than 512 rows)
// becomes the k-blocked register-tiled micro-kernel of
// pb-register-tile-contraction (k blocks of 512 for the default 32 KiB L1,
// 6x16 tiles for 16 registers of 256 bits: 83 of them, then one tile of the
// 2 rows left). A's k block (1000 KiB) outgrows the 512 KiB L2: it is packed
// into 6-row slivers per k block (42,496 copies, too few to wake the
// threads for, once per k block), then the column tiles run in parallel,
// each packing its panel of B on its stack (one buffer allocated before the
// loops when they run sequentially). B (4 MiB) outgrows L2: the first tile
// of each column tile prefetches the next one's panel rows, line by line.

// CHECK-LABEL: func.func @large_matmul_is_register_tiled
// CHECK-SAME:    (%[[A:.*]]: memref<500x1024xf32>, %{{.*}}: memref<1024x1024xf32>, %[[C:.*]]: memref<500x1024xf32>) -> i32
// CHECK:         %[[XP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<83x512x6xf32>
// SEQ:           %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512x16xf32>
// CHECK:         affine.for %{{.*}} = 0 to 1024 step 512 {
// CHECK:           affine.for %{{.*}} = 0 to 498 step 6 {
// CHECK-COUNT-6:       affine.store %{{.*}}, %[[XP]]
// PAR:             affine.parallel (%{{.*}}) = (0) to (1024) step (16) {
// SEQ:             affine.for %{{.*}} = 0 to 1024 step 16 {
// PAR:                 %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512x16xf32>
// CHECK:               affine.vector_store %{{.*}}, %[[PACK]]
// CHECK:             affine.for {{.*}} iter_args
// CHECK:               affine.vector_load %[[PACK]]
// CHECK-NEXT:          affine.prefetch
// CHECK:             affine.for %{{.*}} = 6 to 498 step 6 {
// CHECK-COUNT-6:       affine.vector_load %[[C]]
// CHECK:               affine.for {{.*}} iter_args
// CHECK:                 affine.vector_load %[[PACK]]
// CHECK-COUNT-6:         affine.load %[[XP]]
// CHECK-COUNT-6:         vector.fma
// CHECK-COUNT-6:       affine.vector_store %{{.*}}, %[[C]]
// CHECK:             }
// CHECK:             affine.vector_load %[[C]][498, %{{.*}}]
// CHECK:             affine.vector_load %[[C]][499, %{{.*}}]
// CHECK:             affine.for {{.*}} iter_args
// CHECK:               affine.load %[[A]][498, %{{.*}}]
// CHECK-COUNT-2:       vector.fma
// CHECK-NOT:           vector.fma
// CHECK:             affine.vector_store %{{.*}}, %[[C]][498, %{{.*}}]
// CHECK:         memref.dealloc %[[XP]]
func.func @large_matmul_is_register_tiled(%a: memref<500x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<500x1024xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 500 {
    affine.for %j = 0 to 1024 {
      affine.for %k = 0 to 1024 {
        %0 = affine.load %a[%i, %k] : memref<500x1024xf32>
        %1 = affine.load %b[%k, %j] : memref<1024x1024xf32>
        %2 = affine.load %c[%i, %j] : memref<500x1024xf32>
        %3 = arith.mulf %0, %1 : f32
        %4 = arith.addf %2, %3 : f32
        affine.store %4, %c[%i, %j] : memref<500x1024xf32>
      }
    }
  }
  return %ok : i32
}

// -----

// With the experimental tiling for a 64 KiB cache, a large transposing copy
// (8 MiB) is tiled: the outer loops step over tiles (step > 1) and the
// intra-tile loops run from a tile loop's index to the end of its tile.

// TILE-LABEL: func.func @large_transpose_is_tiled
// TILE-SAME:    (%{{.*}}: memref<1024x1024xf32>, %[[OUT:.*]]: memref<1024x1024xf32>) -> i32
// TILE:         affine.parallel (%[[T0:.*]]) = (0) to (1024) step ({{([2-9]|[1-9][0-9]+)}}) {
// TILE-NEXT:      affine.for %[[T1:.*]] = 0 to 1024 step {{([2-9]|[1-9][0-9]+)}} {
// TILE:             affine.for %{{.*}} = #map{{[0-9]*}}(%[[T0]]) to #map{{[0-9]*}}(%[[T0]]) {
// TILE:               affine.for %{{.*}} = #map{{[0-9]*}}(%[[T1]]) to #map{{[0-9]*}}(%[[T1]]) {
// TILE:                 affine.store %{{.*}}, %[[OUT]]
// NOTILE-LABEL: func.func @large_transpose_is_tiled
// NOTILE-NOT:     step
// NOTILE:         return
func.func @large_transpose_is_tiled(%a: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      %0 = affine.load %a[%j, %i] : memref<1024x1024xf32>
      affine.store %0, %out[%i, %j] : memref<1024x1024xf32>
    }
  }
  return %ok : i32
}

// -----

// Sibling loops that read the same input are fused into one nest with the
// experimental `fuse=true` and stay two nests by default. Loops of 64
// iterations are too small to run on several threads.

// CHECK-LABEL: func.func @sibling_loops_reading_the_same_input_are_fused
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[O1:.*]]: memref<64xf32>, %[[O2:.*]]: memref<64xf32>) -> i32
// CHECK-NOT:     affine.parallel
// CHECK:         affine.for %{{.*}} = 0 to 64
// CHECK:         affine.load %[[A]]
// CHECK:         affine.store %{{.*}}, %[[O1]]
// CHECK-NOT:     }
// CHECK:         affine.load %[[A]]
// CHECK:         affine.store %{{.*}}, %[[O2]]
// CHECK:         return
func.func @sibling_loops_reading_the_same_input_are_fused(%a: memref<64xf32>, %o1: memref<64xf32>, %o2: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = math.exp %0 : f32
    affine.store %1, %o1[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = arith.negf %0 : f32
    affine.store %1, %o2[%i] : memref<64xf32>
  }
  return %ok : i32
}

// -----

// A value stored and reloaded in the same iteration is forwarded (scalar
// replacement): the reload disappears.

// CHECK-LABEL: func.func @store_then_load_is_forwarded
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[TMP:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>) -> i32
// CHECK:         %[[V:.*]] = affine.load %[[A]]
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:    affine.store %[[E]], %[[TMP]]
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK-NEXT:    affine.store %[[N]], %[[OUT]]
// CHECK-NOT:     affine.load %[[TMP]]
// CHECK:         return
func.func @store_then_load_is_forwarded(%a: memref<64xf32>, %tmp: memref<64xf32>, %out: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = math.exp %0 : f32
    affine.store %1, %tmp[%i] : memref<64xf32>
    %2 = affine.load %tmp[%i] : memref<64xf32>
    %3 = arith.negf %2 : f32
    affine.store %3, %out[%i] : memref<64xf32>
  }
  return %ok : i32
}

// -----

// A load that does not depend on the loop is hoisted out of it.

// CHECK-LABEL: func.func @loop_invariant_load_is_hoisted
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[S:.*]]: memref<f32>, %[[OUT:.*]]: memref<64xf32>) -> i32
// CHECK:         %[[SCALE:.*]] = affine.load %[[S]][] : memref<f32>
// CHECK-NEXT:    affine.for
// CHECK-NOT:     affine.load %[[S]]
// CHECK:         %[[V:.*]] = affine.load %[[A]]
// CHECK-NEXT:    arith.mulf %[[V]], %[[SCALE]] : f32
// CHECK-NOT:     affine.load %[[S]]
// CHECK:         return
func.func @loop_invariant_load_is_hoisted(%a: memref<64xf32>, %s: memref<f32>, %out: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 64 {
    %c = affine.load %s[] : memref<f32>
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = arith.mulf %0, %c : f32
    affine.store %1, %out[%i] : memref<64xf32>
  }
  return %ok : i32
}
