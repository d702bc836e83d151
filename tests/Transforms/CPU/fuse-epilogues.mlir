// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 k-block=256" -pb-fuse-epilogues | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-register-tile-contraction="rows=4 lanes=16 k-block=8" -pb-fuse-epilogues | FileCheck %s --check-prefix=BLOCKED

// A bias add and ReLU after a matmul into a buffer of its own: computed on
// each 4 x 16 tile as it leaves the registers (the bias a vector, the
// constant broadcast), stored into D; C is read by nothing else, so its
// tiles are no longer stored, and the elementwise nest is gone.
// CHECK-LABEL: func @bias_relu_on_the_tiles
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x32xf32>, %[[BIAS:.*]]: memref<32xf32>, %[[D:.*]]: memref<8x32xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:           affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK:             %[[ACC:.*]]:4 = affine.for
// CHECK:             %[[BV:.*]] = affine.vector_load %[[BIAS]][%[[JT]]] : memref<32xf32>, vector<16xf32>
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]]#0, %[[BV]] : vector<16xf32>
// CHECK:             %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<16xf32>
// CHECK:             affine.vector_store %[[M]], %[[D]][%[[IT]], %[[JT]]] : memref<8x32xf32>, vector<16xf32>
// CHECK-COUNT-3:     affine.vector_store %{{.*}}, %[[D]]
// CHECK-NOT:         affine.vector_store %{{.*}}, %[[C]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.for
// CHECK:         return
// With the reduction in two k blocks, each tile is stored once per block:
// the epilogue would run twice.
// BLOCKED-LABEL: func @bias_relu_on_the_tiles
// BLOCKED-NOT:     pb-fuse-epilogues
// BLOCKED:         affine.load %{{.*}}[%{{.*}}] : memref<32xf32>
func.func @bias_relu_on_the_tiles(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %bias: memref<32xf32>, %d: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %bv = affine.load %bias[%j] : memref<32xf32>
      %s = arith.addf %v, %bv : f32
      %r = arith.maximumf %s, %zero : f32
      affine.store %r, %d[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  return
}

// -----

// The result is an argument (the caller reads it): its tiles stay, and
// the residual add is computed on them too; a per-row scale is one scalar
// broadcast along the lanes.
// CHECK-LABEL: func @result_read_by_the_caller
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x32xf32>, %[[SCALE:.*]]: memref<8xf32>, %[[R:.*]]: memref<8x32xf32>, %[[C:.*]]: memref<8x32xf32>, %[[D:.*]]: memref<8x32xf32>)
// CHECK:             %[[ACC:.*]]:4 = affine.for
// CHECK:             %[[RV:.*]] = affine.vector_load %[[R]][%[[IT:.*]], %[[JT:.*]]] : memref<8x32xf32>, vector<16xf32>
// CHECK:             %[[SV:.*]] = affine.load %[[SCALE]][%[[IT]]] : memref<8xf32>
// CHECK:             %[[SB:.*]] = vector.broadcast %[[SV]] : f32 to vector<16xf32>
// CHECK:             affine.vector_store %{{.*}}, %[[D]][%[[IT]], %[[JT]]]
// CHECK:             affine.vector_store %[[ACC]]#0, %[[C]][%[[IT]], %[[JT]]]
// CHECK:         pass = "pb-fuse-epilogues", result_stored = true
func.func @result_read_by_the_caller(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %scale: memref<8xf32>, %res: memref<8x32xf32>, %c: memref<8x32xf32>, %d: memref<8x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %rv = affine.load %res[%i, %j] : memref<8x32xf32>
      %sv = affine.load %scale[%i] : memref<8xf32>
      %p = arith.mulf %v, %sv : f32
      %s = arith.addf %p, %rv : f32
      affine.store %s, %d[%i, %j] : memref<8x32xf32>
    }
  }
  return
}

// -----

