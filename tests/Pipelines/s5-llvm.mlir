// RUN: %pb-opt %s -split-input-file --pb-s5-pipeline | FileCheck %s
// RUN: %pb-opt %s -split-input-file --pb-s5-pipeline | FileCheck %s --check-prefix=ONLYLLVM
// RUN: %pb-opt %s -split-input-file --pb-s5-pipeline | mlir-translate -split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// Tests for S5 (pb-s5-pipeline) on S4 output: everything becomes the llvm
// dialect. A parallel region without OpenMP ops inside (the output of
// pb-barrier-free-worksharing) becomes a function the PolyBlocks thread pool
// runs; the OpenMP ops of other parallel loops stay, with llvm types, for the
// translation to LLVM IR, which turns them into OpenMP runtime calls.

// Nothing but llvm (and omp) ops remains.
// ONLYLLVM-NOT: func.func
// ONLYLLVM-NOT: memref.
// ONLYLLVM-NOT: arith.
// ONLYLLVM-NOT: math.
// ONLYLLVM-NOT: scf.
// ONLYLLVM-NOT: cf.
// ONLYLLVM-NOT: affine.
// ONLYLLVM-NOT: unrealized_conversion_cast
// ONLYLLVM-NOT: memref<

// A public function becomes an llvm.func taking one bare !llvm.ptr per buffer
// and returning the i32 status; loops become branches and loads/stores index
// the bare pointers.

// CHECK-LABEL: llvm.func @function_takes_bare_pointers_and_returns_i32
// CHECK-SAME:    (%[[A:[^:]*]]: !llvm.ptr{{[^,]*}}, %[[OUT:[^:]*]]: !llvm.ptr{{[^)]*}}) -> i32
// CHECK-DAG:     %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         llvm.cond_br
// CHECK:         %[[PA:.*]] = llvm.getelementptr {{.*}}%[[A]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[PA]] : !llvm.ptr -> f32
// CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[V]] : f32
// CHECK-NEXT:    %[[PO:.*]] = llvm.getelementptr {{.*}}%[[OUT]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.store %[[N]], %[[PO]] : f32, !llvm.ptr
// CHECK:         llvm.return %[[OK]] : i32
// LLVMIR-LABEL: define i32 @function_takes_bare_pointers_and_returns_i32(ptr {{.*}}, ptr {{.*}})
// LLVMIR:         ret i32 0
func.func @function_takes_bare_pointers_and_returns_i32(%a: memref<16xf32>, %out: memref<16xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %0 = memref.load %a[%i] : memref<16xf32>
    %1 = arith.negf %0 : f32
    memref.store %1, %out[%i] : memref<16xf32>
  }
  return %ok : i32
}

// -----

// A 2-d access through a strided subview becomes pointer arithmetic on the
// bare pointer: row * 8 + column + the subview's offset of 9.

// CHECK-LABEL: llvm.func @subview_access_becomes_pointer_arithmetic
// CHECK-SAME:    (%[[A:[^:]*]]: !llvm.ptr{{[^,]*}}, %[[OUT:[^:]*]]: !llvm.ptr{{[^)]*}}) -> i32
// CHECK-DAG:     %[[C8:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK:         %[[BASE:.*]] = llvm.getelementptr %[[A]][9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I:.*]], %[[C8]] {{.*}}: i64
// CHECK-NEXT:    %[[IDX:.*]] = llvm.add %[[ROW]], %[[J:.*]] {{.*}}: i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr {{.*}}%[[BASE]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:         llvm.return
func.func @subview_access_becomes_pointer_arithmetic(%a: memref<8x8xf32>, %out: memref<4x4xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sv = memref.subview %a[1, 1] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 9>>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %0 = memref.load %sv[%i, %j] : memref<4x4xf32, strided<[8, 1], offset: 9>>
      memref.store %0, %out[%i, %j] : memref<4x4xf32>
    }
  }
  return %ok : i32
}

