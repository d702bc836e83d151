// RUN: pb-opt %s -split-input-file -pb-register-tile-depthwise | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-register-tile-depthwise=columns=4 | FileCheck %s --check-prefix=FOUR

// An AVX2 machine (16 registers of 256 bits): up to 6 output columns of 8
// channels; 18 columns are three tiles of 6. The accumulators are loaded
// once, carried through the window loops, stored once; each window step
// loads one filter vector and one input vector per column. The kw loop
// is marked for LLVM to unroll fully: the columns then share the input
// vectors of neighbouring steps.
// CHECK:       #[[FULL:.*]] = #llvm.loop_unroll<full = true>
// CHECK:       #[[UNROLL:.*]] = #llvm.loop_annotation<unroll = #[[FULL]]>
// CHECK-LABEL: func.func @depthwise
// CHECK:         affine.for %[[H:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.for %[[W0:.*]] = 0 to 18 step 6 {
// CHECK-NEXT:        affine.for %[[C0:.*]] = 0 to 32 step 8 {
// CHECK:               %[[A0:.*]] = affine.vector_load %[[OUT:.*]][%[[H]], %[[W0]], %[[C0]]] : memref<16x18x32xf32>, vector<8xf32>
// CHECK:               %[[A5:.*]] = affine.vector_load %[[OUT]][%[[H]], %[[W0]] + 5, %[[C0]]] : memref<16x18x32xf32>, vector<8xf32>
// CHECK:               %[[R:.*]]:6 = affine.for %[[KH:.*]] = 0 to 3 iter_args(%{{.*}} = %[[A0]], {{.*}}) -> (vector<8xf32>, {{.*}}) {
// CHECK-NEXT:            %{{.*}}:6 = affine.for %[[KW:.*]] = 0 to 3 iter_args
// CHECK-NEXT:              %[[F:.*]] = affine.vector_load %[[FILTER:.*]][%[[KH]], %[[KW]], %[[C0]]] : memref<3x3x32xf32>, vector<8xf32>
// CHECK-NEXT:              %[[X0:.*]] = affine.vector_load %[[IN:.*]][%[[H]] + %[[KH]], %[[W0]] + %[[KW]], %[[C0]]] : memref<18x20x32xf32>, vector<8xf32>
// CHECK-NEXT:              vector.fma %[[X0]], %[[F]], %{{.*}} : vector<8xf32>
// CHECK-COUNT-5:           vector.fma
// CHECK-NEXT:              affine.yield
// CHECK-NEXT:            } {loop_annotation = #[[UNROLL]]}
// CHECK-NEXT:            affine.yield
// CHECK-NEXT:          }{{$}}
// CHECK:               affine.vector_store %[[R]]#0, %[[OUT]][%[[H]], %[[W0]], %[[C0]]]
// CHECK:               affine.vector_store %[[R]]#5, %[[OUT]][%[[H]], %[[W0]] + 5, %[[C0]]]
// CHECK-NOT:     affine.load
// CHECK:         } {pb.decisions = [{columns = 6 : i64, fill_folded = false, lanes = 8 : i64, pass = "pb-register-tile-depthwise", stores_once = true
// CHECK-SAME:    the innermost window loop unrolled (by LLVM), the input vectors neighbouring columns share loaded once", window_row_unrolled = true}
// With at most 4 columns: six tiles of 3 (the largest divisor of 18 above
// half the budget).
// FOUR-LABEL: func.func @depthwise
// FOUR:         affine.for %{{.*}} = 0 to 18 step 3 {
// FOUR:         } {pb.decisions = [{columns = 3 : i64
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @depthwise(%in: memref<18x20x32xf32>, %f: memref<3x3x32xf32>, %out: memref<16x18x32xf32>) {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %x = affine.load %in[%h + %kh, %w + %kw, %c] : memref<18x20x32xf32>
              %y = affine.load %f[%kh, %kw, %c] : memref<3x3x32xf32>
              %acc = affine.load %out[%h, %w, %c] : memref<16x18x32xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %out[%h, %w, %c] : memref<16x18x32xf32>
            }
          }
        }
      }
    }
    return
  }
}

// -----

// 17 columns, no divisor from 3 to 6: two tiles of 6, then one of the 5
// columns left over.
// CHECK-LABEL: func.func @columns_left_over
// CHECK:         affine.for %{{.*}} = 0 to 12 step 6 {
// CHECK:         affine.vector_load %{{.*}}[%{{.*}}, 12, %[[C0:.*]]]
// CHECK:         affine.vector_load %{{.*}}[%{{.*}}, 16, %[[C0]]]
// CHECK-COUNT-5:   vector.fma
// CHECK-NOT:       vector.fma
// CHECK:           affine.yield
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @columns_left_over(%in: memref<18x19x32xf32>, %f: memref<3x3x32xf32>, %out: memref<16x17x32xf32>) {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 17 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %x = affine.load %in[%h + %kh, %w + %kw, %c] : memref<18x19x32xf32>
              %y = affine.load %f[%kh, %kw, %c] : memref<3x3x32xf32>
              %acc = affine.load %out[%h, %w, %c] : memref<16x17x32xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %out[%h, %w, %c] : memref<16x17x32xf32>
            }
          }
        }
      }
    }
    return
  }
}

// -----

