// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s4 --cpu=x86-64-v4 --threads=2 --l1-cache-kib=32 --l2-cache-kib=1024 --l3-cache-kib=32768 -o - | FileCheck %s --check-prefix=S4
// CHECK: PASS @matmul_then_small_then_large
// Covers: pb-merge-parallel-regions against the reference lowering: the
// matmul's fill, its k-block loop (run by every thread, its register tiles
// shared out in each iteration), a nest too small for threads (on one
// thread) and a large elementwise nest run in one parallel region, forked
// once per call, whose threads claim each part's iterations and wait for no
// barrier (pb-barrier-free-worksharing).
// S4-LABEL: func.func @matmul_then_small_then_large
// S4:         omp.parallel {
// S4:           func.call @__pb_claim_chunk
// S4:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c256
// S4:             func.call @__pb_claim_chunk
// S4:           func.call @__pb_claim_chunk
// S4:           func.call @__pb_claim_chunk
// S4:               arith.maximumf
// S4:           omp.terminator
// S4-NEXT:    }
// S4-NOT:     omp.parallel
// S4:         return
func.func @matmul_then_small_then_large(%a: tensor<500x1024xf32>, %b: tensor<1024x256xf32>, %c: tensor<8x8xf32>)
    -> (tensor<500x256xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<500x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<500x256xf32>) -> tensor<500x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<500x1024xf32>, tensor<1024x256xf32>) outs(%f : tensor<500x256xf32>) -> tensor<500x256xf32>
  %e8 = tensor.empty() : tensor<8x8xf32>
  %s = linalg.exp ins(%c : tensor<8x8xf32>) outs(%e8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<500x256xf32>) outs(%e : tensor<500x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.maximumf %x, %zero : f32
    linalg.yield %z : f32
  } -> tensor<500x256xf32>
  return %r, %s : tensor<500x256xf32>, tensor<8x8xf32>
}
