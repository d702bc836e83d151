// RUN: pb-opt %s -split-input-file -pb-fuse-elementwise | FileCheck %s

// Batch norm and ReLU6 as an exporter spells them, one op each: one op.
// The per-channel rsqrt(var + eps) is read through a broadcast and stays
// separate (fused, it would be computed once per element).
// CHECK-LABEL: func @batch_norm_relu6
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x4x8xf32>, %[[MEAN:.*]]: tensor<8xf32>, %[[VAR:.*]]: tensor<8xf32>)
// CHECK:         %[[INV:.*]] = linalg.generic {{.*}} ins(%[[VAR]] : tensor<8xf32>)
// CHECK:           math.rsqrt
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MEAN]], %[[INV]] : tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:         return %[[Y]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
#vec = affine_map<(d0) -> (d0)>
func.func @batch_norm_relu6(%x: tensor<1x4x4x8xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %ev = tensor.empty() : tensor<8xf32>
  %inv = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%var : tensor<8xf32>) outs(%ev : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %centered = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x4x4x8xf32>, tensor<8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%centered, %inv : tensor<1x4x4x8xf32>, tensor<8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %i: f32, %o: f32):
    %s = arith.mulf %a, %i : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x8xf32>
  %low = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%low : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.minimumf %a, %six : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// -----

// A result read by two ops (a residual branch) is computed once: not fused.
// CHECK-LABEL: func @two_readers
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK:           arith.maximumf
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[R]], %{{.*}} :
// CHECK:           arith.addf
// CHECK:         return %[[R]], %[[S]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_readers(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A reduction's elementwise producer stays separate (S3 fuses it by slices).
// CHECK-LABEL: func @into_reduction
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @into_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// torch's Linear then GELU then Linear: the bias add on the matmul's rows,
// the activation on them reshaped to batch x rows (x read twice, by the
// half and by the erf chain), its result reshaped back for the next matmul.
// The chain is fused first, then collapsed to the rows' shape and fused
// with the bias add: one generic, no reshape left.
// CHECK-LABEL: func @bias_then_reshaped_gelu
// CHECK-SAME:    (%[[MM:.*]]: tensor<6x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %[[B]] : tensor<6x8xf32>, tensor<8xf32>)
// CHECK:           arith.addf
// CHECK:           math.erf
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[G]] : tensor<6x8xf32>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @bias_then_reshaped_gelu(%mm: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %e2 = tensor.empty() : tensor<6x8xf32>
  %biased = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<6x8xf32>, tensor<8xf32>) outs(%e2 : tensor<6x8xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<6x8xf32>
  %x = tensor.expand_shape %biased [[0, 1], [2]] output_shape [1, 6, 8] : tensor<6x8xf32> into tensor<1x6x8xf32>
  %e3 = tensor.empty() : tensor<1x6x8xf32>
  %h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x6x8xf32>) outs(%e3 : tensor<1x6x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %half : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %s = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x6x8xf32>) outs(%e3 : tensor<1x6x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %rsqrt2 : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %erf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x6x8xf32>) outs(%e3 : tensor<1x6x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    %p = arith.addf %r, %one : f32
    linalg.yield %p : f32
  } -> tensor<1x6x8xf32>
  %g = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h, %erf : tensor<1x6x8xf32>, tensor<1x6x8xf32>) outs(%e3 : tensor<1x6x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %r = tensor.collapse_shape %g [[0, 1], [2]] : tensor<1x6x8xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}

// -----

// The same chain whose result is also read in batch x rows (returned as it
// is, as a layer norm's reductions would read it): collapsed, it would
// leave ops of two shapes, whose loop nests do not fuse. Not collapsed.
// CHECK-LABEL: func @reshaped_chain_read_in_its_shape
// CHECK:         %[[BIASED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<6x8xf32>, tensor<8xf32>)
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[BIASED]]
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x6x8xf32>)
// CHECK:         tensor.collapse_shape %[[G]]
// CHECK:         return
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @reshaped_chain_read_in_its_shape(%mm: tensor<6x8xf32>, %b: tensor<8xf32>) -> (tensor<6x8xf32>, tensor<1x6x8xf32>) {
  %half = arith.constant 0.5 : f32
  %e2 = tensor.empty() : tensor<6x8xf32>
  %biased = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<6x8xf32>, tensor<8xf32>) outs(%e2 : tensor<6x8xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<6x8xf32>
  %x = tensor.expand_shape %biased [[0, 1], [2]] output_shape [1, 6, 8] : tensor<6x8xf32> into tensor<1x6x8xf32>
  %e3 = tensor.empty() : tensor<1x6x8xf32>
  %g = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x6x8xf32>) outs(%e3 : tensor<1x6x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %half : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %r = tensor.collapse_shape %g [[0, 1], [2]] : tensor<1x6x8xf32> into tensor<6x8xf32>
  return %r, %g : tensor<6x8xf32>, tensor<1x6x8xf32>
}