// Left alone: channels no multiple of the vector width; a filter that
// moves with the output columns (not shared by a tile); an accumulator
// that moves with the window (not a reduction).
// CHECK-LABEL: func.func @not_depthwise
// CHECK-NOT:     vector.fma
// CHECK-NOT:     pb-register-tile-depthwise
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @not_depthwise(%in: memref<18x20x12xf32>, %f: memref<3x18x32xf32>, %out: memref<16x18x12xf32>,
                           %in2: memref<18x20x32xf32>, %out2: memref<16x18x32xf32>, %out3: memref<16x18x3x32xf32>) {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kw = 0 to 3 {
          affine.for %c = 0 to 12 {
            %x = affine.load %in[%h, %w + %kw, %c] : memref<18x20x12xf32>
            %acc = affine.load %out[%h, %w, %c] : memref<16x18x12xf32>
            %p = arith.mulf %x, %x : f32
            %s = arith.addf %acc, %p : f32
            affine.store %s, %out[%h, %w, %c] : memref<16x18x12xf32>
          }
        }
      }
    }
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kw = 0 to 3 {
          affine.for %c = 0 to 32 {
            %x = affine.load %in2[%h, %w + %kw, %c] : memref<18x20x32xf32>
            %y = affine.load %f[%kw, %w, %c] : memref<3x18x32xf32>
            %acc = affine.load %out2[%h, %w, %c] : memref<16x18x32xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %p : f32
            affine.store %s, %out2[%h, %w, %c] : memref<16x18x32xf32>
          }
        }
      }
    }
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kw = 0 to 3 {
          affine.for %c = 0 to 32 {
            %x = affine.load %in2[%h, %w + %kw, %c] : memref<18x20x32xf32>
            %y = affine.load %f[%kw, 0, %c] : memref<3x18x32xf32>
            %acc = affine.load %out3[%h, %w, %kw, %c] : memref<16x18x3x32xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %p : f32
            affine.store %s, %out3[%h, %w, %kw, %c] : memref<16x18x3x32xf32>
          }
        }
      }
    }
    return
  }
}

// -----

// A fill of the output right before the nest (a bufferized linalg.fill):
// the accumulators start as a splat of its value, the fill nest goes.
// CHECK-LABEL: func.func @fill_folded
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NOT:     affine.store
// CHECK:         %[[SPLAT:.*]] = vector.broadcast %[[HALF]] : f32 to vector<8xf32>
// CHECK:         affine.for %{{.*}} = 0 to 3 iter_args(%{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]], %{{.*}} = %[[SPLAT]])
// CHECK-NOT:     affine.vector_load %arg2
// CHECK:         fill_folded = true
// CHECK-SAME:    the accumulators start from the value the nest before filled the result with
// A view of the output read between the fill and the nest keeps the fill.
// CHECK-LABEL: func.func @fill_read_between
// CHECK:         affine.store %{{.*}}, %arg2
// CHECK:         fill_folded = false
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @fill_folded(%in: memref<18x20x32xf32>, %f: memref<3x3x32xf32>, %out: memref<16x18x32xf32>) {
    %half = arith.constant 0.5 : f32
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %c = 0 to 32 {
          affine.store %half, %out[%h, %w, %c] : memref<16x18x32xf32>
        }
      }
    }
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %x = affine.load %in[%h + %kh, %w + %kw, %c] : memref<18x20x32xf32>
              %y = affine.load %f[%kh, %kw, %c] : memref<3x3x32xf32>
              %acc = affine.load %out[%h, %w, %c] : memref<16x18x32xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %out[%h, %w, %c] : memref<16x18x32xf32>
            }
          }
        }
      }
    }
    return
  }
  func.func @fill_read_between(%in: memref<18x20x32xf32>, %f: memref<3x3x32xf32>, %out: memref<16x18x32xf32>, %copy: memref<32xf32>) {
    %half = arith.constant 0.5 : f32
    %row = memref.subview %out[0, 0, 0] [1, 1, 32] [1, 1, 1] : memref<16x18x32xf32> to memref<32xf32, strided<[1]>>
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %c = 0 to 32 {
          affine.store %half, %out[%h, %w, %c] : memref<16x18x32xf32>
        }
      }
    }
    affine.for %c = 0 to 32 {
      %v = affine.load %row[%c] : memref<32xf32, strided<[1]>>
      affine.store %v, %copy[%c] : memref<32xf32>
    }
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 18 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %x = affine.load %in[%h + %kh, %w + %kw, %c] : memref<18x20x32xf32>
              %y = affine.load %f[%kh, %kw, %c] : memref<3x3x32xf32>
              %acc = affine.load %out[%h, %w, %c] : memref<16x18x32xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %out[%h, %w, %c] : memref<16x18x32xf32>
            }
          }
        }
      }
    }
    return
  }
}

// -----

// A window row of 9 steps: left a loop (unrolled, its 9 steps times the
// columns' input vectors would outgrow the registers).
// CHECK-LABEL: func.func @long_window_row
// CHECK-NOT:     loop_annotation
// CHECK:         window_row_unrolled = false
module attributes {pb.machine = {vector_bits = 256 : i64, vector_registers = 16 : i64}} {
  func.func @long_window_row(%in: memref<26x32xf32>, %f: memref<9x32xf32>, %out: memref<18x32xf32>) {
    affine.for %w = 0 to 18 {
      affine.for %kw = 0 to 9 {
        affine.for %c = 0 to 32 {
          %x = affine.load %in[%w + %kw, %c] : memref<26x32xf32>
          %y = affine.load %f[%kw, %c] : memref<9x32xf32>
          %acc = affine.load %out[%w, %c] : memref<18x32xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %out[%w, %c] : memref<18x32xf32>
        }
      }
    }
    return
  }
}
