// RUN: %pb-opt %s -split-input-file --pb-merge-parallel-regions | FileCheck %s

// Two regions with a sequential loop between them become one region: the
// view both use is computed once before it, the loop runs in an omp.single,
// and each worksharing loop keeps its own barrier.

// CHECK-LABEL: func.func @two_regions_and_a_loop
// CHECK:         %[[V:.*]] = memref.subview
// CHECK-NEXT:    omp.parallel {
// CHECK-NEXT:      omp.wsloop {
// CHECK:           omp.single {
// CHECK-NEXT:        scf.for
// CHECK:               memref.store %{{.*}}, %[[V]]
// CHECK:             omp.terminator
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.wsloop {
// CHECK:             memref.load %[[V]]
// CHECK:           omp.terminator
// CHECK-NEXT:    }
// CHECK-NOT:     omp.parallel
// CHECK:         memref.load %[[V]]
func.func @two_regions_and_a_loop(%a: memref<16xf32>, %b: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %v = memref.subview %a[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %b[%i] : memref<8xf32>
    memref.store %x, %v[%i] : memref<8xf32, strided<[1], offset: 8>>
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        %x = memref.load %v[%i] : memref<8xf32, strided<[1], offset: 8>>
        memref.store %x, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %r = memref.load %v[%c0] : memref<8xf32, strided<[1], offset: 8>>
  return %r : f32
}

// -----

// A value one thread would compute and the next region reads: not merged.

// CHECK-LABEL: func.func @value_between_regions
// CHECK:         omp.parallel {
// CHECK:         omp.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X:.*]] = memref.load
// CHECK-NEXT:    omp.parallel {
// CHECK:           memref.store %[[X]]
func.func @value_between_regions(%b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %x = memref.load %b[%c1] : memref<8xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %x, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A sequential loop around two parallel loops (a k block that packs, then
// computes) runs on every thread inside one region; what is between its
// regions runs on one thread, and the region that does not end at a
// barrier gets one.

// CHECK-LABEL: func.func @loop_around_regions
// CHECK:         omp.parallel {
// CHECK-NEXT:      scf.for %[[K:.*]] =
// CHECK-NEXT:        omp.wsloop {
// CHECK:             omp.single {
// CHECK-NEXT:          memref.store
// CHECK-NEXT:          omp.terminator
// CHECK-NEXT:        }
// CHECK-NEXT:        omp.wsloop nowait {
// CHECK:             omp.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NOT:     omp.parallel
func.func @loop_around_regions(%b: memref<8xf32>, %c: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.for %k = %c0 to %c4 step %c1 {
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
          memref.store %f, %b[%i] : memref<8xf32>
          omp.yield
        }
      }
      omp.terminator
    }
    memref.store %f, %c[%k] : memref<4xf32>
    omp.parallel {
      omp.wsloop nowait {
        omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
          %x = memref.load %c[%k] : memref<4xf32>
          memref.store %x, %b[%i] : memref<8xf32>
          omp.yield
        }
      }
      omp.terminator
    }
  }
  return
}

// -----

// Regions with clauses, and ops that hold a region themselves, stay apart.

// CHECK-LABEL: func.func @not_merged
// CHECK:         omp.parallel num_threads
// CHECK:         omp.parallel {
// CHECK:         scf.if
// CHECK-NEXT:      omp.parallel {
// CHECK:         omp.parallel {
func.func @not_merged(%b: memref<8xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  scf.if %p {
    omp.parallel {
      omp.terminator
    }
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
