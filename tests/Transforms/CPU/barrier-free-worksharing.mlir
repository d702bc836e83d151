// RUN: %pb-opt %s -split-input-file --pb-barrier-free-worksharing='chunks-per-thread=4' | FileCheck %s

// A region's worksharing loop (two loops collapsed) and single become parts
// whose iterations the threads claim: the counters (one claim word per home
// range, then the done word, 8 words apart) are zeroed before the region;
// each thread numbers itself and claims chunks of its own range first
// (@__pb_claim_chunk: a compare-and-swap that takes half of what is left,
// never past the range's end), adds what it computed to `done` once and
// waits until `done` reaches the part's limit (@__pb_wait_done: 1000
// pauses, then 20 us sleeps), which is where the next part starts. The
// single is a part of one iteration (it reads what the loop wrote: the loop
// waits). No barrier and no worksharing construct remain; the two helpers
// are not inlined.

// CHECK-LABEL: func.func private @__pb_wait_done
// CHECK-SAME:      (%[[W_COUNTERS:.*]]: memref<24xi64>, %[[W_WORD:.*]]: index, %[[W_LIMIT:.*]]: i64)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK:         scf.while (%[[SPINS:.*]] = %{{.*}}) : (i64) -> i64 {
// CHECK:           %[[DONE:.*]] = memref.atomic_rmw addi %{{.*}}, %[[W_COUNTERS]][%[[W_WORD]]]
// CHECK:           arith.cmpi ult, %[[DONE]], %[[W_LIMIT]] : i64
// CHECK:         } do {
// CHECK:           %[[SPINNING:.*]] = arith.cmpi ult, %{{.*}}, %c1000_i64
// CHECK:           scf.if %[[SPINNING]] {
// CHECK:             llvm.call_intrinsic "llvm.x86.sse2.pause"
// CHECK:           } else {
// CHECK:             func.call @usleep(%c20_i32)
// CHECK-LABEL: func.func private @__pb_claim_chunk
// CHECK-SAME:      (%[[C_COUNTERS:.*]]: memref<24xi64>, %[[C_WORD:.*]]: index, %[[START:.*]]: i64, %[[END:.*]]: i64, %[[SMALLEST:.*]]: i64) -> (i64, i64)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK:         %[[OLD:.*]] = memref.generic_atomic_rmw %[[C_COUNTERS]][%[[C_WORD]]]
// CHECK-NEXT:    ^bb0(%[[CUR:.*]]: i64):
// CHECK-NEXT:      %[[FROM:.*]] = arith.maxui %[[CUR]], %[[START]] : i64
// CHECK-NEXT:      %[[OPEN:.*]] = arith.cmpi ult, %[[FROM]], %[[END]] : i64
// CHECK:           %[[TO:.*]] = arith.minui %{{.*}}, %[[END]] : i64
// CHECK-NEXT:      %[[NEXT:.*]] = arith.select %[[OPEN]], %[[TO]], %[[CUR]] : i64
// CHECK-NEXT:      memref.atomic_yield %[[NEXT]] : i64
// CHECK:         %[[CLAIMED:.*]] = arith.maxui %[[OLD]], %[[START]] : i64
// CHECK:         return %[[CLAIMED]], %{{.*}} : i64, i64
// CHECK-LABEL: func.func private @usleep(i32) -> i32
// CHECK-LABEL: func.func private @omp_get_thread_num() -> i32
// CHECK-LABEL: func.func @loop_then_single
// CHECK:         %[[COUNTERS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<24xi64>
// CHECK-COUNT-3: memref.store %{{.*}}, %[[COUNTERS]]
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[BASE:.*]] = memref.alloca() : memref<i64>
// CHECK:           %[[THREAD:.*]] = func.call @omp_get_thread_num()
// CHECK:           %[[START0:.*]] = memref.load %[[BASE]][]
// CHECK:           %[[LIMIT:.*]] = arith.addi %[[START0]], %{{.*}} : i64
// CHECK:           scf.while
// CHECK:           } do {
// CHECK:             %[[CHUNK:.*]]:2 = func.call @__pb_claim_chunk(%[[COUNTERS]],
// CHECK:             scf.for %[[T:.*]] =
// CHECK-NEXT:          %[[JR:.*]] = arith.remui %[[T]], %[[N:.*]] : index
// CHECK-NEXT:          %[[IR:.*]] = arith.divui %[[T]], %[[N]] : index
// CHECK-NEXT:          %[[JS:.*]] = arith.muli %[[JR]], %{{.*}} : index
// CHECK-NEXT:          %[[J:.*]] = arith.addi %{{.*}}, %[[JS]] : index
// CHECK-NEXT:          %[[IS:.*]] = arith.muli %[[IR]], %{{.*}} : index
// CHECK-NEXT:          %[[I:.*]] = arith.addi %{{.*}}, %[[IS]] : index
// CHECK-NEXT:          memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<64x24xf32>
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]][%{{.*}}]
// CHECK:           func.call @__pb_wait_done(%[[COUNTERS]], %{{.*}}, %[[LIMIT]])
// CHECK-NEXT:      memref.store %[[LIMIT]], %[[BASE]][]
// CHECK:           func.call @__pb_claim_chunk(%[[COUNTERS]],
// CHECK:               memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:           func.call @__pb_wait_done(%[[COUNTERS]],
// CHECK:           omp.terminator
// CHECK-NOT:     omp.wsloop
// CHECK-NOT:     omp.single
// CHECK-NOT:     omp.barrier
module attributes {pb.machine = {threads = 2 : i64}} {
func.func @loop_then_single(%out: memref<64x24xf32>, %sum: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c24 = arith.constant 24 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c64, %c24) step (%c1, %c1) {
        memref.store %one, %out[%i, %j] : memref<64x24xf32>
        omp.yield
      }
    }
    omp.single {
      %first = memref.load %out[%c0, %c0] : memref<64x24xf32>
      memref.store %first, %sum[] : memref<f32>
      omp.terminator
    }
    omp.terminator
  }
  return
}
}