// -----

// A worksharing loop keeps its OpenMP ops, now over i64 and llvm ops, and the
// translation to LLVM IR outlines it and forks it with __kmpc_fork_call.

// CHECK-LABEL: llvm.func @parallel_loop_forks_through_the_openmp_runtime
// CHECK-SAME:    (%[[A:[^:]*]]: !llvm.ptr{{[^,]*}}, %[[OUT:[^:]*]]: !llvm.ptr{{[^)]*}}) -> i32
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest (%[[I:.*]]) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:               llvm.getelementptr {{.*}}%[[A]][%[[I]]]
// CHECK:               llvm.intr.exp
// CHECK:               llvm.getelementptr {{.*}}%[[OUT]][%[[I]]]
// CHECK:               omp.yield
// CHECK:           omp.terminator
// CHECK:         llvm.return
// LLVMIR-LABEL: define i32 @parallel_loop_forks_through_the_openmp_runtime(ptr {{.*}}, ptr {{.*}})
// LLVMIR:         call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{.*}}, i32 {{[0-9]+}}, ptr @parallel_loop_forks_through_the_openmp_runtime..omp_par
// LLVMIR:         ret i32 0
// LLVMIR:       define internal void @parallel_loop_forks_through_the_openmp_runtime..omp_par(
// LLVMIR-DAG:     call void @__kmpc_for_static_init_8u(
// LLVMIR-DAG:     call float @llvm.exp.f32(
// LLVMIR-DAG:     call void @__kmpc_for_static_fini(
// LLVMIR:       declare {{.*}} @__kmpc_fork_call(ptr, i32, ptr, ...)
func.func @parallel_loop_forks_through_the_openmp_runtime(%a: memref<64xf32>, %out: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        %0 = memref.load %a[%i] : memref<64xf32>
        %1 = math.exp %0 : f32
        memref.store %1, %out[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return %ok : i32
}

// -----

// Math with an LLVM intrinsic becomes the intrinsic (tanh, exp); math without
// one becomes a call to the libm function of its type (erff for f32, erf for
// f64), declared as a private function without memory effects.

// CHECK-DAG:   llvm.func @erff(f32) -> f32 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, sym_visibility = "private"}
// CHECK-DAG:   llvm.func @erf(f64) -> f64 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, sym_visibility = "private"}
// CHECK-DAG:   llvm.func @cbrtf(f32) -> f32
// CHECK-LABEL: llvm.func @math_without_intrinsic_becomes_libm_call
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NEXT:    %[[T:.*]] = llvm.intr.tanh(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    %[[E:.*]] = llvm.call @erff(%[[T]]) : (f32) -> f32
// CHECK-NEXT:    %[[C:.*]] = llvm.call @cbrtf(%[[E]]) : (f32) -> f32
// CHECK-NEXT:    %[[X2:.*]] = llvm.intr.exp(%[[C]]) : (f32) -> f32
// CHECK:         %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK-NEXT:    %[[Y2:.*]] = llvm.call @erf(%[[Y]]) : (f64) -> f64
// CHECK-NOT:     math.
// LLVMIR-LABEL: define i32 @math_without_intrinsic_becomes_libm_call(
// LLVMIR:         call float @llvm.tanh.f32(
// LLVMIR:         call float @erff(
// LLVMIR:         call double @erf(
func.func @math_without_intrinsic_becomes_libm_call(%a: memref<16xf32>, %d: memref<16xf64>) -> i32 {
  %ok = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<16xf32>
  %0 = math.tanh %x : f32
  %1 = math.erf %0 : f32
  %2 = math.cbrt %1 : f32
  %3 = math.exp %2 : f32
  memref.store %3, %a[%c0] : memref<16xf32>
  %y = memref.load %d[%c0] : memref<16xf64>
  %4 = math.erf %y : f64
  memref.store %4, %d[%c0] : memref<16xf64>
  return %ok : i32
}

// -----

// bf16 loads and stores stay bf16; the integer expansions of S4 become llvm
// integer ops.

// CHECK-LABEL: llvm.func @bf16_memory_stays_bf16
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK-NEXT:    %[[I:.*]] = llvm.bitcast %[[V]] : bf16 to i16
// CHECK-NEXT:    %[[W:.*]] = llvm.zext %[[I]] : i16 to i32
// CHECK-NEXT:    %[[S:.*]] = llvm.shl %[[W]], %{{.*}} : i32
// CHECK-NEXT:    %[[F:.*]] = llvm.bitcast %[[S]] : i32 to f32
// CHECK:         llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr
func.func @bf16_memory_stays_bf16(%a: memref<16xbf16>, %out: memref<16xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c16_i32 = arith.constant 16 : i32
  %v = memref.load %a[%c0] : memref<16xbf16>
  %i = arith.bitcast %v : bf16 to i16
  %w = arith.extui %i : i16 to i32
  %s = arith.shli %w, %c16_i32 : i32
  %f = arith.bitcast %s : i32 to f32
  memref.store %f, %out[%c0] : memref<16xf32>
  memref.store %v, %a[%c0] : memref<16xbf16>
  return %ok : i32
}

// -----

// A region whose threads never meet at a barrier runs on the thread pool:
// the region is a function of (context, thread), omp_get_thread_num() its
// thread argument. The context holds the buffer's pointer alone: its
// descriptor is rebuilt inside.

// CHECK-LABEL: llvm.func @barrier_free_region_runs_on_the_thread_pool
// CHECK:         %[[CONTEXT:.*]] = llvm.alloca {{.*}} x !llvm.struct<(ptr)>
// CHECK:         llvm.call @__pb_parallel_run_v1({{.*}}, %[[CONTEXT]])
// CHECK-NOT:     omp.
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func internal @barrier_free_region_runs_on_the_thread_pool.parallel0
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %[[THREAD:.*]]: i32)
// CHECK:         llvm.sext %[[THREAD]]
// LLVMIR-LABEL: define i32 @barrier_free_region_runs_on_the_thread_pool(
// LLVMIR:         call void @__pb_parallel_run_v1(ptr @barrier_free_region_runs_on_the_thread_pool.parallel0, ptr
// LLVMIR:       define internal void @barrier_free_region_runs_on_the_thread_pool.parallel0(ptr %0, i32 %1)
// LLVMIR-NOT:     __kmpc
func.func private @omp_get_thread_num() -> i32
func.func @barrier_free_region_runs_on_the_thread_pool(%out: memref<64xi64>) -> i32 {
  %ok = arith.constant 0 : i32
  omp.parallel {
    %t = func.call @omp_get_thread_num() : () -> i32
    %i = arith.index_cast %t : i32 to index
    %v = arith.extsi %t : i32 to i64
    memref.store %v, %out[%i] : memref<64xi64>
    omp.terminator
  }
  return %ok : i32
}

// -----

// A request to LLVM to unroll a loop (S3's annotation, kept on the scf.for)
// lands on the loop's back edge and becomes !llvm.loop metadata.

// CHECK-LABEL: llvm.func @loop_unroll_request_reaches_llvm
// CHECK:         llvm.br ^{{.*}} {loop_annotation = #{{.*}}}
// LLVMIR-LABEL: define i32 @loop_unroll_request_reaches_llvm
// LLVMIR:         br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LLVMIR:       ![[LOOP]] = distinct !{![[LOOP]], ![[FULL:[0-9]+]]}
// LLVMIR:       ![[FULL]] = !{!"llvm.loop.unroll.full"}
#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>
func.func @loop_unroll_request_reaches_llvm(%a: memref<8xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %c, %a[%i] : memref<8xf32>
  } {loop_annotation = #unroll}
  return %ok : i32
}