// A consumer that reads C transposed stores along the rows of the tile, not
// its lanes: left alone.
// CHECK-LABEL: func @transposed_read_left_alone
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         affine.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x32xf32>
func.func @transposed_read_left_alone(%a: memref<32x16xf32>, %b: memref<16x32xf32>, %c: memref<32x32xf32>, %d: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<32x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<32x32xf32>
      }
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%j, %i] : memref<32x32xf32>
      %e = math.exp %v : f32
      affine.store %e, %d[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

// -----

// Two layers in a row: each elementwise nest goes into the tiles of the
// matmul before it (the erased nests are not visited again).
// CHECK-LABEL: func @two_layers
// CHECK-COUNT-2: pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     math.tanh %{{.*}} : f32
func.func @two_layers(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %b2: memref<32x16xf32>, %d: memref<8x16xf32>) {
  %c = memref.alloc() : memref<8x32xf32>
  %h = memref.alloc() : memref<8x32xf32>
  %c2 = memref.alloc() : memref<8x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %t = math.tanh %v : f32
      affine.store %t, %h[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 16 {
        %x = affine.load %h[%i, %k] : memref<8x32xf32>
        %y = affine.load %b2[%k, %j] : memref<32x16xf32>
        %z = affine.load %c2[%i, %j] : memref<8x16xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c2[%i, %j] : memref<8x16xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %v = affine.load %c2[%i, %j] : memref<8x16xf32>
      %t = math.tanh %v : f32
      affine.store %t, %d[%i, %j] : memref<8x16xf32>
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  memref.dealloc %h : memref<8x32xf32>
  memref.dealloc %c2 : memref<8x16xf32>
  return
}

// -----

// A convolution-shaped nest (a batch loop around the rows) whose
// elementwise nest writes the interior of the next layer's padded buffer
// (a subview), after the nests that fill its border rows; batch norm's
// shift arrives as memref<16x1x1xf32>, read [%c, 0, 0]. The border fills
// touch nothing the producer touches: they move above it, with their views.
// The shift is read as a vector of its buffer collapsed to one dimension;
// the tiles are stored into the interior; the pack buffer's deallocation
// stays after the producer.
// CHECK-LABEL: func @into_padded_interior
// CHECK-SAME:    (%{{.*}}: memref<2x8x16xf32>, %{{.*}}: memref<16x16xf32>, %[[SHIFT:.*]]: memref<16x1x1xf32>, %[[P:.*]]: memref<2x10x16xf32>)
// CHECK:         %[[TOP:.*]] = memref.subview %[[P]][0, 0, 0] [2, 1, 16]
// CHECK:         affine.store %{{.*}}, %[[TOP]]
// CHECK:         %[[BOTTOM:.*]] = memref.subview %[[P]][0, 9, 0] [2, 1, 16]
// CHECK:         affine.store %{{.*}}, %[[BOTTOM]]
// CHECK:         %[[IN:.*]] = memref.subview %[[P]][0, 1, 0] [2, 8, 16]
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[SHIFT]] {{\[\[}}0, 1, 2]] : memref<16x1x1xf32> into memref<16xf32>
// CHECK:         affine.for %[[B:.*]] = 0 to 2 {
// CHECK:           affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK:             affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK:               %[[ACC:.*]]:4 = affine.for
// CHECK:               %[[SV:.*]] = affine.vector_load %[[FLAT]][%[[JT]]] : memref<16xf32>, vector<16xf32>
// CHECK:               %[[S:.*]] = arith.addf %[[ACC]]#0, %[[SV]] : vector<16xf32>
// CHECK:               affine.vector_store %{{.*}}, %[[IN]][%[[B]], %[[IT]], %[[JT]]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NEXT:    memref.dealloc
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @into_padded_interior(%x: memref<2x8x16xf32>, %y: memref<16x16xf32>, %shift: memref<16x1x1xf32>, %p: memref<2x10x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x8x16xf32>
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        affine.store %zero, %c[%b, %i, %j] : memref<2x8x16xf32>
      }
    }
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 16 {
          %a = affine.load %x[%b, %i, %k] : memref<2x8x16xf32>
          %w = affine.load %y[%k, %j] : memref<16x16xf32>
          %acc = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
          %m = arith.mulf %a, %w : f32
          %s = arith.addf %acc, %m : f32
          affine.store %s, %c[%b, %i, %j] : memref<2x8x16xf32>
        }
      }
    }
  }
  %top = memref.subview %p[0, 0, 0] [2, 1, 16] [1, 1, 1] : memref<2x10x16xf32> to memref<2x1x16xf32, strided<[160, 16, 1]>>
  affine.for %b = 0 to 2 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %top[%b, 0, %j] : memref<2x1x16xf32, strided<[160, 16, 1]>>
    }
  }
  %bottom = memref.subview %p[0, 9, 0] [2, 1, 16] [1, 1, 1] : memref<2x10x16xf32> to memref<2x1x16xf32, strided<[160, 16, 1], offset: 144>>
  affine.for %b = 0 to 2 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %bottom[%b, 0, %j] : memref<2x1x16xf32, strided<[160, 16, 1], offset: 144>>
    }
  }
  %in = memref.subview %p[0, 1, 0] [2, 8, 16] [1, 1, 1] : memref<2x10x16xf32> to memref<2x8x16xf32, strided<[160, 16, 1], offset: 16>>
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        %v = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
        %sh = affine.load %shift[%j, 0, 0] : memref<16x1x1xf32>
        %s = arith.addf %v, %sh : f32
        %r = arith.maximumf %s, %zero : f32
        affine.store %r, %in[%b, %i, %j] : memref<2x8x16xf32, strided<[160, 16, 1], offset: 16>>
      }
    }
  }
  memref.dealloc %c : memref<2x8x16xf32>
  return
}