// -----

// A loop inside a sequential loop of the region: each iteration is a part of
// its own, started where the one before ended. Its stack buffer is allocated
// once per thread at the region's start, not per iteration of a chunk.

// CHECK-LABEL: func.func @loop_in_k_blocks
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:      %[[BASE:.*]] = memref.alloca() : memref<i64>
// CHECK:           scf.for
// CHECK:             memref.load %[[BASE]][]
// CHECK:             func.call @__pb_claim_chunk
// CHECK-NOT:         memref.alloca
// CHECK:               memref.store %{{.*}}, %[[BUF]]
// CHECK:             memref.store %{{.*}}, %[[BASE]][]
// CHECK:           omp.terminator
func.func @loop_in_k_blocks(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    scf.for %k = %c0 to %c4 step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
          %buf = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
          memref.store %one, %buf[%c0] : memref<8xf32>
          %v = memref.load %buf[%c0] : memref<8xf32>
          memref.store %v, %out[%i] : memref<64xf32>
          omp.yield
        }
      }
    }
    omp.terminator
  }
  return
}

// -----

// Parts the next part cannot depend on do not wait. A padded buffer (a view
// of the arena at byte 0): its top and bottom rows and its interior, three
// subviews whose boxes do not meet, are written by three parts, the interior
// from another view of the arena (bytes 256 on, which the first view's 144
// bytes do not reach); none of the three waits for the one before, and the
// part that reads the whole buffer waits for all three (the wait after the
// interior, on the same counter). The next part, overwriting the interior's
// source (read before the last wait), is independent of it: no wait. The
// part after that writes the padded buffer, which the part before it read:
// the wait comes after the source's part and covers both.

// CHECK-LABEL: func.func @padded_buffer
// CHECK:         omp.parallel {
// CHECK:           memref.store %{{.*}}, %[[TOP:.*]][%{{.*}}, %{{.*}}] : memref<1x6xf32, strided<[6, 1]>>
// CHECK-NOT:       __pb_wait_done
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x6xf32, strided<[6, 1], offset: 30>>
// CHECK-NOT:       __pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<6x6xf32>
// CHECK-NOT:       __pb_wait_done
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<6x6xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      omp.terminator
module attributes {pb.machine = {threads = 2 : i64}} {
func.func @padded_buffer(%out: memref<6x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
  %padded = memref.view %arena[%c0][] : memref<512xi8> to memref<6x6xf32>
  %source = memref.view %arena[%c256][] : memref<512xi8> to memref<4x4xf32>
  %top = memref.subview %padded[0, 0] [1, 6] [1, 1] : memref<6x6xf32> to memref<1x6xf32, strided<[6, 1]>>
  %bottom = memref.subview %padded[5, 0] [1, 6] [1, 1] : memref<6x6xf32> to memref<1x6xf32, strided<[6, 1], offset: 30>>
  %interior = memref.subview %padded[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%j) : index = (%c0) to (%c6) step (%c1) {
        memref.store %zero, %top[%c0, %j] : memref<1x6xf32, strided<[6, 1]>>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%j) : index = (%c0) to (%c6) step (%c1) {
        memref.store %zero, %bottom[%c0, %j] : memref<1x6xf32, strided<[6, 1], offset: 30>>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
        %v = memref.load %source[%i, %j] : memref<4x4xf32>
        memref.store %v, %interior[%i, %j] : memref<4x4xf32, strided<[6, 1], offset: 7>>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c6, %c6) step (%c1, %c1) {
        %v = memref.load %padded[%i, %j] : memref<6x6xf32>
        memref.store %v, %out[%i, %j] : memref<6x6xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
        memref.store %zero, %source[%i, %j] : memref<4x4xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c6, %c6) step (%c1, %c1) {
        %v = memref.load %padded[%i, %j] : memref<6x6xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %padded[%i, %j] : memref<6x6xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  memref.dealloc %arena : memref<512xi8>
  return
}
}

// -----

// Parts that may depend on the one before wait for it: views of the arena
// whose bytes overlap (a write, then a read of bytes 64 to 127 through
// another view); a write after a read of the same buffer; a part that calls
// a function (it may touch anything); a part in a loop of several
// iterations, at the end of the loop's body (the next part to run is the
// body's first). Parts in loops of one iteration are consecutive: the first
// two here do not wait.

// CHECK-LABEL: func.func @dependent_parts
// CHECK:         omp.parallel {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<32xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           func.call @opaque
// CHECK:           func.call @__pb_wait_done
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK-NOT:         __pb_wait_done
// CHECK:             memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:             func.call @__pb_wait_done
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:             func.call @__pb_wait_done
// CHECK:           omp.terminator
module attributes {pb.machine = {threads = 2 : i64}} {
func.func private @opaque(memref<16xf32>)
func.func @dependent_parts(%out: memref<16xf32>, %a: memref<8xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  %low = memref.view %arena[%c0][] : memref<256xi8> to memref<32xf32>
  %high = memref.view %arena[%c64][] : memref<256xi8> to memref<16xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c32) step (%c1) {
        memref.store %one, %low[%i] : memref<32xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %v = memref.load %high[%i] : memref<16xf32>
        memref.store %v, %out[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %one, %high[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.single {
      func.call @opaque(%out) : (memref<16xf32>) -> ()
      omp.terminator
    }
    scf.for %k = %c0 to %c1 step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
          memref.store %one, %a[%i] : memref<8xf32>
          omp.yield
        }
      }
    }
    scf.for %k = %c0 to %c1 step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
          memref.store %one, %b[%i] : memref<4xf32>
          omp.yield
        }
      }
    }
    scf.for %k = %c0 to %c3 step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
          memref.store %one, %a[%i] : memref<8xf32>
          omp.yield
        }
      }
    }
    omp.terminator
  }
  memref.dealloc %arena : memref<256xi8>
  return
}
}

