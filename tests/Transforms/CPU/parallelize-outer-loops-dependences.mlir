// RUN: pb-opt %s -split-input-file -pb-parallelize-outer-loops="min-iterations=1 min-function-iterations=0" | FileCheck %s

// Which loops are parallel (polyblocks::isParallelLoop): iterations that
// own disjoint rows, tiles or blocks of row tiles are found without the
// Presburger dependence test, the rest by it; vector accesses only where
// that test, which sees one element per access, is exact.

// Each iteration of %i owns a tile of four elements: parallel.
// CHECK-LABEL: func @tile_owned_by_iteration
// CHECK:         affine.parallel
func.func @tile_owned_by_iteration(%a: memref<256xf32>, %b: memref<256xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %k = 0 to 4 {
      %x = affine.load %b[%i * 4 + %k] : memref<256xf32>
      %y = affine.load %a[%i * 4 + %k] : memref<256xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %a[%i * 4 + %k] : memref<256xf32>
    }
  }
  return
}

// -----

// Tiles of five elements every four: neighbouring iterations share one.
// CHECK-LABEL: func @overlapping_tiles
// CHECK-NOT:     affine.parallel
func.func @overlapping_tiles(%a: memref<260xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %k = 0 to 5 {
      %y = affine.load %a[%i * 4 + %k] : memref<260xf32>
      %s = arith.addf %y, %y : f32
      affine.store %s, %a[%i * 4 + %k] : memref<260xf32>
    }
  }
  return
}

// -----

// A vector of eight elements every four elements: overlapping.
// CHECK-LABEL: func @overlapping_vectors
// CHECK-NOT:     affine.parallel
func.func @overlapping_vectors(%a: memref<260xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.vector_load %a[%i * 4] : memref<260xf32>, vector<8xf32>
    %s = arith.addf %v, %v : vector<8xf32>
    affine.vector_store %s, %a[%i * 4] : memref<260xf32>, vector<8xf32>
  }
  return
}

// -----

// Reads the next row that the next iteration writes.
// CHECK-LABEL: func @reads_next_row
// CHECK-NOT:     affine.parallel
func.func @reads_next_row(%a: memref<65x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %y = affine.load %a[%i + 1, %j] : memref<65x64xf32>
      affine.store %y, %a[%i, %j] : memref<65x64xf32>
    }
  }
  return
}

// -----

// Rows counted down, at an offset from the outside: parallel.
// CHECK-LABEL: func @rows_counted_down
// CHECK:         affine.parallel
func.func @rows_counted_down(%a: memref<128x64xf32>, %n: index) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %y = affine.load %a[-%i + %n, %j] : memref<128x64xf32>
      %s = arith.addf %y, %y : f32
      affine.store %s, %a[-%i + %n, %j] : memref<128x64xf32>
    }
  }
  return
}

// -----

// The same rows, but one access is offset by a value from the outside: no
// telling which rows meet.
// CHECK-LABEL: func @rows_offset_by_argument
// CHECK-NOT:     affine.parallel
func.func @rows_offset_by_argument(%a: memref<128x64xf32>, %n: index) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %y = affine.load %a[%i + %n, %j] : memref<128x64xf32>
      affine.store %y, %a[%i, %j] : memref<128x64xf32>
    }
  }
  return
}

// -----

// Step 2 with tiles of two: parallel; the same with tiles of three is not.
// CHECK-LABEL: func @stepped_tiles
// CHECK:         affine.parallel
// CHECK-LABEL: func @stepped_tiles_overlapping
// CHECK-NOT:     affine.parallel
func.func @stepped_tiles(%a: memref<130xf32>) {
  affine.for %i = 0 to 128 step 2 {
    affine.for %k = 0 to 2 {
      %y = affine.load %a[%i + %k] : memref<130xf32>
      %s = arith.addf %y, %y : f32
      affine.store %s, %a[%i + %k] : memref<130xf32>
    }
  }
  return
}
func.func @stepped_tiles_overlapping(%a: memref<130xf32>) {
  affine.for %i = 0 to 128 step 2 {
    affine.for %k = 0 to 3 {
      %y = affine.load %a[%i + %k] : memref<130xf32>
      %s = arith.addf %y, %y : f32
      affine.store %s, %a[%i + %k] : memref<130xf32>
    }
  }
  return
}

// -----

