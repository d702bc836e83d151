// RUN: pb-opt %s -split-input-file -pb-fuse-producer-slices='cache-kib=8' | FileCheck %s

// A producer row pass and a consumer reading rows %i .. %i + 2 (three
// taps). With 8 KiB of cache and rows of 64 floats (256 bytes), the tile
// buffer gets half of it, 16 rows: tiles of 14 output rows, each
// recomputing 2 rows (the second tile is clipped). The loops outside the
// tiled one (%c) are fused; the full buffer is gone.
// CHECK-DAG:   #[[PLB:.*]] = affine_map<(d0) -> (d0 * 14)>
// CHECK-DAG:   #[[PUB:.*]] = affine_map<(d0) -> (d0 * 14 + 16, 20)>
// CHECK-DAG:   #[[CUB:.*]] = affine_map<(d0) -> (d0 * 14 + 14, 18)>
// CHECK-LABEL: func @three_row_stencil
// CHECK-SAME:    (%[[X:.*]]: memref<2x20x64xf32>, %[[OUT:.*]]: memref<2x18x64xf32>)
// CHECK-NOT:     memref<2x20x64xf32> = memref.alloc
// CHECK:         affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT:        %[[TILE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
// CHECK-NEXT:        affine.for %[[I:.*]] = max #{{.*}}(%[[T]]) to min #[[PUB]](%[[T]]) {
// CHECK-NEXT:          affine.for %[[J:.*]] = 0 to 64 {
// CHECK-NEXT:            affine.load %[[X]][%[[C]], %[[I]], %[[J]]]
// CHECK-NEXT:            math.exp
// CHECK-NEXT:            affine.store %{{.*}}, %[[TILE]][%[[I]] - %[[T]] * 14, %[[J]]]
// CHECK:             affine.for %[[I2:.*]] = #[[PLB]](%[[T]]) to min #[[CUB]](%[[T]]) {
// CHECK-NEXT:          affine.for %[[J2:.*]] = 0 to 64 {
// CHECK-NEXT:            affine.load %[[TILE]][%[[I2]] - %[[T]] * 14, %[[J2]]]
// CHECK-NEXT:            affine.load %[[TILE]][%[[I2]] - %[[T]] * 14 + 1, %[[J2]]]
// CHECK-NEXT:            affine.load %[[TILE]][%[[I2]] - %[[T]] * 14 + 2, %[[J2]]]
// CHECK:               affine.store %{{.*}}, %[[OUT]][%[[C]], %[[I2]], %[[J2]]]
// CHECK:             memref.dealloc %[[TILE]]
// CHECK-NOT:     memref.dealloc
func.func @three_row_stencil(%x: memref<2x20x64xf32>, %out: memref<2x18x64xf32>) {
  %buf = memref.alloc() : memref<2x20x64xf32>
  affine.for %c = 0 to 2 {
    affine.for %i = 0 to 20 {
      affine.for %j = 0 to 64 {
        %v = affine.load %x[%c, %i, %j] : memref<2x20x64xf32>
        %e = math.exp %v : f32
        affine.store %e, %buf[%c, %i, %j] : memref<2x20x64xf32>
      }
    }
  }
  affine.for %c = 0 to 2 {
    affine.for %i = 0 to 18 {
      affine.for %j = 0 to 64 {
        %a = affine.load %buf[%c, %i, %j] : memref<2x20x64xf32>
        %b = affine.load %buf[%c, %i + 1, %j] : memref<2x20x64xf32>
        %d = affine.load %buf[%c, %i + 2, %j] : memref<2x20x64xf32>
        %s = arith.addf %a, %b : f32
        %t = arith.addf %s, %d : f32
        affine.store %t, %out[%c, %i, %j] : memref<2x18x64xf32>
      }
    }
  }
  memref.dealloc %buf : memref<2x20x64xf32>
  return
}

// -----

