// Kernels exercising the C interface: several functions, several results,
// every element type, a 0-d result.
#id = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#sum = affine_map<(i, j) -> (i)>
#all = affine_map<(i) -> ()>

// y = x * w + 1 (w broadcast along rows); s = sum of each row of y.
func.func @scale_rows(%x: tensor<4x5xf32>, %w: tensor<5xf32>) -> (tensor<4x5xf32>, tensor<4xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x5xf32>, tensor<5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %one : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %se = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #sum], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x5xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y, %s : tensor<4x5xf32>, tensor<4xf32>
}

// Integer widening, i1 logic, f16 and bf16 arithmetic, f64.
func.func @mixed(%a: tensor<6xi8>, %b: tensor<6xi16>, %c: tensor<6xi64>, %m: tensor<6xi1>,
                 %h: tensor<6xf16>, %f: tensor<6xf32>, %d: tensor<6xf64>)
    -> (tensor<6xi32>, tensor<6xi1>, tensor<6xf16>, tensor<6xbf16>, tensor<6xf64>) {
  %zero8 = arith.constant 0 : i8
  %two = arith.constant 2.0 : f16
  %ei = tensor.empty() : tensor<6xi32>
  %eb = tensor.empty() : tensor<6xi1>
  %eh = tensor.empty() : tensor<6xf16>
  %ebf = tensor.empty() : tensor<6xbf16>
  %ed = tensor.empty() : tensor<6xf64>
  %r:5 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel"]}
      ins(%a, %b, %c, %m, %h, %f, %d : tensor<6xi8>, tensor<6xi16>, tensor<6xi64>, tensor<6xi1>, tensor<6xf16>, tensor<6xf32>, tensor<6xf64>)
      outs(%ei, %eb, %eh, %ebf, %ed : tensor<6xi32>, tensor<6xi1>, tensor<6xf16>, tensor<6xbf16>, tensor<6xf64>) {
  ^bb0(%va: i8, %vb: i16, %vc: i64, %vm: i1, %vh: f16, %vf: f32, %vd: f64, %o0: i32, %o1: i1, %o2: f16, %o3: bf16, %o4: f64):
    %wa = arith.extsi %va : i8 to i32
    %wb = arith.extsi %vb : i16 to i32
    %wc = arith.trunci %vc : i64 to i32
    %s1 = arith.addi %wa, %wb : i32
    %s2 = arith.addi %s1, %wc : i32
    %pos = arith.cmpi sgt, %va, %zero8 : i8
    %x = arith.xori %vm, %pos : i1
    %hh = arith.mulf %vh, %two : f16
    %bf = arith.truncf %vf : f32 to bf16
    %dd = arith.mulf %vd, %vd : f64
    linalg.yield %s2, %x, %hh, %bf, %dd : i32, i1, f16, bf16, f64
  } -> (tensor<6xi32>, tensor<6xi1>, tensor<6xf16>, tensor<6xbf16>, tensor<6xf64>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<6xi32>, tensor<6xi1>, tensor<6xf16>, tensor<6xbf16>, tensor<6xf64>
}

// A full reduction to a 0-d tensor.
func.func @total(%x: tensor<8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
