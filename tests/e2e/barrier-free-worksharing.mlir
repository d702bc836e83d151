// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s4 -o - | FileCheck %s --check-prefix=S4
// CHECK: PASS @odd_sizes
// Covers: pb-barrier-free-worksharing against the reference lowering: a
// matmul (its k-block loop of parts), a row softmax (reductions then
// elementwise parts) and a transposing add, of sizes no number of chunks or
// home ranges divides (1031 rows, 77 and 301 columns), the threads claiming
// every part's iterations and waiting for no barrier.
// S4-LABEL: func.func @odd_sizes
// S4:         omp.parallel {
// S4:           func.call @omp_get_thread_num()
// S4:           func.call @__pb_claim_chunk
// S4:           omp.terminator
// S4-NOT:     omp.wsloop
// S4-NOT:     omp.barrier
// S4:         return
func.func @odd_sizes(%a: tensor<1031x515xf32>, %b: tensor<515x77xf32>, %x: tensor<1031x301xf32>,
                     %y: tensor<301x1031xf32>)
    -> (tensor<1031x77xf32>, tensor<1031x301xf32>, tensor<1031x301xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1031x77xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1031x77xf32>) -> tensor<1031x77xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1031x515xf32>, tensor<515x77xf32>) outs(%f : tensor<1031x77xf32>) -> tensor<1031x77xf32>
  %es = tensor.empty() : tensor<1031x301xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<1031x301xf32>) outs(%es : tensor<1031x301xf32>) -> tensor<1031x301xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<1031x301xf32>, tensor<301x1031xf32>) outs(%es : tensor<1031x301xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %z = arith.addf %u, %v : f32
    linalg.yield %z : f32
  } -> tensor<1031x301xf32>
  return %m, %s, %t : tensor<1031x77xf32>, tensor<1031x301xf32>, tensor<1031x301xf32>
}
