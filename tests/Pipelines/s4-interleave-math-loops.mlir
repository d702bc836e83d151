// RUN: %pbtool compile %s --compile-to=s4 | FileCheck %s --check-prefix=S4
// RUN: %pbtool compile %s --compile-to=s5 | FileCheck %s --check-prefix=S5

// The row loop of a log (a loop LLVM vectorizes, inside the chunks of rows the
// threads claim) carries pb-interleave-math-loops' interleave count through S4, past
// the expansion of the log, to the branch that closes the loop in the LLVM
// dialect, which LLVM reads as !llvm.loop metadata.
// S4: #loop_annotation = #llvm.loop_annotation<interleave = #loop_interleave>
// S4: omp.parallel
// S4: func.call @__pb_claim_chunk
// S4: scf.for
// S4-NEXT: scf.for
// S4-NOT: math.log
// S4: } {loop_annotation = #loop_annotation}
// S4-NEXT: }
// S4-NEXT: arith.subi
// S5: #loop_interleave = #llvm.loop_interleave<count = 4 : i32>
// S5: #loop_annotation = #llvm.loop_annotation<interleave = #loop_interleave>
// S5: llvm.br ^{{.*}} {loop_annotation = #loop_annotation}
#id = affine_map<(i, j) -> (i, j)>
func.func @log_rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.absf %v : f32
    %l = math.log %a : f32
    linalg.yield %l : f32
  } -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
