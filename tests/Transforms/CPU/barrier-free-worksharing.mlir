// RUN: %pb-opt %s -split-input-file --pb-barrier-free-worksharing='chunks-per-thread=4' | FileCheck %s

// A region's worksharing loop (two loops collapsed) and single become parts
// whose iterations the threads claim: the counters (one claim word per home
// range, then the done word, 8 words apart) are zeroed before the region;
// each thread numbers itself and claims chunks of its own range first
// (@__pb_claim_chunk: a compare-and-swap that takes half of what is left,
// never past the range's end), adds what it computed to `done` once and
// waits until `done` reaches the part's limit (@__pb_wait_done: 1000
// pauses, then 20 us sleeps), which is where the next part starts. The
// single is a part of one iteration. No barrier and no worksharing construct
// remain; the two helpers are not inlined.

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
      memref.store %one, %sum[] : memref<f32>
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