// Vectors of eight elements at multiples of eight, written and read by two
// iterations of the outer loop (%i and %i + 1 meet): not parallel. The same
// vectors each in one row: parallel.
// CHECK-LABEL: func @aligned_vectors_of_next_row
// CHECK-NOT:     affine.parallel
// CHECK-LABEL: func @aligned_vectors_in_own_row
// CHECK:         affine.parallel
func.func @aligned_vectors_of_next_row(%a: memref<65x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 step 8 {
      %v = affine.vector_load %a[%i + 1, %j] : memref<65x64xf32>, vector<8xf32>
      affine.vector_store %v, %a[%i, %j] : memref<65x64xf32>, vector<8xf32>
    }
  }
  return
}
func.func @aligned_vectors_in_own_row(%a: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 step 8 {
      %v = affine.vector_load %a[%i, %j] : memref<64x64xf32>, vector<8xf32>
      %s = arith.addf %v, %v : vector<8xf32>
      affine.vector_store %s, %a[%i, %j] : memref<64x64xf32>, vector<8xf32>
    }
  }
  return
}

// -----

// Each iteration owns a block of row tiles (f(%b) to f(%b + 1)) and the
// last one also the two rows after them: the row blocks are told apart by
// the dependence test, the vectors' columns aligned. Blocks that shrink as
// %b grows are no partition, and here the rows written in one iteration are
// read in the next: not parallel.
// CHECK-LABEL: func @blocks_of_row_tiles
// CHECK:         affine.parallel (%{{.*}}) = (0) to (4)
// CHECK-LABEL: func @blocks_not_partitioned
// CHECK-NOT:     affine.parallel
func.func @blocks_of_row_tiles(%a: memref<38x64xf32>) {
  affine.for %b = 0 to 4 {
    affine.for %t = affine_map<(d0) -> ((d0 * 9) floordiv 4)>(%b) to affine_map<(d0) -> ((d0 * 9 + 9) floordiv 4)>(%b) {
      affine.for %j = 0 to 64 step 8 {
        %v = affine.vector_load %a[%t * 4, %j] : memref<38x64xf32>, vector<8xf32>
        %s = arith.addf %v, %v : vector<8xf32>
        affine.vector_store %s, %a[%t * 4 + 3, %j] : memref<38x64xf32>, vector<8xf32>
      }
    }
    affine.if affine_set<(d0) : (d0 - 3 == 0)>(%b) {
      affine.for %j = 0 to 64 step 8 {
        %v = affine.vector_load %a[36, %j] : memref<38x64xf32>, vector<8xf32>
        affine.vector_store %v, %a[37, %j] : memref<38x64xf32>, vector<8xf32>
      }
    }
  }
  return
}
func.func @blocks_not_partitioned(%a: memref<48x64xf32>) {
  affine.for %b = 0 to 4 {
    affine.for %t = affine_map<(d0) -> (8 - d0 * 2)>(%b) to affine_map<(d0) -> (10 - d0 * 2)>(%b) {
      affine.for %j = 0 to 64 step 8 {
        %v = affine.vector_load %a[%t * 4, %j] : memref<48x64xf32>, vector<8xf32>
        affine.vector_store %v, %a[%t * 4 + 8, %j] : memref<48x64xf32>, vector<8xf32>
      }
    }
  }
  return
}

// -----

// Blocks of a partition (3 * %b to 3 * %b + 3) walked with step 2: the
// last tile of one block (%t = 2, elements 2 and 3) and the first of the
// next (%t = 3, elements 3 and 4) meet: not parallel.
// CHECK-LABEL: func @stepped_blocks_meet
// CHECK-NOT:     affine.parallel
func.func @stepped_blocks_meet(%a: memref<16xf32>) {
  affine.for %b = 0 to 4 {
    affine.for %t = affine_map<(d0) -> (d0 * 3)>(%b) to affine_map<(d0) -> (d0 * 3 + 3)>(%b) step 2 {
      affine.for %k = 0 to 2 {
        %v = affine.load %a[%t + %k] : memref<16xf32>
        %s = arith.addf %v, %v : f32
        affine.store %s, %a[%t + %k] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// A prefetch orders nothing: it reads no value and writes none, even of
// the row the next iteration writes (a micro-kernel's prefetch of the next
// column tile's panel).
// CHECK-LABEL: func @prefetch_of_next_row
// CHECK:         affine.parallel
// CHECK:           affine.prefetch
func.func @prefetch_of_next_row(%a: memref<65x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.prefetch %a[%i + 1, %j], read, locality<2>, data : memref<65x64xf32>
      %y = affine.load %a[%i, %j] : memref<65x64xf32>
      %s = arith.addf %y, %y : f32
      affine.store %s, %a[%i, %j] : memref<65x64xf32>
    }
  }
  return
}