// Negative offsets (rows %i - 1 .. %i + 1) and a consumer starting at row 1:
// the producer's slice starts one row before the tile, clipped at row 0.
// CHECK-LABEL: func @centered_stencil
// CHECK:         affine.for %[[T:.*]] = 0 to 2 {
// CHECK:           memref<16x64xf32>
// CHECK:           affine.for %{{.*}} = max #{{.*}}(%[[T]]) to min
// CHECK:             affine.store %{{.*}}, %{{.*}}[%{{.*}} - %[[T]] * 14, %{{.*}}]
// CHECK:           affine.for %{{.*}} = #{{.*}}(%[[T]]) to min
// CHECK:             affine.load %{{.*}}[%{{.*}} - %[[T]] * 14 - 1, %{{.*}}]
// CHECK:             affine.load %{{.*}}[%{{.*}} - %[[T]] * 14 + 1, %{{.*}}]
func.func @centered_stencil(%x: memref<20x64xf32>, %out: memref<20x64xf32>) {
  %buf = memref.alloc() : memref<20x64xf32>
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<20x64xf32>
      affine.store %v, %buf[%i, %j] : memref<20x64xf32>
    }
  }
  affine.for %i = 1 to 19 {
    affine.for %j = 0 to 64 {
      %a = affine.load %buf[%i - 1, %j] : memref<20x64xf32>
      %b = affine.load %buf[%i + 1, %j] : memref<20x64xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<20x64xf32>
    }
  }
  memref.dealloc %buf : memref<20x64xf32>
  return
}

// -----

// The producer reads the buffer (it accumulates into it): its slice would
// start from the tile buffer's garbage. Not fused.
// CHECK-LABEL: func @producer_reads_the_buffer
// CHECK:         memref.alloc() : memref<20x64xf32>
// CHECK-NOT:     memref<16x64xf32>
func.func @producer_reads_the_buffer(%x: memref<20x64xf32>, %out: memref<18x64xf32>) {
  %buf = memref.alloc() : memref<20x64xf32>
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<20x64xf32>
      %o = affine.load %buf[%i, %j] : memref<20x64xf32>
      %s = arith.addf %v, %o : f32
      affine.store %s, %buf[%i, %j] : memref<20x64xf32>
    }
  }
  affine.for %i = 0 to 18 {
    affine.for %j = 0 to 64 {
      %a = affine.load %buf[%i + 2, %j] : memref<20x64xf32>
      affine.store %a, %out[%i, %j] : memref<18x64xf32>
    }
  }
  memref.dealloc %buf : memref<20x64xf32>
  return
}

// -----

// Five taps (a halo of 4 rows): tiles filling half of the 8 KiB cache (16
// rows, 12 output rows) would recompute a third of their rows. The smallest
// tiles that recompute at most a quarter, 16 output rows, take a buffer of
// 20 rows (5 KiB), which still fits in the cache: fused with those.
// CHECK-LABEL: func @small_cache_five_taps
// CHECK-NOT:     memref<44x64xf32> = memref.alloc
// CHECK:         affine.for %[[T:.*]] = 0 to 3 {
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<20x64xf32>
// CHECK:             affine.store %{{.*}}, %{{.*}}[%{{.*}} - %[[T]] * 16, %{{.*}}]
// CHECK:             affine.load %{{.*}}[%{{.*}} - %[[T]] * 16 + 4, %{{.*}}]
func.func @small_cache_five_taps(%x: memref<44x64xf32>, %out: memref<40x64xf32>) {
  %buf = memref.alloc() : memref<44x64xf32>
  affine.for %i = 0 to 44 {
    affine.for %j = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<44x64xf32>
      %e = math.exp %v : f32
      affine.store %e, %buf[%i, %j] : memref<44x64xf32>
    }
  }
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 64 {
      %a = affine.load %buf[%i, %j] : memref<44x64xf32>
      %b = affine.load %buf[%i + 4, %j] : memref<44x64xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<40x64xf32>
    }
  }
  memref.dealloc %buf : memref<44x64xf32>
  return
}

// -----

// A tile that would recompute more than a quarter of its rows (a halo of 8
// rows leaves room for tiles of 8 in half of the cache, and tiles of 32 that
// would recompute a quarter need 40 rows, more than the whole cache) is not
// worth it. Not fused.
// CHECK-LABEL: func @too_much_recomputation
// CHECK:         memref.alloc() : memref<20x64xf32>
func.func @too_much_recomputation(%x: memref<20x64xf32>, %out: memref<12x64xf32>) {
  %buf = memref.alloc() : memref<20x64xf32>
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<20x64xf32>
      affine.store %v, %buf[%i, %j] : memref<20x64xf32>
    }
  }
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 64 {
      %a = affine.load %buf[%i, %j] : memref<20x64xf32>
      %b = affine.load %buf[%i + 8, %j] : memref<20x64xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<12x64xf32>
    }
  }
  memref.dealloc %buf : memref<20x64xf32>
  return
}
