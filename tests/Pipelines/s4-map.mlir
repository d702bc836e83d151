// RUN: %pb-opt %s -split-input-file --pb-s4-pipeline | FileCheck %s --check-prefixes=CHECK,PAR
// RUN: %pb-opt %s -split-input-file --pass-pipeline='builtin.module(pb-s4-pipeline{no-parallel})' | FileCheck %s --check-prefixes=CHECK,SEQ
// RUN: %pb-opt %s -split-input-file --pb-s4-pipeline | FileCheck %s --check-prefix=NOAFFINE

// Tests for S4 (pb-s4-pipeline) on S3 output: affine loops become scf loops,
// parallel loops become OpenMP worksharing loops (with `parallelize`), and
// bf16 arithmetic and narrow-float math are done in f32.

// No affine op survives S4.
// NOAFFINE-NOT: affine.

// An affine.parallel becomes an omp.parallel region whose threads claim
// chunks of its iterations (pb-barrier-free-worksharing: the iteration t of a
// chunk is i = t * step), then wait for the claimed ones; the sequential loops
// inside become scf.for. Without `parallelize`, it becomes an scf.parallel and
// no OpenMP op appears.

// CHECK-LABEL: func.func @parallel_loop_becomes_omp_wsloop
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[OUT:.*]]: memref<64x32xf32>) -> i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// PAR:           omp.parallel {
// PAR:             func.call @__pb_claim_chunk
// PAR:             scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// PAR-NEXT:          %[[I:.*]] = arith.muli %[[T]], %[[C4]] : index
// SEQ-NOT:       omp.
// SEQ:           scf.parallel (%[[I:.*]]) = (%[[C0]]) to (%[[C64]]) step (%[[C4]]) {
// CHECK-NEXT:          scf.for %[[J:.*]] = %[[C0]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            %[[END:.*]] = arith.addi %[[I]], %[[C4]] : index
// CHECK-NEXT:            scf.for %[[II:.*]] = %[[I]] to %[[END]] step %{{.*}} {
// CHECK-NEXT:              %[[V:.*]] = memref.load %[[A]][%[[II]], %[[J]]] : memref<64x32xf32>
// CHECK-NEXT:              %[[E:.*]] = math.sqrt %[[V]] : f32
// CHECK-NEXT:              memref.store %[[E]], %[[OUT]][%[[II]], %[[J]]] : memref<64x32xf32>
// PAR:             memref.atomic_rmw addi
// PAR:             func.call @__pb_wait_done
// PAR:             omp.terminator
// SEQ-NOT:       omp.
// CHECK:         return
#lb = affine_map<(d0) -> (d0)>
#ub = affine_map<(d0) -> (d0 + 4)>
func.func @parallel_loop_becomes_omp_wsloop(%a: memref<64x32xf32>, %out: memref<64x32xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.parallel (%i) = (0) to (64) step (4) {
    affine.for %j = 0 to 32 {
      affine.for %ii = #lb(%i) to #ub(%i) {
        %0 = affine.load %a[%ii, %j] : memref<64x32xf32>
        %1 = math.sqrt %0 : f32
        affine.store %1, %out[%ii, %j] : memref<64x32xf32>
      }
    }
  }
  return %ok : i32
}

// -----

// A sequential loop nest becomes scf.for loops, with or without
// `parallelize`, and no OpenMP op.

// CHECK-LABEL: func.func @sequential_loops_become_scf_for
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>) -> i32
// CHECK-NOT:     omp.
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[PREV:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[A]][%[[PREV]]] : memref<64xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[V]], %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[S]], %[[A]][%[[I]]] : memref<64xf32>
// CHECK-NOT:     omp.
// CHECK:         return
func.func @sequential_loops_become_scf_for(%a: memref<64xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  affine.for %i = 1 to 64 {
    %0 = affine.load %a[%i - 1] : memref<64xf32>
    %1 = arith.addf %0, %one : f32
    affine.store %1, %a[%i] : memref<64xf32>
  }
  return %ok : i32
}

// -----

// A reduction loop with iter_args inside a parallel loop stays a sequential
// scf.for carrying the accumulator, inside the loop over a claimed chunk.

// CHECK-LABEL: func.func @reduction_inside_parallel_loop_stays_scf_for
// CHECK-SAME:    (%[[A:.*]]: memref<16x32xf32>, %[[OUT:.*]]: memref<16xf32>) -> i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// PAR:           func.call @__pb_claim_chunk
// PAR:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// SEQ:           scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:        %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<16x32xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:          scf.yield %[[S]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        memref.store %[[R]], %[[OUT]][%[[I]]] : memref<16xf32>
func.func @reduction_inside_parallel_loop_stays_scf_for(%a: memref<16x32xf32>, %out: memref<16xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.parallel (%i) = (0) to (16) {
    %init = arith.constant 0.0 : f32
    %r = affine.for %j = 0 to 32 iter_args(%acc = %init) -> f32 {
      %0 = affine.load %a[%i, %j] : memref<16x32xf32>
      %1 = arith.addf %acc, %0 : f32
      affine.yield %1 : f32
    }
    affine.store %r, %out[%i] : memref<16xf32>
  }
  return %ok : i32
}

