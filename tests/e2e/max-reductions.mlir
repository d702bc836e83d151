// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool run %s --function=row_max --input="6x64xf32=\
// RUN: -10 8.5 -5 13.5 0 18.5 5 -8.5 10 -3.5 15 1.5 20 6.5 -7 11.5 -2 16.5 3 21.5 8 -5.5 13 -0.5 18 4.5 -9 9.5 -4 14.5 1 19.5 6 -7.5 11 -2.5 16 2.5 21 7.5 -6 12.5 -1 17.5 4 -9.5 9 -4.5 14 0.5 19 5.5 -8 10.5 -3 15.5 2 20.5 7 -6.5 12 -1.5 17 3.5 \
// RUN: -10 8.5 -5 13.5 0 18.5 5 -8.5 10 -3.5 15 1.5 20 6.5 -7 11.5 -2 16.5 3 21.5 8 -5.5 13 -0.5 18 4.5 -9 9.5 -4 14.5 1 19.5 6 -7.5 11 -2.5 16 2.5 21 7.5 nan 12.5 -1 17.5 4 -9.5 9 -4.5 14 0.5 19 5.5 -8 10.5 -3 15.5 2 20.5 7 -6.5 12 -1.5 17 3.5 \
// RUN: -10 8.5 -5 13.5 0 18.5 5 inf 10 -3.5 15 1.5 20 6.5 -7 11.5 -2 16.5 3 21.5 8 -5.5 13 -0.5 18 4.5 -9 9.5 -4 14.5 1 19.5 6 -7.5 11 -2.5 16 2.5 21 7.5 -6 12.5 -1 17.5 4 -9.5 9 -4.5 14 0.5 19 5.5 -8 10.5 -3 15.5 2 20.5 7 -6.5 12 -1.5 17 3.5 \
// RUN: -1 -2 -3 -inf -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 -17 -18 -19 -20 -21 -22 -23 -24 -25 -26 -27 -28 -29 -30 -31 -32 -33 -34 -35 -36 -37 -38 -39 -40 -41 -42 -43 -44 -45 -46 -47 -48 -49 -50 -51 -52 -53 -54 -55 -56 -57 -58 -59 -60 -61 -62 -63 -64 \
// RUN: -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -0 -12 -13 -14 -15 -16 -17 -18 -19 -20 -21 -22 -23 -24 -25 -26 -27 -28 -29 -30 -31 -32 -33 -34 -35 -36 -37 -38 -39 -40 -41 -42 -43 -44 -45 -46 -47 -48 -49 -50 0 -52 -53 -54 -55 -56 -57 -58 -59 -60 -61 -62 -63 -64 \
// RUN: -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 -17 -18 -19 -20 -0 -22 -23 -24 -25 -26 -27 -28 -29 -30 -31 -32 -33 -34 -35 -36 -37 -38 -39 -40 -41 -42 -43 -44 -45 -46 -47 -48 -49 -50 -51 -52 -53 -54 -55 -56 -57 -58 -59 -60 -61 -62 -63 -64" | FileCheck %s --check-prefix=SPECIAL
// RUN: %pbtool compile %s --compile-to=s3 | FileCheck %s --check-prefix=S3
// CHECK: PASS @row_max
// CHECK: PASS @row_min
// Covers: row maxima and minima (maximumf/minimumf reductions) vectorized by
// pb-vectorize-max-reductions, on random rows and on rows of special
// values: a NaN (NaN) and a zero maximum with both signs (+0) and with -0
// only (-0), which only the exact loop it keeps gets right, and +inf (inf)
// and -inf among finite values, which the vector loop orders itself; the
// first row is plain (21.5).
// SPECIAL: result0: 6xf32=[21.5 nan inf -1 0 -0]
// S3-LABEL: func.func @row_max
// S3:         affine.for %{{.*}} = 0 to 64 step {{8|16}} iter_args
// S3:           affine.vector_load
// S3:         scf.if
// S3-LABEL: func.func @row_min
// S3:         affine.for %{{.*}} = 0 to 256 step {{4|8}} iter_args
// S3:           affine.vector_load {{.*}} vector<{{4|8}}xf64>
// S3:         scf.if
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_max(%x: tensor<6x64xf32>) -> tensor<6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x64xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @row_min(%x: tensor<40x256xf64>) -> tensor<40xf64> {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %e = tensor.empty() : tensor<40xf64>
  %init = linalg.fill ins(%inf : f64) outs(%e : tensor<40xf64>) -> tensor<40xf64>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<40x256xf64>) outs(%init : tensor<40xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %m = arith.minimumf %acc, %v : f64
    linalg.yield %m : f64
  } -> tensor<40xf64>
  return %r : tensor<40xf64>
}
