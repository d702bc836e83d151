// RUN: pb-opt %s -split-input-file -pb-parallelize-outer-loops=min-function-iterations=0 | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-parallelize-outer-loops="min-iterations=16 min-function-iterations=0" | FileCheck %s --check-prefix=SMALL
// RUN: pb-opt %s -split-input-file -pb-parallelize-outer-loops | FileCheck %s --check-prefix=FUNC

// The outermost parallel loop of a large nest runs on all cores; the loop
// inside it stays sequential (threads are never nested).
// CHECK-LABEL: func @outermost_parallel_loop_of_large_nest
// CHECK:         affine.parallel (%{{.*}}) = (0) to (64) {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 64 {
func.func @outermost_parallel_loop_of_large_nest(%a: memref<64x64xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.store %c, %a[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// -----

// A nest with too little work stays sequential, unless the threshold is
// lowered.
// CHECK-LABEL: func @small_nest_stays_sequential
// CHECK-NOT:     affine.parallel
// SMALL-LABEL: func @small_nest_stays_sequential
// SMALL:         affine.parallel (%{{.*}}) = (0) to (32)
func.func @small_nest_stays_sequential(%a: memref<32xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 32 {
    affine.store %c, %a[%i] : memref<32xf32>
  }
  return
}

// -----

// A loop carrying a dependence is skipped and the parallel loop under it
// is chosen, when it does enough work each time it is entered (it wakes the
// threads on every iteration of the outer loop: min-iterations-nested).
// CHECK-LABEL: func @dependence_moves_parallelism_inward
// CHECK:         affine.for %{{.*}} = 1 to 8 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (65536) {
// CHECK-LABEL: func @short_inner_parallel_loop_stays_sequential
// CHECK-NOT:     affine.parallel
func.func @dependence_moves_parallelism_inward(%a: memref<8x65536xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 65536 {
      %v = affine.load %a[%i - 1, %j] : memref<8x65536xf32>
      affine.store %v, %a[%i, %j] : memref<8x65536xf32>
    }
  }
  return
}
func.func @short_inner_parallel_loop_stays_sequential(%a: memref<64x4096xf32>) {
  affine.for %i = 1 to 64 {
    affine.for %j = 0 to 4096 {
      %v = affine.load %a[%i - 1, %j] : memref<64x4096xf32>
      affine.store %v, %a[%i, %j] : memref<64x4096xf32>
    }
  }
  return
}

// -----

// A single-iteration loop is not worth parallelizing; its parallel child is.
// CHECK-LABEL: func @single_iteration_loop_is_skipped
// CHECK:         affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (65536) {
func.func @single_iteration_loop_is_skipped(%a: memref<1x65536xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 1 {
    affine.for %j = 0 to 65536 {
      affine.store %c, %a[%i, %j] : memref<1x65536xf32>
    }
  }
  return
}

// -----

// Three channels on two threads would leave one idle a third of the time:
// the parallel row loop inside the channel loop is taken instead.
// CHECK-LABEL: func @few_channels_parallelize_rows
// CHECK:         affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (512) {
func.func @few_channels_parallelize_rows(%a: memref<3x512x512xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %ch = 0 to 3 {
    affine.for %i = 0 to 512 {
      affine.for %j = 0 to 512 {
        affine.store %c, %a[%ch, %i, %j] : memref<3x512x512xf32>
      }
    }
  }
  return
}

// -----

// A buffer allocated and freed in the loop body belongs to one iteration:
// it does not make the loop sequential (tiles of pb-fuse-producer-slices).
// CHECK-LABEL: func @tile_buffer_is_private
// CHECK:         affine.parallel (%{{.*}}) = (0) to (16) {
// CHECK-NEXT:      memref.alloc() : memref<4x512xf32>
func.func @tile_buffer_is_private(%a: memref<64x512xf32>, %o: memref<64x512xf32>) {
  affine.for %t = 0 to 16 {
    %l = memref.alloc() : memref<4x512xf32>
    affine.for %i = affine_map<(d0) -> (d0 * 4)>(%t) to affine_map<(d0) -> (d0 * 4 + 4)>(%t) {
      affine.for %j = 0 to 512 {
        %v = affine.load %a[%i, %j] : memref<64x512xf32>
        affine.store %v, %l[%i - %t * 4, %j] : memref<4x512xf32>
      }
    }
    affine.for %i = affine_map<(d0) -> (d0 * 4)>(%t) to affine_map<(d0) -> (d0 * 4 + 4)>(%t) {
      affine.for %j = 0 to 512 {
        %v = affine.load %l[%i - %t * 4, %j] : memref<4x512xf32>
        affine.store %v, %o[%i, %j] : memref<64x512xf32>
      }
    }
    memref.dealloc %l : memref<4x512xf32>
  }
  return
}

// -----

// Freeing a buffer allocated outside the loop is a real effect: sequential.
// CHECK-LABEL: func @outside_buffer_freed_in_loop
// CHECK-NOT:     affine.parallel
func.func @outside_buffer_freed_in_loop(%a: memref<4096xf32>, %o: memref<4096xf32>) {
  %l = memref.alloc() : memref<4096xf32>
  affine.for %i = 0 to 4096 {
    %v = affine.load %a[%i] : memref<4096xf32>
    affine.store %v, %o[%i] : memref<4096xf32>
    memref.dealloc %l : memref<4096xf32>
  }
  return
}

// -----

// Tiles clipped at the end of their dimension (a min upper bound) count as
// full tiles: 9 tiles of 32 rows of 64 (18432 iterations) are enough work
// for the threads (counted as 1 row each, they would not be).
// CHECK-LABEL: func @clipped_tiles_count_as_full_tiles
// CHECK:         affine.parallel (%{{.*}}) = (0) to (9) {
func.func @clipped_tiles_count_as_full_tiles(%a: memref<280x64xf32>, %o: memref<280x64xf32>) {
  affine.for %t = 0 to 9 {
    affine.for %i = affine_map<(d0) -> (d0 * 32)>(%t) to min affine_map<(d0) -> (d0 * 32 + 32, 280)>(%t) {
      affine.for %j = 0 to 64 {
        %v = affine.load %a[%i, %j] : memref<280x64xf32>
        affine.store %v, %o[%i, %j] : memref<280x64xf32>
      }
    }
  }
  return
}

// -----

// A sequential loop with two nests inside (a k block that packs an operand,
// then computes with it): each nest gets its own parallel loop. The loop
// around them runs once, so each needs only `min-iterations` of work (4096
// here), not `min-iterations-nested`.
// CHECK-LABEL: func @sibling_nests_each_parallel
// CHECK:         affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (64) {
// CHECK:           affine.parallel (%{{.*}}) = (0) to (64) {
// CHECK-LABEL: func @sibling_nests_in_repeated_loop
// CHECK:         affine.for %{{.*}} = 1 to 4 {
// CHECK-NOT:       affine.parallel
// SMALL-LABEL: func @sibling_nests_in_repeated_loop
// SMALL:         affine.for %{{.*}} = 1 to 4 {
// SMALL-NOT:       affine.parallel
func.func @sibling_nests_each_parallel(%a: memref<64x64xf32>, %p: memref<64x64xf32>, %c: memref<1x64x64xf32>) {
  affine.for %t = 0 to 1 {
    affine.for %i = 0 to 64 {
      affine.for %k = 0 to 64 {
        %v = affine.load %a[%i, %k] : memref<64x64xf32>
        affine.store %v, %p[%k, %i] : memref<64x64xf32>
      }
    }
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 64 {
        %v = affine.load %p[%i, %j] : memref<64x64xf32>
        affine.store %v, %c[%t, %i, %j] : memref<1x64x64xf32>
      }
    }
  }
  return
}
// The same nests inside a loop of 3 iterations would wake the threads 6
// times for 4096 iterations each: below `min-iterations-nested`.
func.func @sibling_nests_in_repeated_loop(%a: memref<64x64xf32>, %p: memref<64x64xf32>, %c: memref<4x64x64xf32>) {
  affine.for %t = 1 to 4 {
    affine.for %i = 0 to 64 {
      affine.for %k = 0 to 64 {
        %v = affine.load %c[%t - 1, %i, %k] : memref<4x64x64xf32>
        affine.store %v, %p[%k, %i] : memref<64x64xf32>
      }
    }
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 64 {
        %v = affine.load %p[%i, %j] : memref<64x64xf32>
        affine.store %v, %c[%t, %i, %j] : memref<4x64x64xf32>
      }
    }
  }
  return
}