// -----

// bf16 arithmetic is emulated in f32: operands are widened with integer code
// (bitcast to i16, extend, shift left by 16), added in f32, and rounded back to
// bf16 with round-to-nearest-even and a quiet NaN. No bf16 arith.addf, and no
// arith.extf / arith.truncf (which would need a compiler runtime call), remain.

// CHECK-LABEL: func.func @bf16_add_is_emulated_in_f32
// CHECK-SAME:    (%[[A:.*]]: memref<16xbf16>, %[[B:.*]]: memref<16xbf16>, %[[OUT:.*]]: memref<16xbf16>) -> i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C32767:.*]] = arith.constant 32767 : i32
// CHECK-DAG:     %[[QNAN:.*]] = arith.constant 32704 : i16
// CHECK-NOT:     arith.addf {{.*}} : bf16
// CHECK-NOT:     arith.extf
// CHECK-NOT:     arith.truncf
// CHECK:         %[[AV:.*]] = memref.load %[[A]]
// CHECK-NEXT:    %[[AI:.*]] = arith.bitcast %[[AV]] : bf16 to i16
// CHECK-NEXT:    %[[AW:.*]] = arith.extui %[[AI]] : i16 to i32
// CHECK-NEXT:    %[[AS:.*]] = arith.shli %[[AW]], %[[C16]] : i32
// CHECK-NEXT:    %[[AF:.*]] = arith.bitcast %[[AS]] : i32 to f32
// CHECK:         %[[BF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[AF]], %[[BF]] : f32
// CHECK-NEXT:    %[[ISNAN:.*]] = arith.cmpf une, %[[SUM]], %[[SUM]] : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         arith.addi %{{.*}}, %[[C32767]] : i32
// CHECK:         %[[HI:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[ISNAN]], %[[QNAN]], %[[HI]] : i16
// CHECK-NEXT:    %[[RES:.*]] = arith.bitcast %[[SEL]] : i16 to bf16
// CHECK-NEXT:    memref.store %[[RES]], %[[OUT]]
// CHECK-NOT:     arith.addf {{.*}} : bf16
// CHECK-NOT:     arith.extf
// CHECK-NOT:     arith.truncf
// CHECK:         return
func.func @bf16_add_is_emulated_in_f32(%a: memref<16xbf16>, %b: memref<16xbf16>, %out: memref<16xbf16>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xbf16>
    %1 = affine.load %b[%i] : memref<16xbf16>
    %2 = arith.addf %0, %1 : bf16
    affine.store %2, %out[%i] : memref<16xbf16>
  }
  return %ok : i32
}

// -----

// bf16 math is computed in f32 as well, with the same integer expansions.

// CHECK-LABEL: func.func @bf16_math_is_computed_in_f32
// CHECK-NOT:     math.sqrt {{.*}} : bf16
// CHECK-NOT:     arith.extf
// CHECK:         %[[X:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[E:.*]] = math.sqrt %[[X]] : f32
// CHECK-NOT:     math.sqrt {{.*}} : bf16
// CHECK-NOT:     arith.truncf
// CHECK:         arith.bitcast %{{.*}} : i16 to bf16
// CHECK:         return
func.func @bf16_math_is_computed_in_f32(%a: memref<16xbf16>, %out: memref<16xbf16>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xbf16>
    %1 = math.sqrt %0 : bf16
    affine.store %1, %out[%i] : memref<16xbf16>
  }
  return %ok : i32
}

// -----

// Math on f16 is computed in f32 (extf, math in f32, truncf); f16 arithmetic
// itself is left to the target.

// CHECK-LABEL: func.func @f16_math_is_computed_in_f32
// CHECK:         %[[V:.*]] = memref.load %{{.*}} : memref<16xf16>
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[V]] {{.*}}: f16 to f32
// CHECK-NEXT:    %[[E:.*]] = math.sqrt %[[W]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.truncf %[[E]] {{.*}}: f32 to f16
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[N]], %[[V]] : f16
// CHECK-NEXT:    memref.store %[[S]]
func.func @f16_math_is_computed_in_f32(%a: memref<16xf16>, %out: memref<16xf16>) -> i32 {
  %ok = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf16>
    %1 = math.sqrt %0 : f16
    %2 = arith.addf %1, %0 : f16
    affine.store %2, %out[%i] : memref<16xf16>
  }
  return %ok : i32
}

// -----

// A loop S3 asks LLVM to unroll keeps its request through the lowering to
// scf (pb-lower-affine), for S5 to turn into !llvm.loop metadata.

// CHECK-LABEL: func.func @loop_keeps_unroll_request
// CHECK:         scf.for
// CHECK:           memref.store
// CHECK-NEXT:    } {loop_annotation = #{{.*}}}
#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>
func.func @loop_keeps_unroll_request(%a: memref<8xf32>) -> i32 {
  %ok = arith.constant 0 : i32
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %c, %a[%i] : memref<8xf32>
  } {loop_annotation = #unroll}
  return %ok : i32
}