// -----

// A nest between the producer and the elementwise nest that rewrites the
// row factor, which the producer reads in place: it is not moved above the
// producer, and being the next nest to touch the producer's buffers it is
// the only candidate: it does not read C, so nothing is fused. (The column
// factor is read by the pack nest before the producer, not by it: a writer
// of that one may move above the producer.)
// CHECK-LABEL: func @writer_of_a_factor_between
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x8x16xf32>
// CHECK:         arith.maximumf %{{.*}} : f32
func.func @writer_of_a_factor_between(%x: memref<2x8x16xf32>, %y: memref<16x16xf32>, %d: memref<2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x8x16xf32>
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 16 {
          %a = affine.load %x[%b, %i, %k] : memref<2x8x16xf32>
          %w = affine.load %y[%k, %j] : memref<16x16xf32>
          %acc = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
          %m = arith.mulf %a, %w : f32
          %s = arith.addf %acc, %m : f32
          affine.store %s, %c[%b, %i, %j] : memref<2x8x16xf32>
        }
      }
    }
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.store %zero, %x[%b, %i, %k] : memref<2x8x16xf32>
      }
    }
  }
  affine.for %b = 0 to 2 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        %v = affine.load %c[%b, %i, %j] : memref<2x8x16xf32>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %d[%b, %i, %j] : memref<2x8x16xf32>
      }
    }
  }
  memref.dealloc %c : memref<2x8x16xf32>
  return
}

// -----

