// ResNeXt-50's first-stage grouped 3x3 convolution at batch 1 (56 x 56 x 128, 32 groups of 4),
// as pb-grouped-convs-as-batches writes it: the group loop outermost. `pbtool bench` times it.
#in = affine_map<(g, n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>
#w = affine_map<(g, n, oh, ow, f, kh, kw, c) -> (g, kh, kw, c, f)>
#out = affine_map<(g, n, oh, ow, f, kh, kw, c) -> (n, oh, ow, g, f)>
func.func @forward(%x: tensor<1x58x58x128xf32>, %w: tensor<32x3x3x4x4xf32>) -> tensor<1x56x56x128xf32> {
  %xe = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 58, 58, 32, 4] : tensor<1x58x58x128xf32> into tensor<1x58x58x32x4xf32>
  %e = tensor.empty() : tensor<1x56x56x32x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x32x4xf32>) -> tensor<1x56x56x32x4xf32>
  %y = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x58x58x32x4xf32>, tensor<32x3x3x4x4xf32>) outs(%f : tensor<1x56x56x32x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x56x56x32x4xf32>
  %r = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x56x56x32x4xf32> into tensor<1x56x56x128xf32>
  return %r : tensor<1x56x56x128xf32>
}
