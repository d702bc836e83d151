// RUN: pb-opt %s -split-input-file -pb-fuse-loop-nests | FileCheck %s

// Producer and consumer: the row max is computed, then used, in the same
// iteration of %i: one nest, both inner loops in order.
// CHECK-LABEL: func @row_max_then_use_fuses
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.store %{{.*}}, %[[M:.*]][%[[I]]]
// CHECK-NEXT:      affine.for
// CHECK:             arith.maximumf
// CHECK:           }
// CHECK-NEXT:      affine.for
// CHECK:             affine.load %[[M]][%[[I]]]
// CHECK:             arith.subf
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc
func.func @row_max_then_use_fuses(%x: memref<16x32xf32>, %out: memref<16x32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<16xf32>
  affine.for %i = 0 to 16 {
    affine.store %ninf, %m[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j] : memref<16x32xf32>
      %a = affine.load %m[%i] : memref<16xf32>
      %b = arith.maximumf %v, %a : f32
      affine.store %b, %m[%i] : memref<16xf32>
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j] : memref<16x32xf32>
      %a = affine.load %m[%i] : memref<16xf32>
      %d = arith.subf %v, %a : f32
      affine.store %d, %out[%i, %j] : memref<16x32xf32>
    }
  }
  memref.dealloc %m : memref<16xf32>
  return
}

// -----

// The consumer reads the element of the next iteration (%i + 1): fused, it
// would read it before the producer wrote it. Not fused.
// CHECK-LABEL: func @shifted_read_does_not_fuse
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 16 {
func.func @shifted_read_does_not_fuse(%x: memref<17xf32>, %t: memref<17xf32>, %out: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<17xf32>
    affine.store %v, %t[%i] : memref<17xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %t[%i + 1] : memref<17xf32>
    affine.store %v, %out[%i] : memref<16xf32>
  }
  return
}

// -----

// A column reduction: the consumer needs the whole column of %s, finished
// only after the last iteration of the producer's outer loop. The
// producer's outer loop also carries the reduction. Not fused.
// CHECK-LABEL: func @column_sum_does_not_fuse
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 8 {
func.func @column_sum_does_not_fuse(%x: memref<8x4xf32>, %s: memref<4xf32>, %out: memref<8x4xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %x[%i, %j] : memref<8x4xf32>
      %a = affine.load %s[%j] : memref<4xf32>
      %b = arith.addf %v, %a : f32
      affine.store %b, %s[%j] : memref<4xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %s[%j] : memref<4xf32>
      affine.store %v, %out[%i, %j] : memref<8x4xf32>
    }
  }
  return
}

// -----

