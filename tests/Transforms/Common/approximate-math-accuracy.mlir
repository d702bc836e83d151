// RUN: %pbtool run %s --function=exp_ulp | FileCheck %s
// The accuracy of pb-approximate-math's f32 exp, measured inside the
// kernel against f64 exp (libm) on 2^20 evenly spaced inputs over
// [-87.3, 88.3], in units in the last place of the f32 result: the largest
// error below 0.9 ulp (0.875; 0.998 with the version before 1 + r (1 + r p)),
// the mean below 0.26 (0.2576; 0.267 before). (Not in the e2e corpus: its
// results are the approximation's own errors, which the reference lowering,
// calling libm's expf, does not share.)
// CHECK: result0: f32=0.{{[0-8][0-9]*$}}
// CHECK: result1: f32=0.2{{[0-5][0-9]*$}}
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
#scalar = affine_map<() -> ()>
func.func @exp_ulp() -> (tensor<f32>, tensor<f32>) {
  %e = tensor.empty() : tensor<1048576xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<1048576xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %lo = arith.constant -87.3 : f64
    %step = arith.constant 1.674652099609375e-04 : f64
    %x64 = math.fma %f, %step, %lo : f64
    %x32 = arith.truncf %x64 : f64 to f32
    linalg.yield %x32 : f32
  } -> tensor<1048576xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %err:2 = linalg.generic {indexing_maps = [#id, #all, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<1048576xf32>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%v: f32, %maxacc: f32, %sumacc: f32):
    %e32 = math.exp %v : f32
    %v64 = arith.extf %v : f32 to f64
    %e64 = math.exp %v64 : f64
    %bits = arith.bitcast %e32 : f32 to i32
    %one = arith.constant 1 : i32
    %nbits = arith.addi %bits, %one : i32
    %next = arith.bitcast %nbits : i32 to f32
    %next64 = arith.extf %next : f32 to f64
    %e3264 = arith.extf %e32 : f32 to f64
    %ulp = arith.subf %next64, %e3264 : f64
    %diff = arith.subf %e3264, %e64 : f64
    %adiff = math.absf %diff : f64
    %u64 = arith.divf %adiff, %ulp : f64
    %u = arith.truncf %u64 : f64 to f32
    %m = arith.maximumf %u, %maxacc : f32
    %s = arith.addf %u, %sumacc : f32
    linalg.yield %m, %s : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %mean = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
      ins(%err#1 : tensor<f32>) outs(%s0 : tensor<f32>) {
  ^bb0(%sum: f32, %o: f32):
    %n = arith.constant 1048576.0 : f32
    %q = arith.divf %sum, %n : f32
    linalg.yield %q : f32
  } -> tensor<f32>
  return %err#0, %mean : tensor<f32>, tensor<f32>
}
