// Starter kernel: saxpy, result = a * x + y, over vectors of 1024 floats.
//
// PolyBlocks compiles this file into an object file plus a header, kernel.h,
// that declares
//     int saxpy(const float* x, const float* y, float* result0);
// and size macros such as SAXPY_X_SIZE and SAXPY_RESULT0_DIM0.
//
// To make it your own:
//   - Shapes: edit the tensor types (e.g. tensor<1024xf32> -> tensor<4096xf32>).
//     For 2-D data (tensor<64x64xf32>) also give the linalg.generic two loops:
//     maps (i, j) -> (i, j) and iterator_types ["parallel", "parallel"].
//     The header's macros follow the new shapes, and main.cpp sizes its
//     buffers with them.
//   - Arguments: each function argument becomes a `const float*` parameter
//     named after it (%x -> x); each result becomes a `float*` result0, ...
//   - Name: renaming @saxpy renames the C function and the SAXPY_ prefix.
//   - Computation: edit the linalg.generic body below, or use named ops such
//     as linalg.matmul (see examples/dense/dense.mlir).
func.func @saxpy(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<1024xf32>
  // One loop over i: result[i] = a * x[i] + y[i].
  %result = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%x, %y : tensor<1024xf32>, tensor<1024xf32>)
      outs(%init : tensor<1024xf32>) {
  ^bb0(%xi: f32, %yi: f32, %out: f32):
    %ax = arith.mulf %a, %xi : f32
    %sum = arith.addf %ax, %yi : f32
    linalg.yield %sum : f32
  } -> tensor<1024xf32>
  return %result : tensor<1024xf32>
}