// Siblings reading the same input fuse; a third nest with other bounds
// does not.
// CHECK-LABEL: func @siblings_fuse_until_bounds_differ
// CHECK:         affine.for %{{.*}} = 0 to 64 {
// CHECK:           math.exp
// CHECK-NEXT:      affine.store
// CHECK-NEXT:      affine.load
// CHECK-NEXT:      math.sqrt
// CHECK-NEXT:      affine.store
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 32 {
func.func @siblings_fuse_until_bounds_differ(%a: memref<64xf32>, %o1: memref<64xf32>, %o2: memref<64xf32>, %o3: memref<32xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = math.exp %0 : f32
    affine.store %1, %o1[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    %1 = math.sqrt %0 : f32
    affine.store %1, %o2[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 32 {
    %0 = affine.load %a[%i] : memref<64xf32>
    affine.store %0, %o3[%i] : memref<32xf32>
  }
  return
}

// -----

// Nests that share no buffer gain nothing from fusion and stay apart.
// CHECK-LABEL: func @unrelated_nests_stay_apart
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 64 {
func.func @unrelated_nests_stay_apart(%a: memref<64xf32>, %b: memref<64xf32>, %o1: memref<64xf32>, %o2: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    affine.store %0, %o1[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %0 = affine.load %b[%i] : memref<64xf32>
    affine.store %0, %o2[%i] : memref<64xf32>
  }
  return
}

// -----

// A view of a buffer could alias another access: not fused.
// CHECK-LABEL: func @views_do_not_fuse
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 64 {
func.func @views_do_not_fuse(%a: memref<64xf32>, %o: memref<128xf32>) {
  %v = memref.subview %o[64] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    affine.store %0, %o[%i] : memref<128xf32>
  }
  affine.for %i = 0 to 64 {
    %0 = affine.load %o[%i] : memref<128xf32>
    affine.store %0, %v[%i] : memref<64xf32, strided<[1], offset: 64>>
  }
  return
}

// -----

// Pure ops and allocations between the nests move above the first one; a
// deallocation between them stops fusion.
// CHECK-LABEL: func @ops_between_nests
// CHECK:         memref.alloc
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    affine.for
// CHECK-NOT:     affine.for %{{.*}} = 0 to 8
// CHECK:         memref.dealloc
// CHECK-NEXT:    affine.for
func.func @ops_between_nests(%a: memref<8xf32>, %o: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %0 = affine.load %a[%i] : memref<8xf32>
    affine.store %0, %o[%i] : memref<8xf32>
  }
  %t = memref.alloc() : memref<8xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    %0 = affine.load %o[%i] : memref<8xf32>
    %1 = arith.mulf %0, %two : f32
    affine.store %1, %t[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  affine.for %i = 0 to 8 {
    %0 = affine.load %a[%i] : memref<8xf32>
    affine.store %0, %o[%i] : memref<8xf32>
  }
  return
}

// -----

// An outer loop of 3 iterations leaves threads idle: the nests are fused
// there only together with their only children (64 rows), so that one loop
// with many iterations stays for the parallelizer.
// CHECK-LABEL: func @short_outer_loop_fuses_two_levels
// CHECK:         affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:        affine.load
// CHECK-NEXT:        affine.store
// CHECK-NEXT:        affine.load
// CHECK-NEXT:        math.sqrt
// CHECK-NEXT:        affine.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @short_outer_loop_fuses_two_levels(%a: memref<3x64xf32>, %t: memref<3x64xf32>, %o: memref<3x64xf32>) {
  affine.for %c = 0 to 3 {
    affine.for %i = 0 to 64 {
      %0 = affine.load %a[%c, %i] : memref<3x64xf32>
      affine.store %0, %t[%c, %i] : memref<3x64xf32>
    }
  }
  affine.for %c = 0 to 3 {
    affine.for %i = 0 to 64 {
      %0 = affine.load %t[%c, %i] : memref<3x64xf32>
      %1 = math.sqrt %0 : f32
      affine.store %1, %o[%c, %i] : memref<3x64xf32>
    }
  }
  return
}

// -----

// The same, but the rows cannot be fused (the consumer reads the next row):
// the short outer loops stay apart too.
// CHECK-LABEL: func @short_outer_loop_with_unfusable_children
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 3 {
func.func @short_outer_loop_with_unfusable_children(%a: memref<3x65xf32>, %t: memref<3x65xf32>, %o: memref<3x64xf32>) {
  affine.for %c = 0 to 3 {
    affine.for %i = 0 to 64 {
      %0 = affine.load %a[%c, %i] : memref<3x65xf32>
      affine.store %0, %t[%c, %i] : memref<3x65xf32>
    }
  }
  affine.for %c = 0 to 3 {
    affine.for %i = 0 to 64 {
      %0 = affine.load %t[%c, %i + 1] : memref<3x65xf32>
      affine.store %0, %o[%c, %i] : memref<3x64xf32>
    }
  }
  return
}

// -----

// Inside a row, the exp loop and the sum loop over the same row fuse (the
// store that resets the sum moves above the exp loop, which does not touch
// its buffer). The max loop does not: the exp loop needs its final value.
// CHECK-LABEL: func @row_loops_fuse_inside_the_row
// CHECK-SAME:    (%{{.*}}: memref<16x32xf32>, %{{.*}}: memref<16xf32>, %[[S:.*]]: memref<16xf32>, %{{.*}}: memref<16x32xf32>)
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK:           arith.maximumf
// CHECK:           affine.store %{{.*}}, %[[S]][%[[I]]]
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 32 {
// CHECK:             math.exp
// CHECK:             affine.store
// CHECK:             affine.load %[[S]][%[[I]]]
// CHECK:             arith.addf
// CHECK:             affine.store %{{.*}}, %[[S]][%[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @row_loops_fuse_inside_the_row(%x: memref<16x32xf32>, %m: memref<16xf32>, %s: memref<16xf32>, %e: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j] : memref<16x32xf32>
      %a = affine.load %m[%i] : memref<16xf32>
      %b = arith.maximumf %v, %a : f32
      affine.store %b, %m[%i] : memref<16xf32>
    }
    %max = affine.load %m[%i] : memref<16xf32>
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j] : memref<16x32xf32>
      %d = arith.subf %v, %max : f32
      %x1 = math.exp %d : f32
      affine.store %x1, %e[%i, %j] : memref<16x32xf32>
    }
    affine.store %zero, %s[%i] : memref<16xf32>
    affine.for %j = 0 to 32 {
      %v = affine.load %e[%i, %j] : memref<16x32xf32>
      %a = affine.load %s[%i] : memref<16xf32>
      %b = arith.addf %v, %a : f32
      affine.store %b, %s[%i] : memref<16xf32>
    }
  }
  return
}

// -----

// Arguments of an entry point are distinct buffers (the C interface's contract),
// those of a private function are not: its caller may pass one buffer as %a
// and %b. The consumer reads %b one element ahead: fused, it would read
// %a[%i + 1] before the producer wrote it. The entry point fuses, the
// helper does not.
// CHECK-LABEL: func @entry_point_fuses
// CHECK-COUNT-1: affine.for
// CHECK-NOT:     affine.for
// CHECK-LABEL: func private @helper_does_not_fuse
// CHECK-COUNT-2: affine.for %{{.*}} = 0 to 16 {
func.func @entry_point_fuses(%x: memref<17xf32>, %a: memref<17xf32>, %b: memref<17xf32>, %out: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<17xf32>
    affine.store %v, %a[%i] : memref<17xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %a[%i] : memref<17xf32>
    %w = affine.load %b[%i + 1] : memref<17xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %out[%i] : memref<16xf32>
  }
  return
}
func.func private @helper_does_not_fuse(%x: memref<17xf32>, %a: memref<17xf32>, %b: memref<17xf32>, %out: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<17xf32>
    affine.store %v, %a[%i] : memref<17xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %a[%i] : memref<17xf32>
    %w = affine.load %b[%i + 1] : memref<17xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %out[%i] : memref<16xf32>
  }
  return
}
