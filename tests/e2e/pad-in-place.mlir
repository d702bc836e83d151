// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool compile %s --compile-to=s1 -o - | FileCheck %s --check-prefix=S1
// CHECK: PASS @relu_pad_conv
// Covers: pb-pad-in-place against the reference lowering: a ReLU computed
// into the interior of the zero-padded buffer the 3x3 convolution reads,
// and a sum padded with 1.5 on uneven sides; neither pad copies.
// S1-LABEL: func.func @relu_pad_conv
// S1-NOT:     memref.copy
// S1:         return
func.func @relu_pad_conv(%x: tensor<2x9x9x16xf32>, %f: tensor<3x3x16x8xf32>, %y: tensor<2x9x9x16xf32>)
    -> (tensor<2x9x9x8xf32>, tensor<2x10x12x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<2x9x9x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x9x9x16xf32>) outs(%e : tensor<2x9x9x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x9x9x16xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x16xf32> to tensor<2x11x11x16xf32>
  %eo = tensor.empty() : tensor<2x9x9x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x9x9x8xf32>) -> tensor<2x9x9x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<2x11x11x16xf32>, tensor<3x3x16x8xf32>) outs(%init : tensor<2x9x9x8xf32>) -> tensor<2x9x9x8xf32>
  %s = linalg.add ins(%x, %y : tensor<2x9x9x16xf32>, tensor<2x9x9x16xf32>) outs(%e : tensor<2x9x9x16xf32>) -> tensor<2x9x9x16xf32>
  %q = tensor.pad %s low[0, 0, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c : f32
  } : tensor<2x9x9x16xf32> to tensor<2x10x12x16xf32>
  return %conv, %q : tensor<2x9x9x8xf32>, tensor<2x10x12x16xf32>
}
