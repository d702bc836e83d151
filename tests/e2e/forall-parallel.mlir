// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s4 -o - | FileCheck %s --check-prefix=S4
// RUN: %pbtool compile %s --compile-to=s4 --no-parallel -o - | FileCheck %s --check-prefix=SERIAL
// CHECK: PASS @per_head_scores
// Covers: an scf.forall of the tensor program (a parallel structure, one
// iteration per head) runs on the threads: S4 turns it into an scf.parallel
// and then an OpenMP loop; its body's matmul is register-tiled as any.
// Without threads it is a sequential loop.
// S4-LABEL: func.func @per_head_scores
// S4:         omp.parallel
// S4-NOT:     scf.forall
// SERIAL-NOT: omp.
func.func @per_head_scores(%q: tensor<6x40x16xf32>, %k: tensor<6x16x48xf32>) -> tensor<6x40x48xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<6x40x48xf32>
  %r = scf.forall (%h) in (6) shared_outs(%o = %init) -> tensor<6x40x48xf32> {
    %qs = tensor.extract_slice %q[%h, 0, 0] [1, 40, 16] [1, 1, 1] : tensor<6x40x16xf32> to tensor<40x16xf32>
    %ks = tensor.extract_slice %k[%h, 0, 0] [1, 16, 48] [1, 1, 1] : tensor<6x16x48xf32> to tensor<16x48xf32>
    %e = tensor.empty() : tensor<40x48xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x48xf32>) -> tensor<40x48xf32>
    %s = linalg.matmul ins(%qs, %ks : tensor<40x16xf32>, tensor<16x48xf32>) outs(%f : tensor<40x48xf32>) -> tensor<40x48xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%h, 0, 0] [1, 40, 48] [1, 1, 1] : tensor<40x48xf32> into tensor<6x40x48xf32>
    }
  }
  return %r : tensor<6x40x48xf32>
}
