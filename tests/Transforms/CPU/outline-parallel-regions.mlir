// RUN: %pb-opt %s --pb-outline-parallel-regions --split-input-file | FileCheck %s

// A region becomes a function of (context, thread): the values it uses from
// outside are stored into a context on the caller's stack (allocated at the
// function's entry) and loaded at the region's entry, constants are rebuilt
// inside, the thread number is the `thread` argument, the region's blocks
// and allocas stay as they were.

llvm.func @omp_get_thread_num() -> i32
llvm.func @use(i32, !llvm.ptr, i64, f32, !llvm.ptr)

// CHECK-LABEL: llvm.func @forward
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK: %[[CONTEXT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64)> {alignment = 8 : i64}
// CHECK: %[[SUM:.*]] = llvm.add %[[N]], %[[N]]
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CONTEXT]][0, 0]
// CHECK: llvm.store %[[A]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CONTEXT]][0, 1]
// CHECK: llvm.store %[[SUM]], %[[F1]]
// CHECK: %[[REGION:.*]] = llvm.mlir.addressof @forward.parallel0
// CHECK: llvm.call @__pb_parallel_run_v1(%[[REGION]], %[[CONTEXT]])
// CHECK-NOT: omp.
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @forward.parallel0
// CHECK-SAME: (%[[CTX:.*]]: !llvm.ptr, %[[THREAD:.*]]: i32)
// CHECK: %[[G0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: %[[P:.*]] = llvm.load %[[G0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: %[[S:.*]] = llvm.load %[[G1]] : !llvm.ptr -> i64
// CHECK: %[[C:.*]] = llvm.mlir.constant(2.000000e+00 : f32)
// CHECK: %[[BUFFER:.*]] = llvm.alloca
// CHECK: llvm.br ^bb1
// CHECK: ^bb1:
// CHECK: llvm.call @use(%[[THREAD]], %[[P]], %[[S]], %[[C]], %[[BUFFER]])
// CHECK: llvm.return
// CHECK-NOT: @omp_get_thread_num
llvm.func @forward(%a: !llvm.ptr, %n: i64) {
  %c = llvm.mlir.constant(2.0 : f32) : f32
  %sum = llvm.add %n, %n : i64
  omp.parallel {
    %one = llvm.mlir.constant(1 : i64) : i64
    %buffer = llvm.alloca %one x f32 : (i64) -> !llvm.ptr
    %thread = llvm.call @omp_get_thread_num() : () -> i32
    llvm.br ^bb1
  ^bb1:
    llvm.call @use(%thread, %a, %sum, %c, %buffer) : (i32, !llvm.ptr, i64, f32, !llvm.ptr) -> ()
    omp.terminator
  }
  llvm.return
}

// -----

// A memref descriptor (an insertvalue chain of a pointer and constant sizes)
// and a view into a buffer (a getelementptr of it) are rebuilt inside from
// what they are made of: only the two pointers they start from are passed,
// not the descriptor's fields.

llvm.func @use_view(!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr)

// CHECK-LABEL: llvm.func @descriptors
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr, %[[ARENA:.*]]: !llvm.ptr)
// CHECK: %[[CONTEXT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CONTEXT]][0, 0]
// CHECK: llvm.store %[[A]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CONTEXT]][0, 1]
// CHECK: llvm.store %[[ARENA]], %[[F1]]
// CHECK-NOT: llvm.store
// CHECK: llvm.call @__pb_parallel_run_v1
// CHECK-LABEL: llvm.func internal @descriptors.parallel0
// CHECK: %[[PA:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[PARENA:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[D0:.*]] = llvm.mlir.poison
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[PA]], %[[D0]][0]
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[PA]], %[[D1]][1]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(64 : i64)
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[SIZE]], %[[D2]][3, 0]
// CHECK: %[[VIEW:.*]] = llvm.getelementptr %[[PARENA]][4096]
// CHECK: llvm.call @use_view(%[[D3]], %[[VIEW]])
llvm.func @descriptors(%a: !llvm.ptr, %arena: !llvm.ptr) {
  %d0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d1 = llvm.insertvalue %a, %d0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d2 = llvm.insertvalue %a, %d1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %size = llvm.mlir.constant(64 : i64) : i64
  %d3 = llvm.insertvalue %size, %d2[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %view = llvm.getelementptr %arena[4096] : (!llvm.ptr) -> !llvm.ptr, i8
  omp.parallel {
    llvm.call @use_view(%d3, %view) : (!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr) -> ()
    omp.terminator
  }
  llvm.return
}

// -----

// A vector passed in the context: the context is aligned as the vector is
// (its field is stored and loaded with the vector's alignment).

llvm.func @use_vector(vector<32xf32>)

// CHECK-LABEL: llvm.func @vector_field
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(vector<32xf32>)> {alignment = 128 : i64}
llvm.func @vector_field(%v: vector<32xf32>) {
  omp.parallel {
    llvm.call @use_vector(%v) : (vector<32xf32>) -> ()
    omp.terminator
  }
  llvm.return
}

// -----

// A region that uses nothing from outside gets no context; two regions of
// one function get two functions.

llvm.func @work()

// CHECK-LABEL: llvm.func @two
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[R0:.*]] = llvm.mlir.addressof @two.parallel0
// CHECK: llvm.call @__pb_parallel_run_v1(%[[R0]], %[[NULL]])
// CHECK: %[[R1:.*]] = llvm.mlir.addressof @two.parallel1
// CHECK: llvm.call @__pb_parallel_run_v1(%[[R1]],
// CHECK: llvm.func internal @two.parallel0
// CHECK: llvm.func internal @two.parallel1
llvm.func @two() {
  omp.parallel {
    llvm.call @work() : () -> ()
    omp.terminator
  }
  omp.parallel {
    llvm.call @work() : () -> ()
    omp.terminator
  }
  llvm.return
}

// -----

// Regions that meet at a barrier, or have clauses, stay OpenMP's.

llvm.func @work()
llvm.func @omp_get_thread_num() -> i32

// CHECK-LABEL: llvm.func @barrier
// CHECK: omp.parallel {
// CHECK: omp.barrier
// CHECK-NOT: __pb_parallel_run_v1
llvm.func @barrier() {
  omp.parallel {
    llvm.call @work() : () -> ()
    omp.barrier
    llvm.call @work() : () -> ()
    omp.terminator
  }
  llvm.return
}

// CHECK-LABEL: llvm.func @clauses
// CHECK: omp.parallel num_threads
// CHECK-NEXT: llvm.call @omp_get_thread_num()
// CHECK-NOT: __pb_parallel_run_v1
llvm.func @clauses(%n: i32) {
  omp.parallel num_threads(%n : i32) {
    %thread = llvm.call @omp_get_thread_num() : () -> i32
    llvm.call @work() : () -> ()
    omp.terminator
  }
  llvm.return
}