// -----

// A function whose nests together do fewer than min-function-iterations
// (16384) innermost iterations runs on the calling thread, however large
// each nest is by min-iterations: two nests of 4096 here. One of 16384
// iterations alone is enough.
// CHECK-LABEL: func.func @small_function
// SMALL-LABEL: func.func @small_function
// FUNC-LABEL: func.func @small_function
// FUNC-NOT:     affine.parallel
// FUNC:         } {pb.decisions = [{pass = "pb-parallelize-outer-loops", summary = "sequential: the function does 8192 innermost iterations in all, fewer than the 16384 worth waking the threads for", work = 8192 : i64}]}
// FUNC-LABEL: func.func @large_enough_function
// FUNC:         affine.parallel
func.func @small_function(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i, %j] : memref<64x64xf32>
      affine.store %v, %b[%i, %j] : memref<64x64xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %b[%i, %j] : memref<64x64xf32>
      affine.store %v, %a[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
func.func @large_enough_function(%a: memref<128x128xf32>, %b: memref<128x128xf32>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      %v = affine.load %a[%i, %j] : memref<128x128xf32>
      affine.store %v, %b[%i, %j] : memref<128x128xf32>
    }
  }
  return
}

// -----

// Blocks of tiles (pb-register-tile-contraction's row blocks): the inner
// loop's bounds depend on the block, (b * 73) floordiv 14 to (b * 73 + 73)
// floordiv 14, 5 or 6 iterations; its trip count is counted as their mean
// over the 14 blocks, rounded up (6), not as 1: 14 x 6 x 1024 = 86016
// iterations of work, enough for threads; the blocks write rows of their
// own, so the blocks loop runs in parallel.
// CHECK-LABEL: func @blocks_of_tiles
// CHECK:         affine.parallel (%{{.*}}) = (0) to (14) {
// CHECK:         work = 86016 : i64
func.func @blocks_of_tiles(%in: memref<73x1024xf32>, %out: memref<73x1024xf32>) {
  affine.for %b = 0 to 14 {
    affine.for %t = affine_map<(d0) -> ((d0 * 73) floordiv 14)>(%b) to affine_map<(d0) -> ((d0 * 73 + 73) floordiv 14)>(%b) {
      affine.for %j = 0 to 1024 {
        %v = affine.load %in[%t, %j] : memref<73x1024xf32>
        affine.store %v, %out[%t, %j] : memref<73x1024xf32>
      }
    }
  }
  return
}

