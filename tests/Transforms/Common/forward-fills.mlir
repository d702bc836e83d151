// RUN: pb-opt %s -split-input-file -pb-forward-fills | FileCheck %s

// A fill followed by a nest that reads, updates and rewrites every element
// once: the fill nest disappears and the first read becomes the fill value.
// CHECK-LABEL: func @fill_folds_into_read_modify_write
// CHECK-SAME:    (%[[X:.*]]: memref<4x8xf32>, %[[T:.*]]: memref<4x8xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 8 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ZERO]], %[[V]]
// CHECK-NEXT:        affine.store %[[S]], %[[T]][%[[I]], %[[J]]]
// CHECK-NOT:     affine.for
func.func @fill_folds_into_read_modify_write(%x: memref<4x8xf32>, %t: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %zero, %t[%i, %j] : memref<4x8xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %v = affine.load %x[%i, %j] : memref<4x8xf32>
      %old = affine.load %t[%i, %j] : memref<4x8xf32>
      %s = arith.addf %old, %v : f32
      affine.store %s, %t[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

// -----

// A reader that visits each element several times (a reduction loop over k
// inside the band) still needs the fill.
// CHECK-LABEL: func @reduction_reader_keeps_the_fill
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:         affine.for
// CHECK:           affine.for
func.func @reduction_reader_keeps_the_fill(%x: memref<4x8xf32>, %t: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.store %zero, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 8 {
      %v = affine.load %x[%i, %k] : memref<4x8xf32>
      %old = affine.load %t[%i] : memref<4xf32>
      %s = arith.addf %old, %v : f32
      affine.store %s, %t[%i] : memref<4xf32>
    }
  }
  return
}

// -----

// A reader that does not read the element before writing it, or reads a
// neighbour, keeps the fill.
// CHECK-LABEL: func @shifted_read_keeps_the_fill
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:         affine.load %{{.*}}[%{{.*}} + 1]
func.func @shifted_read_keeps_the_fill(%t: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %zero, %t[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 7 {
    %old = affine.load %t[%i + 1] : memref<8xf32>
    affine.store %old, %t[%i] : memref<8xf32>
  }
  return
}

// -----

// Another user of the buffer between the fill and the reader keeps the fill.
// CHECK-LABEL: func @intervening_use_keeps_the_fill
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:         memref.copy
func.func @intervening_use_keeps_the_fill(%t: memref<8xf32>, %u: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %zero, %t[%i] : memref<8xf32>
  }
  memref.copy %t, %u : memref<8xf32> to memref<8xf32>
  affine.for %i = 0 to 8 {
    %old = affine.load %t[%i] : memref<8xf32>
    %s = arith.addf %old, %old : f32
    affine.store %s, %t[%i] : memref<8xf32>
  }
  return
}

// -----

// A nest between the fill and the read-modify-write reads the filled buffer
// through a view made before the fill: that nest reads the fill, which
// stays.
// CHECK-LABEL: func @reader_of_a_view_keeps_the_fill
// CHECK:         %[[ROW:.*]] = memref.subview
// CHECK:         affine.store %{{.*}}, %[[T:.*]][%{{.*}}, %{{.*}}] : memref<4x8xf32>
// CHECK:         affine.load %[[ROW]]
// CHECK:         %[[OLD:.*]] = affine.load %[[T]]
// CHECK:         arith.addf %[[OLD]]
func.func @reader_of_a_view_keeps_the_fill(%x: memref<4x8xf32>, %t: memref<4x8xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %row = memref.subview %t[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %zero, %t[%i, %j] : memref<4x8xf32>
    }
  }
  affine.for %j = 0 to 8 {
    %r = affine.load %row[%j] : memref<8xf32, strided<[1], offset: 8>>
    affine.store %r, %out[%j] : memref<8xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %v = affine.load %x[%i, %j] : memref<4x8xf32>
      %old = affine.load %t[%i, %j] : memref<4x8xf32>
      %s = arith.addf %old, %v : f32
      affine.store %s, %t[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

// -----

// The read-modify-write nest also reads the buffer through a view: not one
// access per element, the fill stays.
// CHECK-LABEL: func @view_read_in_the_reader_keeps_the_fill
// CHECK:         affine.store %{{.*}}, %[[T:.*]][%{{.*}}, %{{.*}}] : memref<4x8xf32>
// CHECK:         %[[OLD:.*]] = affine.load %[[T]]
func.func @view_read_in_the_reader_keeps_the_fill(%x: memref<4x8xf32>, %t: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %row = memref.subview %t[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %zero, %t[%i, %j] : memref<4x8xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %v = affine.load %x[%i, %j] : memref<4x8xf32>
      %w = affine.load %row[%j] : memref<8xf32, strided<[1], offset: 8>>
      %old = affine.load %t[%i, %j] : memref<4x8xf32>
      %s = arith.addf %old, %v : f32
      %s2 = arith.addf %s, %w : f32
      affine.store %s2, %t[%i, %j] : memref<4x8xf32>
    }
  }
  return
}
