// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// CHECK: PASS @softmax_rows
// CHECK: PASS @layernorm_rows
// Covers: row kernels whose rows are whole cache lines, which
// pb-prefetch-next-row gives software prefetches of the next row (the last
// row prefetching the first) in the heaviest pass after the first.
// S3-LABEL: func.func @softmax_rows(
// S3:         affine.parallel
// S3:           affine.prefetch %arg0[%[[I:.*]] - ((%[[I]] + 1) floordiv 96) * 96 + 1, %{{.*}}]
// S3:           math.exp
// S3-LABEL: func.func @layernorm_rows(
// S3:           affine.prefetch %arg0[%[[R:.*]] - ((%[[R]] + 1) floordiv 40) * 40 + 1, %{{.*}}]
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
module {
func.func @softmax_rows(%x: tensor<96x512xf32>) -> tensor<96x512xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<96xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<96xf32>) -> tensor<96xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<96x512xf32>) outs(%minit : tensor<96xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<96xf32>
  %e1 = tensor.empty() : tensor<96x512xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<96x512xf32>, tensor<96xf32>) outs(%e1 : tensor<96x512xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<96x512xf32>
  %e2 = tensor.empty() : tensor<96xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e2 : tensor<96xf32>) -> tensor<96xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<96x512xf32>) outs(%sinit : tensor<96xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<96xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<96x512xf32>, tensor<96xf32>) outs(%ex : tensor<96x512xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<96x512xf32>
  return %r : tensor<96x512xf32>
}

func.func @layernorm_rows(%x: tensor<40x256xf32>, %gamma: tensor<256xf32>,
                     %beta: tensor<256xf32>) -> tensor<40x256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e0 = tensor.empty() : tensor<40xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<40xf32>) -> tensor<40xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<40x256xf32>) outs(%z0 : tensor<40xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<40xf32>
  %e1 = tensor.empty() : tensor<40xf32>
  %mean = linalg.map ins(%sum : tensor<40xf32>) outs(%e1 : tensor<40xf32>)
    (%s: f32, %o: f32) {
      %m = arith.divf %s, %n : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<40xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40xf32>) -> tensor<40xf32>
  %sqsum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<40x256xf32>, tensor<40xf32>) outs(%z2 : tensor<40xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<40xf32>
  %e3 = tensor.empty() : tensor<40xf32>
  %rstd = linalg.map ins(%sqsum : tensor<40xf32>) outs(%e3 : tensor<40xf32>)
    (%s: f32, %o: f32) {
      %var = arith.divf %s, %n : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    }
  %e4 = tensor.empty() : tensor<40x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<40x256xf32>, tensor<40xf32>, tensor<40xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%e4 : tensor<40x256xf32>) {
  ^bb0(%v: f32, %m: f32, %r: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %s = arith.mulf %t, %g : f32
    %u = arith.addf %s, %b : f32
    linalg.yield %u : f32
  } -> tensor<40x256xf32>
  return %y : tensor<40x256xf32>
}
}
