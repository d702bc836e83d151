// RUN: pb-opt %s -split-input-file -pb-lower-affine | FileCheck %s

// Affine to scf as upstream's lower-affine, except that a loop with
// attributes of the LLVM dialect (a request to LLVM to unroll it) keeps them
// on its scf.for, bounds computed from its maps, iter_args kept; other
// attributes go, and loops without any are lowered as upstream does.

// CHECK-DAG:   #[[FULL:.*]] = #llvm.loop_unroll<full = true>
// CHECK-DAG:   #[[UNROLL:.*]] = #llvm.loop_annotation<unroll = #[[FULL]]>
// CHECK-LABEL: func @annotated_loop
// CHECK:         scf.for %[[KT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[UB:.*]] = arith.addi %[[KT]], %{{.*}} : index
// CHECK:           %[[SUM:.*]] = scf.for %[[K:.*]] = %[[KT]] to %[[UB]] step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK:             vector.load %{{.*}}[%[[K]]] : memref<64xf32>, vector<8xf32>
// CHECK:             scf.yield
// CHECK-NEXT:      } {loop_annotation = #[[UNROLL]]}
// CHECK-NOT:       pb.note
// CHECK:           vector.store %[[SUM]]
// CHECK:         }
// CHECK-NOT:     loop_annotation
#u = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>
func.func @annotated_loop(%a: memref<64xf32>, %out: memref<8xf32>) {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  affine.for %kt = 0 to 64 step 8 {
    %s = affine.for %k = affine_map<(d0) -> (d0)>(%kt) to affine_map<(d0) -> (d0 + 8)>(%kt) iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %a[%k] : memref<64xf32>, vector<8xf32>
      %n = arith.addf %acc, %v : vector<8xf32>
      affine.yield %n : vector<8xf32>
    } {loop_annotation = #u, pb.note = "not for LLVM"}
    affine.vector_store %s, %out[0] : memref<8xf32>, vector<8xf32>
  }
  return
}

// -----

// Without LLVM attributes: as upstream, attributes dropped.
// CHECK-LABEL: func @plain_loops
// CHECK:         scf.for
// CHECK:           scf.if
// CHECK:             memref.store
// CHECK:         }
// CHECK-NOT:     pb.decisions
// CHECK-NOT:     affine.
func.func @plain_loops(%a: memref<64xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 64 {
    affine.if affine_set<(d0) : (d0 - 32 >= 0)>(%i) {
      affine.store %c, %a[%i] : memref<64xf32>
    }
  } {pb.decisions = []}
  return
}
