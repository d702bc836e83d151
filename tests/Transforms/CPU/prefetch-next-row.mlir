// RUN: pb-opt %s -split-input-file -pb-prefetch-next-row | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-prefetch-next-row="lines-per-chunk=2" | FileCheck %s --check-prefix=CHUNK2

// A softmax-like row kernel: the first pass reads the row from memory; the
// heaviest later pass (exp, store, sum) is cut into chunks of 8 lines of 16
// f32, each of which first prefetches the same lines of the next row (the
// last row prefetches the first).
// CHECK-DAG:   #[[LO:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[HI:.*]] = affine_map<(d0) -> (d0 + 128)>
// CHECK-LABEL: func @softmax_rows
// CHECK-SAME:    (%[[X:.*]]: memref<64x256xf32>, %[[OUT:.*]]: memref<64x256xf32>)
// CHECK:         affine.parallel (%[[I:.*]]) = (0) to (64) {
// CHECK:           affine.for %{{.*}} = 0 to 256 iter_args
// CHECK-NOT:         affine.prefetch
// CHECK:             arith.maximumf
// CHECK:           %[[SUM:.*]] = affine.for %[[JJ:.*]] = 0 to 256 step 128 iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        affine.for %[[L:.*]] = #[[LO]](%[[JJ]]) to #[[HI]](%[[JJ]]) step 16 {
// CHECK-NEXT:          affine.prefetch %[[X]][(%[[I]] + 1) mod 64, %[[L]]], read, locality<3>, data
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[R:.*]] = affine.for %[[J:.*]] = #[[LO]](%[[JJ]]) to #[[HI]](%[[JJ]]) iter_args(%{{.*}} = %[[A]]) -> (f32) {
// CHECK:               math.exp
// CHECK:             affine.yield %[[R]] : f32
// CHECK:           arith.divf %{{.*}}, %[[SUM]]
// CHECK:           affine.for %{{.*}} = 0 to 256 {
// CHECK-NOT:         affine.prefetch
// CHECK:           }
// CHUNK2-LABEL: func @softmax_rows
// CHUNK2:         affine.for %{{.*}} = 0 to 256 step 32 iter_args
func.func @softmax_rows(%x: memref<64x256xf32>, %out: memref<64x256xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  affine.parallel (%i) = (0) to (64) {
    %m = affine.for %j = 0 to 256 iter_args(%a = %ninf) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<64x256xf32>
      %r = arith.maximumf %v, %a : f32
      affine.yield %r : f32
    }
    %s = affine.for %j = 0 to 256 iter_args(%a = %zero) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<64x256xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      affine.store %e, %out[%i, %j] : memref<64x256xf32>
      %r = arith.addf %e, %a : f32
      affine.yield %r : f32
    }
    %inv = arith.divf %one, %s : f32
    affine.for %j = 0 to 256 {
      %v = affine.load %out[%i, %j] : memref<64x256xf32>
      %q = arith.mulf %v, %inv : f32
      affine.store %q, %out[%i, %j] : memref<64x256xf32>
    }
  }
  return
}

// -----

// A sequential row loop and a later pass without results: the same
// chunks, without iter_args; f64 lines hold 8 elements.
// CHECK-LABEL: func @sequential_rows_f64
// CHECK:         affine.for %[[I:.*]] = 0 to 16 {
// CHECK:           affine.for %[[JJ:.*]] = 0 to 128 step 64 {
// CHECK-NEXT:        affine.for %[[L:.*]] = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) step 8 {
// CHECK-NEXT:          affine.prefetch %{{.*}}[(%[[I]] + 1) mod 16, %[[L]]]
// CHECK:             affine.for %{{.*}} = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) {
// CHECK:               arith.subf
func.func @sequential_rows_f64(%x: memref<16x128xf64>, %out: memref<16x128xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 16 {
    %s = affine.for %j = 0 to 128 iter_args(%a = %zero) -> (f64) {
      %v = affine.load %x[%i, %j] : memref<16x128xf64>
      %r = arith.addf %v, %a : f64
      affine.yield %r : f64
    }
    affine.for %j = 0 to 128 {
      %v = affine.load %x[%i, %j] : memref<16x128xf64>
      %d = arith.subf %v, %s : f64
      affine.store %d, %out[%i, %j] : memref<16x128xf64>
    }
  }
  return
}

// -----

// A buffer the nest writes (an in-place update) is not prefetched: the
// next row may not hold its final values yet. One pass only, or rows that
// are not whole cache lines: nothing to do either.
// CHECK-LABEL: func @nothing_to_prefetch
// CHECK-NOT:     affine.prefetch
func.func @nothing_to_prefetch(%x: memref<16x128xf32>, %y: memref<16x128xf32>, %z: memref<16x100xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    %s = affine.for %j = 0 to 128 iter_args(%a = %zero) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<16x128xf32>
      %r = arith.addf %v, %a : f32
      affine.yield %r : f32
    }
    affine.for %j = 0 to 128 {
      %v = affine.load %x[%i, %j] : memref<16x128xf32>
      %d = arith.subf %v, %s : f32
      affine.store %d, %x[%i, %j] : memref<16x128xf32>
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 128 {
      %v = affine.load %y[%i, %j] : memref<16x128xf32>
      %d = arith.addf %v, %v : f32
      affine.store %d, %y[%i, %j] : memref<16x128xf32>
    }
  }
  affine.for %i = 0 to 16 {
    %s = affine.for %j = 0 to 100 iter_args(%a = %zero) -> (f32) {
      %v = affine.load %z[%i, %j] : memref<16x100xf32>
      %r = arith.addf %v, %a : f32
      affine.yield %r : f32
    }
    affine.for %j = 0 to 100 {
      %v = affine.load %z[%i, %j] : memref<16x100xf32>
      %d = arith.subf %v, %s : f32
      affine.store %d, %y[%i, %j] : memref<16x128xf32>
    }
  }
  return
}