// -----

// Nests in a loop over images (pb-tile-batch's scf.for) are roots as those
// of the function's body: the rows of each image's nest run in parallel,
// the loop over the images stays sequential. A nest that a run-time check
// guards (scf.if) is not entered.
// CHECK-LABEL: func @nest_per_image
// CHECK:         scf.for %[[N:.*]] =
// CHECK:           affine.parallel (%{{.*}}) = (0) to (256) {
// CHECK:         scf.if
// CHECK-NOT:       affine.parallel
// CHECK:         return
func.func @nest_per_image(%in: memref<4x256x256xf32>, %out: memref<4x256x256xf32>, %ok: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %n = %c0 to %c4 step %c1 {
    %x = memref.subview %in[%n, 0, 0] [1, 256, 256] [1, 1, 1] : memref<4x256x256xf32> to memref<256x256xf32, strided<[256, 1], offset: ?>>
    %y = memref.subview %out[%n, 0, 0] [1, 256, 256] [1, 1, 1] : memref<4x256x256xf32> to memref<256x256xf32, strided<[256, 1], offset: ?>>
    affine.for %i = 0 to 256 {
      affine.for %j = 0 to 256 {
        %v = affine.load %x[%i, %j] : memref<256x256xf32, strided<[256, 1], offset: ?>>
        affine.store %v, %y[%i, %j] : memref<256x256xf32, strided<[256, 1], offset: ?>>
      }
    }
  }
  scf.if %ok {
    affine.for %i = 0 to 256 {
      affine.for %j = 0 to 256 {
        %v = affine.load %in[0, %i, %j] : memref<4x256x256xf32>
        affine.store %v, %out[0, %i, %j] : memref<4x256x256xf32>
      }
    }
  }
  return
}