// Two matmuls of one operand (a layer's query and key projections, a
// block's two convolutions of its input), then the first one's epilogue:
// the second matmul reads what the first reads and writes nothing it
// touches, so it moves above the first, which computes its bias and ReLU
// on its tiles; then the first, now between the second and its epilogue,
// moves above it in turn. Both results' passes over memory are gone.
// CHECK-LABEL: func @matmuls_of_one_operand
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %{{.*}}: memref<16x32xf32>, %{{.*}}: memref<16x32xf32>, %[[BIAS:.*]]: memref<32xf32>, %[[D:.*]]: memref<8x32xf32>, %[[E:.*]]: memref<8x32xf32>)
// CHECK:         %[[C1:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         %[[C2:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         affine.vector_load %[[BIAS]]
// CHECK:         affine.vector_store %{{.*}}, %[[D]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK:         arith.maximumf %{{.*}} : vector<16xf32>
// CHECK:         affine.vector_store %{{.*}}, %[[E]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.vector_store %{{.*}}, %[[C1]]
// CHECK-NOT:     affine.vector_store %{{.*}}, %[[C2]]
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @matmuls_of_one_operand(%a: memref<8x16xf32>, %b1: memref<16x32xf32>, %b2: memref<16x32xf32>, %bias: memref<32xf32>, %d: memref<8x32xf32>, %e: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<8x32xf32>
  %c2 = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c1[%i, %j] : memref<8x32xf32>
      affine.store %zero, %c2[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b1[%k, %j] : memref<16x32xf32>
        %z = affine.load %c1[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c1[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b2[%k, %j] : memref<16x32xf32>
        %z = affine.load %c2[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c2[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c1[%i, %j] : memref<8x32xf32>
      %bv = affine.load %bias[%j] : memref<32xf32>
      %s = arith.addf %v, %bv : f32
      %r = arith.maximumf %s, %zero : f32
      affine.store %r, %d[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c2[%i, %j] : memref<8x32xf32>
      %r = arith.maximumf %v, %zero : f32
      affine.store %r, %e[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %c2 : memref<8x32xf32>
  memref.dealloc %c1 : memref<8x32xf32>
  return
}

// -----

// A residual add of two matmuls of one operand (ResNet's downsampling
// block: the main path's last convolution, the shortcut's, then their
// sum): the shortcut's matmul moves above the main one, whose tiles then
// add the shortcut's result, read as vectors, and store the sum. The
// shortcut's result is stored: the sum reads it.
// CHECK-LABEL: func @residual_of_two_matmuls
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %{{.*}}: memref<16x32xf32>, %{{.*}}: memref<16x32xf32>, %[[D:.*]]: memref<8x32xf32>)
// CHECK:         %[[C1:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         %[[C2:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         affine.vector_store %{{.*}}, %[[C2]]
// CHECK:         affine.vector_load %[[C2]]
// CHECK:         arith.addf %{{.*}} : vector<16xf32>
// CHECK:         affine.vector_store %{{.*}}, %[[D]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.vector_store %{{.*}}, %[[C1]]
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @residual_of_two_matmuls(%a: memref<8x16xf32>, %b1: memref<16x32xf32>, %b2: memref<16x32xf32>, %d: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<8x32xf32>
  %c2 = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c1[%i, %j] : memref<8x32xf32>
      affine.store %zero, %c2[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b1[%k, %j] : memref<16x32xf32>
        %z = affine.load %c1[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c1[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b2[%k, %j] : memref<16x32xf32>
        %z = affine.load %c2[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c2[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c1[%i, %j] : memref<8x32xf32>
      %w = affine.load %c2[%i, %j] : memref<8x32xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %d[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %c2 : memref<8x32xf32>
  memref.dealloc %c1 : memref<8x32xf32>
  return
}


// -----

// The consumer reads C through a reshape of it (a dense layer of [batch,
// sequence] rows by [heads, features] columns, its bias [1, 1, heads,
// features] as jaxlib's DenseGeneral adds it): each tile store's row and
// column are split into the consumer's subscripts (the 16 lanes stay in a
// row of 16 features), the bias read as a vector there. The bias is read
// through its buffer collapsed to one dimension, where the split's floordiv
// and mod cancel; D, of C's shape as read and at C's subscripts, through
// its buffer reshaped as the tiles store C, at the tile store's subscripts
// (so that dependence analysis sees the tiles' own accesses).
// CHECK-LABEL: func @through_expand_shape
// CHECK-SAME:    (%{{.*}}: memref<8x16xf32>, %{{.*}}: memref<16x32xf32>, %[[BIAS:.*]]: memref<1x1x2x16xf32>, %[[D:.*]]: memref<2x4x2x16xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:         %[[BF:.*]] = memref.collapse_shape %[[BIAS]] {{\[\[}}0, 1, 2, 3{{\]\]}} : memref<1x1x2x16xf32> into memref<32xf32>
// CHECK:         %[[DT:.*]] = memref.collapse_shape %[[D]] {{\[\[}}0, 1], [2, 3{{\]\]}} : memref<2x4x2x16xf32> into memref<8x32xf32>
// CHECK:         affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:           affine.for %[[IT:.*]] = 0 to 8 step 4 {
// CHECK:             %[[BV:.*]] = affine.vector_load %[[BF]][%[[JT]]] : memref<32xf32>, vector<16xf32>
// CHECK:             arith.addf %{{.*}}, %[[BV]] : vector<16xf32>
// CHECK:             affine.vector_store %{{.*}}, %[[DT]][%[[IT]], %[[JT]]] : memref<8x32xf32>, vector<16xf32>
// CHECK-NOT:         affine.vector_store %{{.*}}, %[[C]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @through_expand_shape(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %bias: memref<1x1x2x16xf32>, %d: memref<2x4x2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  %v = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 4, 2, 16] : memref<8x32xf32> into memref<2x4x2x16xf32>
  affine.for %b0 = 0 to 2 {
    affine.for %s0 = 0 to 4 {
      affine.for %h = 0 to 2 {
        affine.for %f = 0 to 16 {
          %x = affine.load %v[%b0, %s0, %h, %f] : memref<2x4x2x16xf32>
          %y = affine.load %bias[0, 0, %h, %f] : memref<1x1x2x16xf32>
          %s = arith.addf %x, %y : f32
          affine.store %s, %d[%b0, %s0, %h, %f] : memref<2x4x2x16xf32>
        }
      }
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  return
}

// -----

// The tiles store into a collapsed view of the buffer the consumer reads
// (C allocated as [batch, sequence, heads, features]): the same split.
// C is read by the consumer alone, so its tiles are no longer stored.
// CHECK-LABEL: func @into_collapse_shape
// CHECK-SAME:    (%{{.*}}: memref<8x16xf32>, %{{.*}}: memref<16x32xf32>, %[[D:.*]]: memref<2x4x2x16xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() : memref<2x4x2x16xf32>
// CHECK:         %[[DT:.*]] = memref.collapse_shape %[[D]] {{\[\[}}0, 1], [2, 3{{\]\]}} : memref<2x4x2x16xf32> into memref<8x32xf32>
// CHECK:         arith.maximumf %{{.*}} : vector<16xf32>
// CHECK:         affine.vector_store %{{.*}}, %[[DT]][%{{.*}}, %{{.*}}] : memref<8x32xf32>, vector<16xf32>
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.vector_store
// CHECK:         return
func.func @into_collapse_shape(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %d: memref<2x4x2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c4 = memref.alloc() : memref<2x4x2x16xf32>
  %c = memref.collapse_shape %c4 [[0, 1], [2, 3]] : memref<2x4x2x16xf32> into memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %b0 = 0 to 2 {
    affine.for %s0 = 0 to 4 {
      affine.for %h = 0 to 2 {
        affine.for %f = 0 to 16 {
          %x = affine.load %c4[%b0, %s0, %h, %f] : memref<2x4x2x16xf32>
          %r = arith.maximumf %x, %zero : f32
          affine.store %r, %d[%b0, %s0, %h, %f] : memref<2x4x2x16xf32>
        }
      }
    }
  }
  memref.dealloc %c4 : memref<2x4x2x16xf32>
  return
}

// -----

// Rows of 8 features split off 16-lane tiles: a vector would span two
// rows of the consumer's view, so nothing is fused.
// CHECK-LABEL: func @reshape_splitting_the_lanes
// CHECK-NOT:     pb-fuse-epilogues
// CHECK:         affine.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<8x4x8xf32>
func.func @reshape_splitting_the_lanes(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %d: memref<8x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  %v = memref.expand_shape %c [[0], [1, 2]] output_shape [8, 4, 8] : memref<8x32xf32> into memref<8x4x8xf32>
  affine.for %i = 0 to 8 {
    affine.for %h = 0 to 4 {
      affine.for %f = 0 to 8 {
        %x = affine.load %v[%i, %h, %f] : memref<8x4x8xf32>
        %r = arith.maximumf %x, %zero : f32
        affine.store %r, %d[%i, %h, %f] : memref<8x4x8xf32>
      }
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  return
}

// -----

// A nest between whose loads and stores are under an affine.if (as the
// register tiler packs a panel at the first row block) commutes with the
// producer all the same: it moves above it, and the ReLU after it is
// computed on the tiles.
// CHECK-LABEL: func @conditional_nest_between
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %{{.*}}: memref<16x32xf32>, %[[D:.*]]: memref<8x32xf32>, %[[E:.*]]: memref<8x16xf32>)
// CHECK:         affine.if
// CHECK:           affine.store %{{.*}}, %[[E]]
// CHECK:         arith.maximumf %{{.*}} : vector<16xf32>
// CHECK:         affine.vector_store %{{.*}}, %[[D]]
// CHECK:         } {pb.decisions = [{{.*}}{pass = "pb-fuse-epilogues", result_stored = false
// CHECK-NOT:     affine.for
// CHECK:         return
func.func @conditional_nest_between(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %d: memref<8x32xf32>, %e: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.if affine_set<(d0) : (d0 == 0)>(%i) {
      affine.for %k = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        affine.store %x, %e[%i, %k] : memref<8x16xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<8x32xf32>
      %r = arith.maximumf %v, %zero : f32
      affine.store %r, %d[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %c : memref<8x32xf32>
  return
}