// -----

// The static arena, or a heap one when a call is already using it (an scf.if
// yielding a private global or an allocation), is a buffer no argument
// points into: a part writing it and the next reading an argument do not
// wait for each other. A buffer that may be an argument (an scf.if yielding
// one) is: the part writing it waits.

// CHECK-LABEL: func.func @arena_or_argument
// CHECK:         omp.parallel {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-NOT:       __pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:           func.call @__pb_wait_done
// CHECK:           memref.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK:           func.call @__pb_wait_done
module attributes {pb.machine = {threads = 2 : i64}} {
memref.global "private" @arena : memref<64xi8> = uninitialized {alignment = 64 : i64}
func.func @arena_or_argument(%in: memref<16xf32>, %out: memref<16xf32>, %other: memref<8xf32>, %taken: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %arena = scf.if %taken -> (memref<64xi8>) {
    %heap = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
    scf.yield %heap : memref<64xi8>
  } else {
    %static = memref.get_global @arena : memref<64xi8>
    scf.yield %static : memref<64xi8>
  }
  %view = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  %either = scf.if %taken -> (memref<8xf32>) {
    scf.yield %other : memref<8xf32>
  } else {
    %heap = memref.alloc() : memref<8xf32>
    scf.yield %heap : memref<8xf32>
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %one, %view[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %v = memref.load %in[%i] : memref<16xf32>
        memref.store %v, %out[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %one, %either[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %v = memref.load %in[%i] : memref<16xf32>
        memref.store %v, %view[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
}

// -----

// Arguments of an entry point are distinct buffers (the C interface's
// contract): the part writing %a and the next, reading %b, do not wait for
// each other. A private function's caller may pass one buffer as both: the
// part writing %a waits.

// CHECK-LABEL: func.func @entry_point
// CHECK:         memref.store %{{.*}}, %arg0
// CHECK-NOT:     __pb_wait_done
// CHECK:         memref.load %arg1
// CHECK:         func.call @__pb_wait_done
// CHECK-LABEL: func.func private @helper
// CHECK:         memref.store %{{.*}}, %arg0
// CHECK:         func.call @__pb_wait_done
// CHECK:         memref.load %arg1
// CHECK:         func.call @__pb_wait_done
module attributes {pb.machine = {threads = 2 : i64}} {
func.func @entry_point(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %one, %a[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %v = memref.load %b[%i] : memref<16xf32>
        memref.store %v, %c[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
func.func private @helper(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %one, %a[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %v = memref.load %b[%i] : memref<16xf32>
        memref.store %v, %c[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
}

// -----

// A loop with a clause (nowait here) keeps its worksharing construct; a
// region with nothing to rewrite gets no counters.

// CHECK-LABEL: func.func @nowait_is_kept
// CHECK-NOT:     memref.alloca
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop nowait {
// CHECK-NOT:     __pb_claim_chunk
func.func @nowait_is_kept(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %one, %out[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
