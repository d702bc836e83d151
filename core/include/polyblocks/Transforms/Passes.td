//===- Passes.td - PolyBlocks pass declarations -------------*- tablegen -*-===//
//
// Every pass PolyBlocks owns is declared here. The name chain is kept across
// record, flag, file and test: `PBLegalizeInput` / `pb-legalize-input` /
// `Common/LegalizeInput.cpp` / `tests/Transforms/Common/legalize-input.mlir`;
// passes live in Common/, CPU/ or GPU/ by the targets they serve.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_PASSES
#define POLYBLOCKS_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// S1: tensor -> memref
//===----------------------------------------------------------------------===//

def PBSetMachineModel : Pass<"pb-set-machine-model", "::mlir::ModuleOp"> {
  let summary = "Attach the target's machine model to the module";
  let description = [{
    Sets the module's `pb.machine` attribute, the machine model that later
    passes read their parameters from (vector width and registers, cache
    sizes, threads; the GPU chip), from `machine`, a dictionary in MLIR
    syntax whose missing fields keep the model's defaults. Every stage
    pipeline starts with it.

    ```mlir
    // -pb-set-machine-model='machine={vector_bits = 512 : i64, vector_registers = 32 : i64}'
    module attributes {pb.machine = {l1_kib = 32 : i64, l2_kib = 512 : i64, line_bytes = 64 : i64,
                                     target = "cpu", threads = 8 : i64, vector_bits = 512 : i64,
                                     vector_registers = 32 : i64}} { ... }
    ```
  }];
  let options = [
    Option<"machine", "machine", "std::string", /*default=*/"\"{}\"",
           "the machine model as an MLIR dictionary attribute, its braces "
           "optional (default: {}, a generic AVX2 CPU)">
  ];
}

def PBLegalizeInput : Pass<"pb-legalize-input", "::mlir::ModuleOp"> {
  let summary = "Reject input programs the pipeline cannot compile, with located errors";
  let description = [{
    Checks that a module is a tensor program PolyBlocks accepts before any
    transformation runs, and reports every violation at its source location:

    - only ops from the input dialects (builtin, func, linalg, tensor, arith,
      math, tosa) appear;
    - every public function takes and returns ranked tensors with static
      shapes and a supported element type (f32, f64, f16, bf16, i8, i16, i32,
      i64, i1);
    - no value anywhere in the program has a dynamic dimension.

    ```mlir
    // error: dynamic dimension in argument #0 of @f: 'tensor<?x4xf32>' (only static shapes are supported)
    func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32>
    ```

    The pass never modifies the IR.
  }];
}

def PBDecomposeAggregateOps
    : Pass<"pb-decompose-aggregate-ops", "::mlir::func::FuncOp"> {
  let summary = "Decompose linalg.softmax (and other aggregate linalg ops) into the ops they stand for";
  let description = [{
    Some linalg ops stand for a whole computation: `linalg.softmax` is a
    max reduction, a subtraction and exponential, a sum reduction and a
    division. Every op implementing `AggregatedOpInterface` is replaced, on
    tensors, by those linalg ops (its own `decomposeOperation`), which the
    later stages lower, fuse and vectorize like any other.

    ```mlir
    %r = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    // becomes
    %m = linalg.reduce ... arith.maxnumf ...; %d = linalg.generic { subf, exp } ...
    %s = linalg.reduce ... arith.addf ...;    %r = linalg.generic { divf } ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBConvertConvsToChannelsLast
    : Pass<"pb-convert-convs-to-channels-last", "::mlir::func::FuncOp"> {
  let summary = "Compute channels-first convolutions and poolings channels-last, between transposes";
  let description = [{
    Runs on tensors. `linalg.conv_2d_nchw_fchw`,
    `linalg.depthwise_conv_2d_nchw_chw`, `linalg.pooling_nchw_max` and
    `linalg.pooling_nchw_sum` become their NHWC forms (filters HWCF / HWC),
    their image and init transposed to NHWC and their result back to NCHW.
    A grouped convolution, `linalg.conv_2d_ngchw_gfchw` (PyTorch's with
    `groups` > 1), becomes `linalg.conv_2d_nhwgc_gfhwc` (filter GFHWC); the
    image and result that torch-mlir splits into groups from NCHW tensors
    (`tensor.expand_shape` `[[0], [1, 2], [3], [4]]`) are transposed as
    those 4-D tensors, NCHW <-> NHWC, before the split and after the join
    (`tensor.collapse_shape` of the NHWGC result), so that the transposes
    meet those of the convolutions around it; others as 5-D tensors,
    NGCHW <-> NHWGC.
    On the CPU the channels are then the unit-stride dimension the vector
    micro-kernels tile (the output width, which NCHW would vectorize, is 7
    to 14 at the end of most networks). An init that fills an empty tensor
    is filled again in the new layout rather than transposed.

    ```mlir
    %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%f : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    // becomes
    %xt = linalg.transpose ins(%x : ...) outs(...) permutation = [0, 2, 3, 1]
    %wt = linalg.transpose ins(%w : ...) outs(...) permutation = [2, 3, 1, 0]
    %c = linalg.conv_2d_nhwc_hwcf ins(%xt, %wt : ...) outs(%f2 : tensor<1x56x56x64xf32>) -> ...
    %y = linalg.transpose ins(%c : ...) outs(...) permutation = [0, 3, 1, 2]
    ```

    The filter transposes are of constants in a network (see
    `pb-fold-constant-transposes`); the activation transposes cancel once
    `pb-propagate-transposes` has moved them through the ops between two
    convolutions.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBGroupedConvsAsBatches
    : Pass<"pb-grouped-convs-as-batches", "::mlir::func::FuncOp"> {
  let summary = "Compute grouped convolutions as a batch over their groups, the group loop outermost";
  let description = [{
    Runs on tensors (CPU), after pb-convert-convs-to-channels-last and
    pb-propagate-transposes (which would fold the filter's transpose into
    the generic's map when the filter is no constant, and the filter must
    be read with `f` at unit stride). A grouped convolution, channels last -- `linalg.conv_2d_nhwgc_gfhwc`, or
    any `linalg.generic` computing
    `O[n, oh, ow, g, f] += I[n, oh * s + kh * d, ow * s + kw * d, g, c] *
    W[...]` with the filter's five dims in any order (JAX's has
    `[kh, kw, c, g, f]`) -- with more than one group and more than one
    channel in or out per group, becomes the `linalg.generic` whose loops
    are `(g, n, oh, ow, f, kh, kw, c)` and whose filter is transposed to
    `[g, kh, kw, c, f]`:

    ```mlir
    %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>,
        strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : tensor<1x30x30x32x4xf32>, tensor<32x4x3x3x4xf32>)
        outs(%o : tensor<1x28x28x32x4xf32>) -> tensor<1x28x28x32x4xf32>
    // becomes
    %wt = linalg.transpose ins(%w : tensor<32x4x3x3x4xf32>)
        outs(%e : tensor<32x3x3x4x4xf32>) permutation = [0, 2, 3, 4, 1]
    %y = linalg.generic {indexing_maps = [
          affine_map<(g, n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>,
          affine_map<(g, n, oh, ow, f, kh, kw, c) -> (g, kh, kw, c, f)>,
          affine_map<(g, n, oh, ow, f, kh, kw, c) -> (n, oh, ow, g, f)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "parallel", "reduction", "reduction", "reduction"]}
        ins(%x, %wt : ...) outs(%o : ...) { mulf, addf }
    ```

    Once pb-permute-for-vectorization has moved `f` innermost, that is a
    batch (over `g`) of convolutions: pb-register-tile-contraction tiles
    it as a batched matmul's, each group's filter packed as its column
    factor, the groups the parallel loop. In another order the group loop
    falls between the row loop and the reductions, the filter moves with
    it, and the nest stays scalar. A transpose of the filter is a constant's
    in a network (pb-fold-constant-transposes evaluates it); a transpose
    already on the filter is composed with it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBPropagateTransposes
    : Pass<"pb-propagate-transposes", "::mlir::func::FuncOp"> {
  let summary = "Move transposes of activations forward through elementwise ops and pads until they cancel";
  let description = [{
    Runs on tensors. A `linalg.transpose` of a non-constant value moves past
    its consumers:

    - an elementwise `linalg.generic` (every loop parallel, identity
      output maps, inits not read, no `linalg.index`) reading it in place is
      computed in the transpose's input layout, its other operands read
      through their indexing maps composed with the permutation (other
      transposes among them read in place), and its results transposed;
    - a `tensor.pad` with a constant padding value pads the transpose's
      input (pad amounts permuted) and is transposed;
    - any other `linalg.generic` reads the transpose's input through its
      indexing map, and the transpose is not computed for it;
    - transposes of transposes fold (canonicalization), to nothing when
      they are inverses.

    And a transpose (a `linalg.transpose`, or a `linalg.generic` that only
    permutes its input) that is the only reader of a reduction's result (a
    contraction accumulating onto a `linalg.fill`) folds into the
    reduction's output map: it computes in the transposed layout, onto the
    same fill. Flax's attention computes `softmax(QK^T) V` as `[b, h, d,
    q]` and transposes it to `[b, q, h, d]`; in that layout `V`'s
    unit-stride `d` is the product's columns, and the micro-kernel takes it.

    After `pb-convert-convs-to-channels-last`, the NCHW result of one
    convolution goes through batch norm, activations, residual adds and the
    next convolution's pad in NHWC, and meets that convolution's NHWC
    transpose: a network computes channels-last from its first convolution
    to its last, with one transpose of its input.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBFoldConstantTransposes
    : Pass<"pb-fold-constant-transposes", "::mlir::func::FuncOp"> {
  let summary = "Evaluate transposes of constants at compile time";
  let description = [{
    Runs on tensors. A `linalg.transpose` of a constant (dense elements or
    a `dense_resource` blob, elements of whole bytes) becomes a constant:
    dense elements for dense input, a new blob named after the input's
    (`<name>_transposed`) for a resource. PyTorch's Linear layers multiply
    by their weight transposed and channels-last convolutions read their
    filters transposed: without this every call would transpose every
    weight. Splats fold to splats; elided resources are left alone.

    Budget: a constant larger than `max-bytes` is left to be transposed at
    run time. The folded constant replaces the transpose; the input stays
    only while something else reads it, so a network whose weights are
    read only transposed does not grow.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"int64_t(1) << 30",
           "largest constant, in bytes, transposed at compile time">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PBBubbleUpExtractSlices
    : Pass<"pb-bubble-up-extract-slices", "::mlir::func::FuncOp"> {
  let summary = "Compute only the slice of a linalg op's result that is used";
  let description = [{
    Runs on tensors. A `tensor.extract_slice` (unit strides) of the result
    of a linalg op with one result, all of whose indexing maps are projected
    permutations, and which has no other use, moves above the op: the op
    computes the slice alone, from slices of its operands (upstream's
    bubble-up patterns). Exporters compute for the largest shape a model
    supports and slice to the input's: GPT-2's causal mask, a 1024 x 1024
    byte buffer, is converted to i1 and sliced to the 128 x 128 a 128-token
    input uses; afterwards the conversion reads and writes 128 x 128.

    ```mlir
    %m = linalg.generic {... iterator_types = ["parallel", "parallel"]}
        ins(%bias : tensor<1024x1024xi8>) outs(%e : tensor<1024x1024xi1>) ...
    %s = tensor.extract_slice %m[0, 0] [128, 128] [1, 1]
        : tensor<1024x1024xi1> to tensor<128x128xi1>
    // becomes
    %b = tensor.extract_slice %bias[0, 0] [128, 128] [1, 1]
        : tensor<1024x1024xi8> to tensor<128x128xi8>
    %s = linalg.generic {...} ins(%b : tensor<128x128xi8>)
        outs(%e2 : tensor<128x128xi1>) ...
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBTransposeColumnFactors
    : Pass<"pb-transpose-column-factors", "::mlir::func::FuncOp"> {
  let summary = "Give a contraction's column factor a copy laid out with the columns innermost";
  let description = [{
    Runs on tensors, after pb-propagate-transposes (which would read the
    copy's source through the map again). In a `linalg.generic` contraction
    of two inputs (static shapes), the column factor is the input that moves
    with the result's innermost dimension `j`. When its innermost dimension
    is a reduction instead, it is transposed (`linalg.transpose`, `j` moved
    last, the other dimensions in order) and read through the permuted map:
    the register-tiled micro-kernel loads NR columns of it as one vector,
    which it cannot with the columns strided. JAX's attention scores:

    ```mlir
    // einsum('bqhd,bkhd->bhqk'): q[b, q, h, d] * k[b, k, h, d], d reduced
    %s = linalg.generic {indexing_maps = [(b, h, q, k, d) -> (b, q, h, d),
                                          (b, h, q, k, d) -> (b, k, h, d),
                                          (b, h, q, k, d) -> (b, h, q, k)], ...}
    // becomes
    %kt = linalg.transpose ins(%k : tensor<8x128x12x64xf32>)
        outs(%e : tensor<8x12x64x128xf32>) permutation = [0, 2, 3, 1]
    %s = linalg.generic {indexing_maps = [(b, h, q, k, d) -> (b, q, h, d),
                                          (b, h, q, k, d) -> (b, h, d, k),
                                          ...], ...}
    ```

    A constant column factor's transpose is then evaluated at compile time
    (pb-fold-constant-transposes).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBFoldConstantElementwise
    : Pass<"pb-fold-constant-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Evaluate elementwise ops on constants at compile time";
  let description = [{
    Runs on tensors. A `linalg.generic` whose loops are all parallel, whose
    inputs are all constants (dense elements or `dense_resource` blobs, read
    through a reshape), whose inits are not read and whose results are
    floats becomes constants: its payload is evaluated element by element
    (arith add / sub / mul / div / neg / min / max / truncf / extf and math
    abs / sqrt / rsqrt / exp / log / tanh / erf, f32 in float arithmetic,
    other types in double rounded to theirs). Batch norm computes its
    `rsqrt(running_var + eps)` from constants; without this each call would
    compute it again.

    ```mlir
    %v = arith.constant dense<[1.0, 4.0]> : tensor<2xf32>
    %r = linalg.generic {... iterator_types = ["parallel"]}
        ins(%v : tensor<2xf32>) outs(%e : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = math.rsqrt %in : f32
      linalg.yield %s : f32
    } -> tensor<2xf32>
    // becomes
    %r = arith.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf32>
    ```

    Splat inputs give splat results. Otherwise a result is folded only when
    it has no more elements than the largest input (a bias broadcast over a
    matrix is cheaper to compute than to store) and its bytes are within
    `max-bytes`; a result of a resource is a new blob named after it
    (`<name>_folded`). Payloads with other ops (`linalg.index`, integers,
    comparisons) are left alone.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"int64_t(1) << 22",
           "largest result, in bytes, evaluated at compile time">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PBFoldScaleShift : Pass<"pb-fold-scale-shift", "::mlir::func::FuncOp"> {
  let summary = "Fold per-channel multiplies by constants into the filter of the convolution before them";
  let description = [{
    Runs on tensors, after `pb-fold-constant-elementwise`. An elementwise
    `linalg.generic` computing `x * k` or `x / k`, k a constant that varies
    at most along one dimension (the channel), disappears when x is

    - the only use of a convolution's result (any op of the convolution
      interface: NCHW, NHWC, depthwise) accumulated onto zeros: the
      convolution's constant filter is multiplied by k along that channel;
    - or the only use of a shift `c + t` or `c - t` of such a result, t a
      constant along the same channel: the filter is scaled and t with it
      (`(c + t) * k = c * k + t * k`);
    - or the only use of another such multiply: a chain of them folds at
      once, from its last, with the product of their factors (the filter
      is rewritten once).

    Inference batch norm, `(conv(x, w) - mean) * invstd * gamma + beta`,
    becomes `conv(x, w * invstd * gamma) - mean * invstd * gamma + beta`:
    two shifts, which `pb-fuse-elementwise` fuses with the activation after
    them into one pass that reads two vectors instead of four.

    ```mlir
    %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : ...) outs(%zeros : tensor<1x56x56x64xf32>)
    %y = linalg.generic ... ins(%c, %scale : tensor<1x56x56x64xf32>, tensor<64xf32>) ... {
      %m = arith.mulf %in, %s : f32
    // becomes
    %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w_scaled : ...) outs(%zeros : ...)
    ```

    Scales (and scaled shifts) must be finite: an infinity or NaN would not
    scale a sum as it scales its terms. The filter is rewritten when no
    larger than `max-bytes`; a resource filter becomes a new blob named
    after it (`<name>_scaled`). Shifts are not folded into the value the
    convolution accumulates onto: a vector broadcast in place of the zero
    fill measured slower (bench/RESULTS.md, notes on the passes).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"int64_t(1) << 30",
           "largest filter, in bytes, scaled at compile time">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PBFoldCopyGenerics : Pass<"pb-fold-copy-generics", "::mlir::func::FuncOp"> {
  let summary = "Replace linalg.generic copies that change no value by their input or a tensor.expand_shape of it";
  let description = [{
    Runs on tensors. A `linalg.generic` of static shapes, all loops
    parallel, that yields its one input unchanged into its one init (whose
    map is the identity) is a copy. Read through the identity (jaxlib's
    stop_gradient) it is replaced by its input; read through the identity
    with dims dropped, each of size 1 in the result (jaxlib's
    `broadcast_in_dim` of a row's mean or maximum to [..., 1]), by a
    `tensor.expand_shape` of its input, each added dim grouped with the
    dim before it. Neither is then a loop nest: the expand_shape
    bufferizes to a view, and passes that match what reads a row value
    (pb-fuse-attention) see the form torch-mlir's exports have.

    ```mlir
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>], ...}
        ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) { linalg.yield %in : f32 }
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>], ...}
        ins(%c : tensor<2x8xf32>) outs(%f : tensor<2x8x1xf32>) { linalg.yield %in : f32 }
    // becomes
    %b = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 8, 1]
        : tensor<2x8xf32> into tensor<2x8x1xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def PBFuseAttention : Pass<"pb-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Compute attention as one nest over the heads with an online softmax over key blocks";
  let description = [{
    Runs on tensors (CPU). Attention as the exporters write it -- scores
    `S = Q K` ([B, Sq, D] x [B, D, Sk], zero init), then elementwise ops on
    the scores (a scale, a mask, read through projected permutations and
    `linalg.index`), a row maximum, `exp(x - max)`, a row sum, a division
    by it, and `P V` (zero init), the softmax possibly on a view splitting B
    into batch and heads -- becomes one `scf.forall` over the B heads whose
    body walks the keys in blocks of Bk (chooseAttentionKeyBlock: all of
    them when a head's scores fit in a quarter of L2) with an online
    softmax. The two products are `linalg.batch_matmul` (torch-mlir) or
    multiply-accumulate `linalg.generic` contractions of one rows, cols and
    depth loop under any batch loops, their operands and result in any
    layout (jaxlib's einsums over [b, s, h, d]; the values may be the first
    operand); the row values may be read as [..., 1] through a
    `tensor.expand_shape` (the form pb-fold-copy-generics gives jaxlib's
    stop_gradient and broadcasts). A head's Q, K, V and
    output are slices of their tensors as they are (the head split into
    their batch dims) where its rows come before its cols there, and are
    transposed to [B, rows, cols] before (the output: after) otherwise:

    ```mlir
    scf.forall (%h) in (B) {                 // heads, on the threads
      m = -inf, l = 0, acc = 0                // per query row
      scf.for %kb = 0 to Sk step Bk {
        s = Q[h] K[h][:, kb : kb + Bk]        // the block's scores
        s = prologue(s)                       // scale, mask at (h, i, kb + j)
        m' = max(m, rowmax(s))
        p = exp(s - m'); alpha = exp(m - m')  // (m' = -inf: 0 subtracted)
        l = l * alpha + rowsum(p)
        acc = acc * alpha + p V[h][kb : kb + Bk]
      }
      out[h] = acc / l
    }
    ```

    The scores of the whole sequence are never written out: a block of
    them is consumed by the softmax and the second product while it is in
    cache, and the heads run in parallel (S4 turns the `scf.forall` into
    an OpenMP loop); the matmuls in the body are register-tiled as any.
    The same structure, heads over blocks and key blocks in a loop, is
    what a GPU kernel of flash attention takes. Attention whose
    intermediate values have other readers, other element types than f32,
    or no key block dividing Sk is left as it is.
  }];
  let options = [
    Option<"keyBlock", "key-block", "int64_t", /*default=*/"0",
           "keys per step of the online softmax (default: 0, from the "
           "machine model)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBTileBatch : Pass<"pb-tile-batch", "::mlir::func::FuncOp"> {
  let summary = "Run the leading ops of a batched network one image at a time while its activations outgrow the last-level cache";
  let description = [{
    Runs on tensors (CPU). A batched network makes each activation for all
    its images before the next op reads it; where the activation outgrows
    the last-level cache, the next op reads it back from memory
    (MobileNetV2 at batch 8: the 8x112x112x96 expansion, 38.5 MB, written
    by a 1x1 convolution and read by a depthwise one). The ops up to the
    cut -- the last op, in program order, that reads or makes such an
    activation (isBatchTiledActivation: over a quarter of the L3 at full
    batch, one image's share within half of it), followed on through the
    elementwise ops that alone read its result -- are tiled by one image
    and fused into one `scf.for` over the images (upstream
    `tileConsumerAndFuseProducersUsingSCF`):

    ```mlir
    %out = scf.for %n = 0 to 8 step 1 iter_args(%acc = %init) {
      %x = tensor.extract_slice %input[%n, 0, 0, 0] [1, 224, 224, 3] ...
      ...                                  // the leading ops, one image
      %r = tensor.insert_slice %y into %acc[%n, 0, 0, 0] [1, 28, 28, 144] ...
      scf.yield %r
    }
    ```

    Each image's activations then pass from op to op through the cache,
    and the ops within run on the threads as at batch 1. An op fuses when
    it computes each image from that image's operands alone: a
    convolution or pooling, an elementwise `linalg.generic`, a fill or a
    transpose whose result's dim 0 is a parallel loop that reads only dim
    0 of the operands with the batch, or a `tensor.pad` leaving dim 0
    alone. Matmuls do not: split by image, a matmul's weight is packed and
    read once per image (a transformer layer at batch 8 ran four times
    slower). One whose result is also read after the cut is yielded by the
    loop as well. Nothing changes unless a large activation is made and
    read within the loop, never leaving it. The ops after the cut, where
    the weights are larger than the activations, stay batched.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBPointwiseConvsAsMatmuls
    : Pass<"pb-pointwise-convs-as-matmuls", "::mlir::func::FuncOp"> {
  let summary = "Compute 1x1 convolutions of unit stride as matmuls of pixels by channels";
  let description = [{
    Runs on tensors (CPU), after pb-fuse-elementwise and before
    pb-pad-in-place. A `linalg.conv_2d_nhwc_hwcf` with a 1x1 filter and
    unit strides, static shapes, is the matmul
    `[N * H * W, C] x [C, F]`; the micro-kernel tiles a convolution's
    rows within one image row (7 pixels: tiles of 4 and 3 rows), a
    matmul's across them. The elementwise `linalg.generic` that alone
    reads the convolution's result pixel by pixel (batch norm's shift, an
    activation, a residual add), if its maps read the pixel dims n, h, w
    together (or not at all), is reshaped with it, so that
    pb-fuse-epilogues computes it on the matmul's tiles:

    ```mlir
    %c = linalg.conv_2d_nhwc_hwcf ... ins(%x, %w : tensor<1x7x7x160xf32>,
        tensor<1x1x160x960xf32>) outs(%z : tensor<1x7x7x960xf32>)
    %r = linalg.generic ... ins(%c, %shift : ..., tensor<960x1x1xf32>) ...
    // becomes
    %m = linalg.matmul ins(%x2, %w2 : tensor<49x160xf32>, tensor<160x960xf32>)
        outs(%z2 : tensor<49x960xf32>)
    %r2 = linalg.generic ... ins(%m, %shift : ..., tensor<960x1x1xf32>) ...
    %r = tensor.expand_shape %r2 [[0, 1, 2], [3]] ...
    ```

    (`%x2`, `%w2`, `%z2`: `tensor.collapse_shape`s.) A convolution whose
    result (or its epilogue's) is padded is left alone: pb-pad-in-place
    has it write into the padded tensor's interior, whose pixels are not
    one matrix. (Measured: bench/RESULTS.md, notes on the passes.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBPadInPlace : Pass<"pb-pad-in-place", "::mlir::func::FuncOp"> {
  let summary = "Compute a padded tensor's interior in place: fill its border first, then insert the producer's result";
  let description = [{
    Runs on tensors, before bufferization. A `tensor.pad` with static
    shapes and low padding, a constant padding value, and a source computed
    by a destination-style op of the same block becomes fills of the
    padded shape's border, placed before that op, and a
    `tensor.insert_slice` of the source into its interior. Empty-tensor
    elimination then makes the producer compute into the interior of the
    padded buffer, so the pad's copy of the whole tensor disappears (a
    convolution's zero padding of the previous layer's activations), and
    no element is written twice: for each padded dimension, in order, the
    slabs below and above the interior are filled, across the interior of
    the dimensions before it and the whole of those after it.

    ```mlir
    %r = linalg.generic ... outs(%e : tensor<1x56x56x24xf32>) ...
    %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] { tensor.yield %zero : f32 }
        : tensor<1x56x56x24xf32> to tensor<1x58x58x24xf32>
    // becomes
    %t = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x58x24xf32>) -> tensor<1x1x58x24xf32>
    %f1 = tensor.insert_slice %t into %e2[0, 0, 0, 0] [1, 1, 58, 24] [1, 1, 1, 1]
    ... row 57, then columns 0 and 57 of rows 1 to 56 (tensor<1x56x1x24xf32>)
    %r = linalg.generic ... outs(%e : tensor<1x56x56x24xf32>) ...
    %p = tensor.insert_slice %r into %f[0, 1, 1, 0] [1, 56, 56, 24] [1, 1, 1, 1]
    ```
    (Measured: bench/RESULTS.md, notes on the passes.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBCollapseContractionDims
    : Pass<"pb-collapse-contraction-dims", "::mlir::func::FuncOp"> {
  let summary = "Collapse the loops of a contraction that every operand indexes together into one";
  let description = [{
    Runs on tensors. In a `linalg.generic` contraction (a multiply-add
    reduction over projected-permutation maps, static shapes), each run of
    consecutive loops of one iterator type that every operand indexes next
    to each other, in loop order, or not at all, becomes one loop; the
    operands are reshaped (`tensor.collapse_shape`, the results expanded
    back). Flax's `DenseGeneral` arrives as

    ```mlir
    // (b, s, h, d, e): x[b, s, e] * w[e, h, d] -> y[b, s, h, d]
    ```

    and leaves as the matmul it is, `x[b * s, e] * w[e, h * d]`, which the
    micro-kernel tiles with `b * s` rows and `h * d` columns; as written,
    its rows were `s` alone and its column factor moved with `h`, and it
    fell off the micro-kernel (a BERT layer's query projection at batch 8:
    35 ms). (Measured: bench/RESULTS.md, notes on the passes.) Named ops
    and contractions with no run to collapse are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBFuseElementwise : Pass<"pb-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg.generic ops into one";
  let description = [{
    Runs on tensors. An elementwise `linalg.generic` (all loops parallel)
    whose result only one elementwise `linalg.generic` reads, through a
    permutation map, is fused into that reader (upstream's elementwise
    fusion, under this control): exporters spell batch norm (subtract,
    scale, scale, shift), ReLU6 (max, min), bias adds and residual adds as
    one op each, every one a pass over memory. A producer read through a
    broadcast (a per-channel `rsqrt(var + eps)`) is not fused: that would
    compute it once per element; nor is one with several readers.
    Splat constant operands become scalars in the body.

    Then a fused chain that reads an elementwise generic's result through a
    `tensor.expand_shape` (that result read by nothing else), and whose own
    result is only collapsed back the same way, is collapsed to the
    source's shape (upstream's reshape folding by collapsing, under this
    control) and fused with that generic: torch's Linear then GELU, a bias
    add on a matmul's rows and the activation on them as batch x rows,
    become one op that pb-fuse-epilogues computes on the matmul's tiles.
    A chain whose result is also read in the expanded shape (a layer
    norm's) stays as it is: ops of two shapes do not fuse as loop nests.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PBShareBuffers : Pass<"pb-share-buffers", "::mlir::func::FuncOp"> {
  let summary = "Place a function's intermediate buffers in one arena, sharing bytes between buffers never live together";
  let description = [{
    The buffers that a function's body allocates and frees itself
    (`memref.alloc` and its one `memref.dealloc` in that block, or both in
    the body of an `scf.for` in it, such as pb-tile-batch's loop over the
    images; statically shaped, identity layout, whole-byte elements, not
    returned) become
    `memref.view`s of one arena allocated at the function's start and freed
    before its return. Each buffer is live from its allocation to its
    release; largest first, each takes the lowest 64-byte-aligned offset
    where it overlaps no buffer live at the same time, so the arena is
    about the peak of live bytes, not their sum. A loop's body counts as
    placed before the loop: a buffer of the function that the loop uses is
    live through all of it, one of the body within an iteration, its bytes
    the same in every iteration.

    A network allocates hundreds of intermediate buffers per call, and the
    C library serves large ones from `mmap` and returns them to the system
    when they are freed: every call faulted their pages in again. One arena
    is one allocation per call, kept by the allocator between calls when it
    is under its `mmap` threshold. (Measured: bench/RESULTS.md, notes on
    the passes.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PBStaticArenas : Pass<"pb-static-arenas", "::mlir::ModuleOp"> {
  let summary = "Keep each function's buffer arena in a global between calls, taken with an atomic flag";
  let description = [{
    Runs after `pb-share-buffers` (S3, CPUs), on the arena it allocates at
    a function's start (`memref.alloc` marked `pb.arena`) and frees at its
    end. The function gets a zero-filled global of the arena's size and an
    `i32` flag: a call takes the global by exchanging the flag with 1
    (`memref.atomic_rmw assign`) and gives it back by storing 0; a call
    that finds it taken (a concurrent call on another thread, or a
    recursive one) allocates an arena of its own and frees it, as before.
    Arenas under `min-kib` stay on the heap.

    ```mlir
    %arena = memref.alloc() {alignment = 64 : i64, pb.arena} : memref<65536xi8>
    ...
    memref.dealloc %arena : memref<65536xi8>
    // becomes
    %was = memref.atomic_rmw assign %c1_i32, %flag[%c0] : (i32, memref<1xi32>) -> i32
    %own = arith.cmpi eq, %was, %c0_i32 : i32
    %arena = scf.if %own -> (memref<65536xi8>) {
      %g = memref.get_global @__pb_arena_f : memref<65536xi8>
      scf.yield %g : memref<65536xi8>
    } else {
      %a = memref.alloc() {alignment = 64 : i64} : memref<65536xi8>
      scf.yield %a : memref<65536xi8>
    }
    ...
    scf.if %own {
      %0 = memref.atomic_rmw assign %c0_i32, %flag[%c0] : (i32, memref<1xi32>) -> i32
    } else {
      memref.dealloc %arena : memref<65536xi8>
    }
    ```

    Above the C library's `mmap` threshold an arena freed at the end of
    every call is mapped again by the next one, and each of its pages
    faulted in again (a network at batch 8 needs tens of megabytes); the
    global's pages are faulted in once. The memory stays with the program
    for its lifetime, as an inference runtime's arena does. (Measured:
    bench/RESULTS.md, notes on the passes.)
  }];
  let options = [
    Option<"minKiB", "min-kib", "uint64_t", /*default=*/"0",
           "smallest arena kept in a global, in KiB (default: 0, all)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def PBYieldIntoIterArgs : Pass<"pb-yield-into-iter-args", "::mlir::func::FuncOp"> {
  let summary = "Write the tensors a loop carries back into its iteration arguments";
  let description = [{
    Runs on tensors, before bufferization. One-shot bufferization needs the
    tensor an `scf.for` or `scf.while` yields to be equivalent to the
    iteration argument it becomes; a loop body computing a new tensor (into
    a `tensor.empty`, as exporters write it) breaks that. Each such yielded
    tensor is materialized in the iteration argument
    (`bufferization.materialize_in_destination`); empty-tensor elimination
    then computes it there directly, and the loop keeps one buffer per
    carried tensor instead of allocating one every iteration. Values that
    are block arguments (carried unchanged or swapped) are left alone, and
    so are iteration arguments the loop passes on themselves (their buffer
    still holds a value to be read): such loops allocate per iteration.

    ```mlir
    %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %x) -> tensor<8xf32> {
      %n = linalg.exp ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    // becomes
    %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %x) -> tensor<8xf32> {
      %n = linalg.exp ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      %m = bufferization.materialize_in_destination %n in %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      scf.yield %m : tensor<8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def PBPrepareEntryPoints : Pass<"pb-prepare-entry-points", "::mlir::ModuleOp"> {
  let summary = "Make public functions bufferize into the C interface's contract";
  let description = [{
    Runs on tensors, before bufferization, on every public function:

    - its arguments are inputs the caller owns and the header declares
      `const T*`: they are marked `bufferization.writable = false`, so that
      bufferization never writes into them (an op whose init is an argument
      gets a buffer of its own);
    - each result gets a value of its own: a value returned a second time is
      copied (`bufferization.alloc_tensor() copy(...)`), so that every result
      buffer is written.

    ```mlir
    func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %e = linalg.exp ins(%a : ...) outs(%a : ...) -> tensor<4xf32>
      return %e, %e : tensor<4xf32>, tensor<4xf32>
    }
    // becomes
    func.func @f(%a: tensor<4xf32> {bufferization.writable = false}) -> ... {
      %e = linalg.exp ins(%a : ...) outs(%a : ...) -> tensor<4xf32>
      %c = bufferization.alloc_tensor() copy(%e) : tensor<4xf32>
      return %e, %c : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def PBOrderConstantGlobals : Pass<"pb-order-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Name and order the globals of tensor constants by their first use";
  let description = [{
    One-shot bufferization turns each tensor constant into a private
    `memref.global @__constant_<shape>x<type>` (`_0`, `_1`, ... for further
    ones of that type), in the order in which it visits the functions, which
    can change from run to run: the same program then gave different IR and
    object files. This pass renames those globals in the order of their
    first `memref.get_global` in the module (unused ones after, in module
    order) and puts them at the top of the module in that order, so that
    the output depends on the program only.

    ```mlir
    memref.global "private" constant @__constant_3xf32_0 : memref<3xf32> = dense<2.0>
    memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<1.0>
    func.func @f() { %a = memref.get_global @__constant_3xf32_0 ... }
    func.func @g() { %b = memref.get_global @__constant_3xf32 ... }
    // becomes
    memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<2.0>
    memref.global "private" constant @__constant_3xf32_0 : memref<3xf32> = dense<1.0>
    func.func @f() { %a = memref.get_global @__constant_3xf32 ... }
    func.func @g() { %b = memref.get_global @__constant_3xf32_0 ... }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PBReturnStatus : Pass<"pb-return-status", "::mlir::ModuleOp"> {
  let summary = "Make every public function return an i32 status (0 = success)";
  let description = [{
    After results have become out-parameters, the public entry points of a
    PolyBlocks kernel return an `i32` status, as the generated C header
    promises. Functions without results get `-> i32` and return 0.

    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) { ... return }
    // becomes
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) -> i32 {
      ...
      %c0 = arith.constant 0 : i32
      return %c0 : i32
    }
    ```

    Private functions are left alone; calls to public functions are rejected
    (the pipeline inlines them before this pass).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// S2: named ops -> affine
//===----------------------------------------------------------------------===//

def PBLowerCopies : Pass<"pb-lower-copies", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy so that it becomes a loop nest";
  let description = [{
    Bufferization expresses tensor.pad, insert_slice and result copies with
    `memref.copy`, which the standard LLVM lowering turns into a call to the
    `memrefCopy` runtime function for non-contiguous layouts. PolyBlocks
    generates every loop itself: this pass rewrites each copy between
    same-typed ranked memrefs as `linalg.copy`, which S2 lowers to an affine
    nest like every other linalg op.

    ```mlir
    memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
    // becomes
    linalg.copy ins(%a : memref<4x4xf32, strided<[8, 1]>>) outs(%b : memref<4x4xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PBLowerTMTensor : Pass<"pb-lower-tm-tensor", "::mlir::func::FuncOp"> {
  let summary = "Lower torch-mlir's sort, topk, scan and scatter (on memrefs) to loops";
  let description = [{
    After bufferization, each `tm_tensor` op becomes scf loops over its
    buffers:

    - `sort`: a stable bottom-up merge sort of every slice along its
      dimension (n log n comparisons), through one scratch slice per
      output; the region decides whether two elements are in order;
    - `topk`: every input element moves through the k kept elements of its
      slice, displacing those it is better than (ties: smaller index first);
    - `scan`: a running combination along the dimension, the total left in
      the accumulator;
    - `scatter`: for every element of every update, its position in the
      original; each index is checked to lie inside it (`cf.assert`, which
      pb-lower-assertions turns into a status), then the element is read,
      combined with the update and written back, updates in order.

    ```mlir
    tm_tensor.scan dimension(0) inclusive(true) ins(%x : memref<8xf32>)
        outs(%out, %acc : memref<8xf32>, memref<f32>) {
    ^bb0(%prev: f32, %v: f32):
      %s = arith.addf %prev, %v : f32
      tm_tensor.yield %s : f32
    }
    // becomes
    %first = memref.load %x[%c0] : memref<8xf32>
    memref.store %first, %out[%c0] : memref<8xf32>
    %total = scf.for %i = %c1 to %c8 step %c1 iter_args(%prev = %first) -> (f32) {
      %v = memref.load %x[%i] : memref<8xf32>
      %s = arith.addf %prev, %v : f32
      memref.store %s, %out[%i] : memref<8xf32>
      scf.yield %s : f32
    }
    memref.store %total, %acc[] : memref<f32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def PBLowerAssertions : Pass<"pb-lower-assertions", "::mlir::func::FuncOp"> {
  let summary = "Turn run-time checks (cf.assert) into guarded work and a status";
  let description = [{
    Exporters guard what an input decides at run time with `cf.assert`
    (torch-mlir checks every index of an embedding or a gather against the
    table's size). Lowered as upstream does it, a failing check aborts the
    process; a PolyBlocks entry point never does. On loops over memrefs
    (after S2's linalg lowering), each `cf.assert` becomes an `scf.if` on its
    condition around the rest of its block, so that the guarded work (the
    out-of-bounds load) is skipped, and a failure sets a flag; the function
    then returns `PB_STATUS_CHECK_FAILED` (8) instead of its status.

    ```mlir
    %ok = arith.cmpi slt, %i, %c100 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = memref.load %table[%i, %j] : memref<100x16xf32>
    memref.store %v, %out[%k, %j] : memref<8x16xf32>
    // becomes
    scf.if %ok {
      %v = memref.load %table[%i, %j] : memref<100x16xf32>
      memref.store %v, %out[%k, %j] : memref<8x16xf32>
    } else {
      memref.atomic_rmw assign %c1_i32, %failed[] : (i32, memref<i32>) -> i32
    }
    ...
    %flag = memref.load %failed[] : memref<i32>
    %status = arith.select (%flag != 0), %c8_i32, %c0_i32 : i32
    return %status : i32
    ```

    With `mode=drop` the checks are erased instead (pbtool
    `--drop-assertions`): the work runs unguarded. With `mode=reject` each
    check is an error (GPU targets, whose host cannot read a flag in device
    memory).
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"guard\"",
           "guard (skip the guarded work and return the status), drop "
           "(erase the checks) or reject (report each as an error) "
           "(default: guard)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// S3: affine, target-aware
//===----------------------------------------------------------------------===//

def PBWinogradConvolutions
    : Pass<"pb-winograd-convolutions", "::mlir::ModuleOp"> {
  let summary = "Compute 3x3 stride-1 convolutions with Winograd's F(m x m, 3 x 3)";
  let description = [{
    Runs on buffers, before linalg becomes loops (CPU), on the module (the
    transformed filters are constant globals of the module). A
    `linalg.conv_2d_nhwc_hwcf` on f32 with a 3x3 filter, unit strides and
    dilations and static shapes is computed in tiles of m x m
    outputs (m from the machine model, chooseWinogradTile: 4 or 2, the
    fewest products per output among those leaving a register tile of
    rows) from (m + 2) x (m + 2) tiles of the input (alpha = m + 2). When m
    divides neither output dimension (a 7 x 7 layer), the last tiles
    overhang the output: their inputs past the padded input read as zeros
    and their outputs past the output are not stored (`affine.if` on the
    last tiles' subscripts). A filter that is a constant global (a
    network's weights, batch norm folded in) is transformed at compile time
    into a new constant global; any other (an argument: JAX's weights) by a
    nest before the input transform, on every call, over the channel pairs
    with vectors along F (the 9 taps of each, G w G^T's alpha^2 values
    stored into a buffer freed after the matmuls).

    ```mlir
    linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x58x58x64xf32>, memref<3x3x64x64xf32>)
                             outs(%y : memref<1x56x56x64xf32>)
    // becomes (m = 4, 14 x 14 tiles)
    %u = memref.get_global @w_winograd : memref<36x64x64xf32>  // G w G^T, at compile time
    affine.for %n, %th, %tw, %c step 16 {                    // input transform
      // 36 vectors of %x[%n, %th * 4 + i, %tw * 4 + j, %c], B^T d B, stored to
      // %v[i * 6 + j, %n, %th, %tw, %c]
    }
    linalg.batch_matmul ins(%vc, %u : memref<36x196x64xf32>, memref<36x64x64xf32>)
                        outs(%mm : memref<36x196x64xf32>)
    affine.for %n, %th, %tw, %f step 16 {                    // output transform
      // 36 vectors of %mm[k, tile, %f], A^T M A, stored to
      // %y[%n, %th * 4 + a, %tw * 4 + b, %f]
    }
    ```

    The batch of alpha^2 matmuls does 9 m^2 / alpha^2 times fewer
    multiply-adds than the convolution (4x for m = 4, 2.25x for m = 2); the
    pb-register-tile-contraction micro-kernel computes it (its panels, the
    transformed filter, packed at compile time). The transforms are nests
    of vectors along the channels with the transform matrices' nonzero
    coefficients as constants (B^T and A^T applied to rows, then columns).
    F(4, 3) interpolates at 0, 1, -1, 1/2, -2 and infinity
    (getWinogradMatrices). When the last op to touch the output before the
    convolution fills it with a constant (the convolution's zero init), the
    output transform starts from that value and the fill goes; otherwise it
    adds to the output. The output transform records that it stores each
    element of its result once, as vectors (decision field `stores_once`),
    so that pb-fuse-epilogues computes the batch norm, activation or
    residual add after it on its vectors.

    Convolutions on other element types, with channels no multiple of the
    vector lanes, or too few tiles for the matmuls' rows (chooseWinogradTile)
    keep the direct convolution. (Measured: bench/RESULTS.md, notes on the
    passes.)
  }];
  let options = [
    Option<"tile", "tile", "unsigned", /*default=*/"0",
           "outputs per tile side, m, for every convolution that can take "
           "it: 2 or 4 (default: 0, from the machine model per "
           "convolution)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBUnrollShortLoops : Pass<"pb-unroll-short-loops", "::mlir::func::FuncOp"> {
  let summary = "Fully unroll innermost affine loops with a small constant trip count";
  let description = [{
    Stencil taps and small reduction windows (a 5-tap blur, a 3x3 kernel
    window) end up as short innermost loops. Unrolling them fully lets
    scalar replacement keep the accumulator in a register and leaves the
    enclosing loop, which usually walks memory with unit stride, innermost
    and vectorizable.

    ```mlir
    affine.for %j = 0 to 2044 {
      affine.for %k = 0 to 5 { ... %in[%j + %k] ... }
    }
    // with max-trip-count=8 becomes
    affine.for %j = 0 to 2044 {
      ... %in[%j] ... %in[%j + 1] ... %in[%j + 4] ...
    }
    ```

    Only loops without nested loops are unrolled; loops with non-constant
    bounds are left alone, and so are the reduction loops of matmul-like
    nests (a load moves with the loop, at unit stride with the store's
    columns, and not at all with another loop the store moves with, like a
    convolution's filter): the 3 input channels of an RGB convolution stay a
    loop that pb-register-tile-contraction can take. Loops whose body
    already computes on vectors (built vectorized by the pass before, like
    the channel loops of pb-winograd-convolutions' transforms) are left as
    they were built.
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "unsigned", /*default=*/"8",
           "largest trip count of a loop to unroll fully, in iterations "
           "(default: 8)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBPermuteForVectorization
    : Pass<"pb-permute-for-vectorization", "::mlir::func::FuncOp"> {
  let summary = "Permute perfect loop nests so that the innermost loop walks memory with unit stride";
  let description = [{
    For every perfectly nested band of `affine.for` loops with constant
    bounds, scores each loop by how its iterations touch memory: an access
    whose address moves by one element per iteration is contiguous (the
    last subscript moving by one, or a subscript followed only by
    dimensions of one element: batch norm's per-channel vectors, read as
    `%v[%c, 0, 0]` of a `memref<Cx1x1xf32>`), an access the loop does not
    move is invariant, anything else is strided. The parallel loop with the best
    score (fewest strided accesses, then most contiguous ones) is moved
    innermost,
    keeping the order of the others, when dependences allow it. The
    innermost loop then vectorizes without gathers, and reductions stay
    outside it, where they need no reassociation.

    ```mlir
    // C[i, j] += A[i, k] * B[k, j] with loops (i, j, k)
    affine.for %i { affine.for %j { affine.for %k { ... } } }
    // becomes (i, k, j): j is contiguous in B and C
    affine.for %i { affine.for %k { affine.for %j { ... } } }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBStreamSkinnyContraction
    : Pass<"pb-stream-skinny-contraction", "::mlir::func::FuncOp"> {
  let summary = "Stream matmuls with few rows through column blocks, without packing";
  let description = [{
    A matmul `(i, k, j)` (the order pb-permute-for-vectorization gives it)
    with at most `max-rows` rows (a matrix-vector product by default; the
    pipeline allows half as many rows as there are vector registers) does a
    handful of multiply-adds per element of the right-hand side `Y`: it is
    bound by memory bandwidth, and packing panels of `Y`
    (pb-register-tile-contraction) would read and write it twice more. It is
    rewritten so that `Y` is read once, row by row, in contiguous blocks of
    `NB` columns, one block per task, and the block of `C` is accumulated
    in a buffer of its own (the rows of `C` may be a power of two apart,
    which would put the same column of every row into one set of L1):

    ```mlir
    affine.for %i = 0 to 8 { affine.for %k = 0 to 4096 { affine.for %j = 0 to 4096 {
      C[i, j] += X[i, k] * Y[k, j] } } }
    // becomes, with max-rows=8 and 2 threads (NB = 2048)
    affine.for %b = 0 to 2 {                       // parallel
      %acc = memref.alloc() : memref<8x2048xf32>   // acc = C[:, block b]
      affine.for %kt = 0 to 4096 step 8 {          // KU rows of Y
        affine.for %j = %b * 2048 to %b * 2048 + 2048 step 8 {
          // one vector of acc per row of C, in registers across the KU rows
          %s:8 = affine.for %k = %kt to %kt + 8 iter_args(...) {
            %y = affine.vector_load Y[%k, %j]      // vector<8xf32>
            // per row r: broadcast X[r, %k], one fused multiply-add
          } {loop_annotation = ... full unroll}      // by LLVM
        } }
      // C[:, block b] = acc, a vector at a time
    }
    ```

    Each vector of `Y` is loaded once and feeds every row of `C`; the
    accumulators are loaded and stored once per `KU` rows of `Y` (the
    largest count up to `k-unroll` dividing the reduction; LLVM unrolls
    them, asked to by the loop's annotation), so the block of
    `C` only has to stay in cache (half of `cache-kib`). `NB` is the widest
    multiple of the vector width dividing the column count that fits, with
    at least one block per thread (`threads`). When the count of such blocks
    is no multiple of the threads (N = 1000 in 5 blocks of 200 on 2
    threads: 3 against 2) and N is whole vectors, the blocks are as wide as
    a multiple of the threads splits N evenly, the last narrower (504 +
    496), if that keeps the threads busier (`chooseStreamedBlockColumns`,
    Target/Heuristics). With no such `NB` and fewer
    columns than a vector per thread (a classifier's 10), the columns form
    one block: its whole vectors in the column loop, the columns past them
    in vectors each half as wide as the one before (10 = 8 + 2 on AVX-512),
    each streamed alike. Other nests with no such `NB` (N = 1000) are left
    to the micro-kernel. (Wide blocks and the register blocks both matter:
    bench/RESULTS.md, notes on the passes.)

    A matmul by a constant `Y` (a layer's weights, read linearly:
    polyblocks::matchConstantColumnFactor) is streamed only up to
    `max-rows-by-constant` rows (1: a matrix-vector product); with more it
    is left to pb-register-tile-contraction when that tiles its columns
    (N a multiple of 4): its panels are then packed at compile time and
    read contiguously, from L1 by every row tile, and each broadcast of `X`
    feeds two vectors of columns where a streamed row takes one broadcast
    per multiply-add.

    When the nest before fills `C` with one value and nothing else reads
    `C` (polyblocks::findAccumulatorFill), each block's buffer starts from
    that value and the fill's nest goes. The block goes back to `C` as
    vectors of the widths of its column loop, each element stored once
    (the decision records `stores_once`): pb-fuse-epilogues computes an
    elementwise nest after the product (a bias, a ReLU) there.
  }];
  let options = [
    Option<"maxRows", "max-rows", "unsigned", /*default=*/"0",
           "largest number of rows of a matmul streamed (default: 0, from "
           "the machine model: half the vector registers)">,
    Option<"maxRowsByConstant", "max-rows-by-constant", "unsigned",
           /*default=*/"0",
           "largest number of rows of a matmul by a constant streamed; with "
           "more, it is left to pb-register-tile-contraction when that tiles "
           "its columns (default: 0, from the machine model: 1)">,
    Option<"cacheKiB", "cache-kib", "unsigned", /*default=*/"0",
           "size of the cache that holds the block of C, in KiB (default: "
           "0, from the machine model: L2)">,
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "threads the column blocks are shared among: the fewest blocks "
           "(default: 0, from the machine model)">,
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "width of the target's vectors, in bits (default: 0, from the "
           "machine model)">,
    Option<"kUnroll", "k-unroll", "unsigned", /*default=*/"8",
           "rows of Y per register block, KU: the accumulators stay in "
           "registers across them (default: 8)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBRegisterTileContraction
    : Pass<"pb-register-tile-contraction", "::mlir::ModuleOp"> {
  let summary = "Register-tile matmul-like nests into vector micro-kernels";
  let description = [{
    Runs on the module, one function after another: panels packed at
    compile time become constant globals of the module.

    Matches perfect nests `(p..., i, k..., j)` (the order
    pb-permute-for-vectorization gives a matmul `(i, k, j)` or an NHWC
    convolution `(n, oh, ow, kh, kw, c, f)`) whose body is `C[..] += X * Y`
    on f32 or f64, where `C` moves with the parallel loops `p..., i` and
    with `j` (unit stride) but not with the reduction loops `k...`, one
    factor does not move with `j` (a scalar per row, like `A[i, k]`), and the
    other moves with `j` (unit stride) but with none of `p..., i` (like
    `B[k, j]` or a filter). A matmul is rewritten as

    ```mlir
    %pack = memref.alloc() : memref<N/NR x KC x NR x f32>
    affine.for %kt = 0 to K step KC {          // cache block of k
      affine.for %jt = 0 to N step NR {        // parallel
        // pack Y[%kt .. %kt + KC, %jt .. %jt + NR] into %pack[%jt / NR]
        affine.for %it = 0 to M - M % MR step MR {
          // MR accumulators of NR lanes, loaded once per (kt, jt, it)
          %acc:MR = affine.for %k = %kt to %kt + KC iter_args(...) {
            %b = affine.vector_load %pack[%jt / NR, %k - %kt, 0]  // NR lanes
            // per row r: broadcast A[%it + r, %k], one fused multiply-add
          }
          // stored once
        }
        // the same for the M % MR rows left over, if any
      }
    }
    ```

    A convolution keeps its outer loops `p...` around the column and row
    tiles, its reduction loops nested inside (threading the accumulators),
    and its filter packed once, before the nest, indexed by the linearized
    reduction loops. A filter that is a constant global read linearly (a
    network's weights) is packed at compile time instead: a new constant
    global `<name>_packed` in the packed layout, read in place of the
    buffer; nothing is packed at run time. When the packed panels outgrow
    `columns-outside-kib` (default: half of L2), the column tiles become
    the outermost loop, around the outer loops: each panel then serves
    every output row while it is in cache, instead of every row reading
    all of them (a 7x7x512 ResNet layer's 9 MiB of panels, from memory,
    once per output row). With more than one column tile, each tile over
    panels packed at compile time prefetches into L2, at each `k`, row `k`
    of the next column tile's panel (the last's wrapping to the first; one
    `affine.prefetch` per cache line): a network's weights come from memory
    once per call when they outgrow the caches, and the tile that first
    reads a panel would otherwise wait on it with nothing to overlap.

    A column factor may also move with the leading outer loops (a batched
    matmul: attention's `K^T` and `V`, one per head). Each iteration of
    those loops then packs its own panels before its tiles, into a buffer
    on the stack of the thread that runs it (on the heap past 256 KiB).

    A matmul whose column factor is a constant (a layer's weights) takes
    the convolutions' path too: its panels packed at compile time, the
    whole reduction per register tile (each tile of `C` loaded and stored
    once, not once per k block), and its T whole row tiles in blocks,
    as many as keep a block's rows of `X` (rows x K) within `row-block-kib`
    (default: half of L2), rounded up to a multiple of the threads, their
    tiles as even as can be:

    ```mlir
    affine.for %b = 0 to B {                       // row blocks
      affine.for %jt = 0 to N step NR {            // every panel, streamed
        affine.for %t = (%b * T) floordiv B to (%b * T + T) floordiv B {
          // one register tile over all of k, rows %t * MR + r
        }
        affine.if (%b == B - 1) { /* the M % MR rows left over */ }
      }
    }
    ```

    When a column tile's panel (K x NR) outgrows `panel-block-kib`
    (default: half of L1d), such a matmul takes each column tile's
    reduction in blocks of KC (the largest divisor of K whose block of the
    panel fits; at least 64): every row tile of the block computes one k
    block before the next, so the panel's block is read from L1 by all of
    them instead of the whole panel from L2 by each. Their partial sums
    wait between blocks in a buffer on the thread's stack, `[tiles, MR,
    NR]`; the first block starts from `C` (or the fill), the last stores
    `C`, once, as before (pb-fuse-epilogues still computes there):

    ```mlir
    affine.for %jt = 0 to N step NR {              // parallel
      %sums = memref.alloca() : memref<T x MR x NR x f32>
      affine.for %t = 0 to T { /* k in [0, KC): C -> %sums[%t] */ }
      affine.for %kt = KC to K - KC step KC {
        affine.for %t = 0 to T { /* k in [%kt, %kt + KC): %sums[%t] */ }
      }
      affine.for %t = 0 to T { /* k in [K - KC, K): %sums[%t] -> C */ }
      // the M % MR rows left over, the whole reduction
    }
    ```

    Its row blocks then take as many tiles as their partial sums fit in
    `partial-sums-kib` (default: a quarter of L1d), and no more than keep
    their rows of `X` within `row-block-kib` unless that leaves fewer than
    8 tiles per block (the rows then come from L3, each panel's block read
    by more tiles: 128 rows by 3072 x 768 in one block of 21 tiles, by 768
    x 3072 in two of 10 and 11; measured in bench/RESULTS.md). With one row
    block the column tiles share the threads.

    A matmul by an argument (weights passed in) with at least 4 panels per
    thread, shared evenly, packs at run time without a pass of its own:
    its column tiles form one group per thread, outermost (the parallel
    loop), and each group's thread packs a panel as its first row block
    reaches it (`affine.if` on the block), into the heap buffer of all the
    panels; the later row blocks read it packed (decision field
    `packed_by_groups`).

    (the tile loop walks tile numbers with unit step: dependence analysis
    ignores loop steps, and over rows with step MR it cannot tell that the
    blocks write rows of their own, which keeps them from running in
    parallel)

    so the rows of `X` a block reads stay in cache while every panel
    streams past them, where the k-blocked nest reads all of `X`'s k block
    again for each panel. A matmul by an argument takes the same nest when
    it has 512 rows or more and more than one row block, its panels packed
    once before it into a heap buffer (up to 32 MiB of them); with fewer
    rows, that copy through memory costs more than it saves. (Measured:
    bench/RESULTS.md, notes on the passes.)

    So the `MR x NR` block of `C` lives in vector registers across the
    whole `k` block, every loaded element of `Y` feeds `MR` multiply-adds,
    and the panels of `Y` are read from contiguous memory (packed once per
    `k` block by the thread that uses them, into a `KC x NR` buffer on its
    stack).

    The k block `KC` is the largest divisor of the trip count up to
    `k-block` (default: the panel fills L1d) or, without that option, up to
    the longest block whose panel and row factor's block (`M x KC`) fit
    together in L2 (the machine model's getKBlockLimit: a batch-1
    transformer's 128 rows by K = 768 in one block, on AVX2 with a 512 KiB
    L2 too, `C` loaded and stored once, the panel read from L2). When `Y`
    outgrows L2 (it comes from L3 or memory, its panel's rows a whole row
    of `Y` apart), the first register tile of each column tile is peeled
    and, at each `k`, prefetches into L2 the next column tile's part of row
    `k` of `Y` (`affine.prefetch`, one per cache line and one at its last
    element, the last column tile's wrapping to the first), so that its
    packing finds the rows in L2 instead of waiting on each of them.

    When a matmul's row factor `X` is too large for its `k` block
    (`M x KC` elements) to stay in a cache of `cache-kib` between column
    tiles, and at least 4 column tiles read it, it is packed too: once per
    `k` block, before the column tiles (in parallel, by
    pb-parallelize-outer-loops), into slivers of `MR` rows stored k-major
    (`%xpack[%it / MR, %k - %kt, r]`), so the `MR` broadcasts of one `k`
    step read `MR` consecutive elements instead of `MR` streams a row of
    `X` apart. The rows left over after the whole tiles are read in place.
    (Measured both ways: bench/RESULTS.md, notes on the passes.)
    When each tile of `C` is stored once (the whole reduction in one block)
    and the nest before it fills `C` with one value (a bufferized
    `linalg.fill` of a matmul's or convolution's `outs`), the accumulators
    start from that value in every lane instead of loading `C`, and the
    fill's nest is removed: one pass over `C` less, and with
    pb-fuse-epilogues `C` may never be touched at all. Only when the
    nest's parallel loops index `C` one to one (it writes every element),
    neither factor is `C`, and nothing between the fill and the nest
    touches `C` or a view of it; a blocked matmul's later k blocks read
    `C`, so it keeps its fill.
    The multiply and add are contracted into `vector.fma` (one rounding, as
    BLAS libraries do). The rows are covered by as few tiles of at most
    `rows` rows as possible, as even as possible (`MR` = 6 for 1024 rows and
    `rows=6`: 170 tiles, then one tile of the 4 rows left over; 8 rows: two
    tiles of 4); when the row factor is read in place, fewer rows when
    its rows lie so far apart (a multiple of 4 KiB: a 1x1 convolution over
    1024 channels) that more than the L1's ways less two of them would
    share one of its sets (the machine model's `l1_ways`): there they
    would evict one another on every pass over the tile's rows.
    `NR` is `lanes` f32 elements (half as many f64), one vector that LLVM
    splits into registers. When that does not divide the `j` trip count,
    the machine model (chooseTileColumns) takes, of the widths that divide
    it (multiples of 4, up to three vectors), the one whose tile issues the
    most multiply-add lanes per cycle, a row of it held in vectors of the
    register's width and then halves (AVX-512: 24 columns as `vector<16>` +
    `vector<8>` in 14 rows, not 14 x 8; 48 as three `vector<16>` in 9 rows;
    1000 as 16 + 16 + 8), each loaded from the panel, accumulated and
    stored at its own column. Column counts no multiple of 4 are left
    alone, as are other nests.
  }];
  let options = [
    Option<"rows", "rows", "unsigned", /*default=*/"0",
           "largest number of rows of the register tile, MR (default: 0, "
           "from the machine model: the vector registers left by the panel)">,
    Option<"lanes", "lanes", "unsigned", /*default=*/"0",
           "columns of the register tile, NR, in f32 elements; a multiple of "
           "the vector width (default: 0, from the machine model: two "
           "vectors)">,
    Option<"kBlock", "k-block", "unsigned", /*default=*/"0",
           "largest number of iterations of k per cache block, KC; the block "
           "used is the largest divisor of the trip count up to it "
           "(default: 0, from the machine model: the KC x NR panel fills "
           "L1d, or longer while the panel and the row factor's block fit "
           "in L2)">,
    Option<"cacheKiB", "cache-kib", "unsigned", /*default=*/"0",
           "size of the cache (per core) that the row factor's k block must "
           "outgrow to be packed, in KiB (default: 0, from the machine "
           "model: L2)">,
    Option<"columnsOutsideKiB", "columns-outside-kib", "unsigned",
           /*default=*/"0",
           "size in KiB that a convolution's packed panels must outgrow for "
           "its column tiles to loop outside its output rows (default: 0, "
           "from the machine model: half of L2)">,
    Option<"rowBlockKiB", "row-block-kib", "unsigned", /*default=*/"0",
           "size in KiB of the row factor's rows (rows x K) that one row "
           "block of a matmul by a constant reads (default: 0, from the "
           "machine model: half of L2)">,
    Option<"panelBlockKiB", "panel-block-kib", "unsigned", /*default=*/"0",
           "size in KiB of a column tile's panel (K x NR) past which a "
           "row-blocked matmul takes each column tile's reduction in blocks "
           "of at most as many bytes of it (default: 0, from the machine "
           "model: half of L1d)">,
    Option<"partialSumsKiB", "partial-sums-kib", "unsigned", /*default=*/"0",
           "size in KiB of the partial sums (MR x NR per tile) of the row "
           "block of such k blocks (default: 0, from the machine model: a "
           "quarter of L1d)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBFuseLoopNests : Pass<"pb-fuse-loop-nests", "::mlir::func::FuncOp"> {
  let summary = "Fuse consecutive nests that share a buffer along their outer parallel loop";
  let description = [{
    Producer-consumer and sibling fusion at the outermost loop: two
    consecutive top-level nests are fused into one when

    - their outer loops have the same constant bounds and step, and each
      carries no dependence (the fused loop is parallel too);
    - they share a buffer (one reads what the other wrote, or both read the
      same input), so fusing saves a pass over memory;
    - for every buffer that one of them writes and the other touches, one
      subscript of every access in both nests is the outer induction
      variable plus the same constant: an element is only shared by the
      same iteration of the two loops, so running the second body right
      after the first in each iteration keeps every dependence;
    - both only access whole buffers (function arguments, allocations) with
      affine loads and stores, and what lies between them is pure or an
      allocation (moved above the first nest).

    Then, inside every loop body, consecutive loops are fused under the same
    conditions except parallelism (the enclosing loop is the one that runs
    on the threads): a softmax row's exp loop and its sum loop become one
    pass over the row. Loads and stores between two loops move above the
    first when it does not touch their buffer.

    Nothing is recomputed and nothing is duplicated. A row-wise softmax,
    four nests over the rows, becomes one nest whose row (and its max and
    sum) stays in cache between the four inner loops:

    ```mlir
    affine.for %i = 0 to 4096 { affine.for %j = 0 to 1024 { max into %m[%i] } }
    affine.for %i = 0 to 4096 { affine.for %j = 0 to 1024 { exp(x - %m[%i]) into %e[%i, %j] } }
    // becomes
    affine.for %i = 0 to 4096 {
      affine.for %j = 0 to 1024 { max into %m[%i] }
      affine.for %j = 0 to 1024 { exp(x - %m[%i]) into %e[%i, %j] }
    }
    ```

    Function arguments are assumed not to overlap when one is written (the C
    interface's contract, see pb-mark-noalias).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBFuseProducerSlices
    : Pass<"pb-fuse-producer-slices", "::mlir::func::FuncOp"> {
  let summary = "Tile a stencil-like consumer and recompute the producer slice each tile reads into a tile-sized buffer";
  let description = [{
    Producer-consumer fusion with bounded recomputation, for consumers that
    read an intermediate buffer at neighbouring positions along one
    dimension (a separable blur's second pass, a convolution's input
    computed by an elementwise op). It applies when

    - one top-level nest (the producer) stores every element of a buffer
      allocated in the function exactly once (a perfect band with one loop
      per dimension, stores at the loops' own indices, no loads of it),
      writes nothing else, and reads nothing the consumer writes;
    - one later nest (the consumer) is the only reader, with subscripts that
      are its own loops' indices, plus constant offsets in `[lo, hi]` along
      one dimension `d`; its loops outside `d` match the producer's.

    The loops outside `d` are fused; the consumer's loop on `d` is tiled by
    `T`, and each tile first runs the producer on its slice,
    `[t + lo, t + T + hi)` clipped to the buffer, into a buffer of
    `T + hi - lo` rows of its own, which the consumer then reads:

    ```mlir
    // tmp[c, i, j] = sum_k w[k] * img[c, i, j + k]     (3 x 2048 x 2044)
    // out[c, i, j] = sum_k w[k] * tmp[c, i + k, j]     (k in [0, 4])
    // becomes, for T = 28
    affine.for %c = 0 to 3 {
      affine.for %t = 0 to 2044 step 28 {
        %tile = memref.alloc() : memref<32x2044xf32>
        affine.for %i = max(%t, 0) to min(%t + 32, 2048) { ... %tile[%i - %t, %j] = ... }
        affine.for %i = %t to min(%t + 28, 2044) { ... = %tile[%i + %k - %t, %j] ... }
        memref.dealloc %tile
      }
    }
    ```

    `T` makes the tile buffer fill half of `cache-kib` (the L2 cache). If
    the `hi - lo` rows recomputed per tile would then exceed
    `max-recompute-percent` of `T` (a small cache), `T` is the smallest tile
    that stays within it, provided its buffer fits in the whole cache: the
    blur above at `cache-kib=256` gets tiles of 16 rows in a 20-row buffer.
    Otherwise the pass gives up. The full-size intermediate buffer is
    gone and the data passes from producer to consumer through the cache.
    Tiles are independent, so the tile loop stays parallel.
  }];
  let options = [
    Option<"cacheKiB", "cache-kib", "unsigned", /*default=*/"0",
           "size of the cache the tile buffer lives in, in KiB (default: 0, "
           "from the machine model: L2)">,
    Option<"maxRecomputePercent", "max-recompute-percent", "unsigned",
           /*default=*/"25",
           "largest share of recomputed producer rows per tile, in percent "
           "(default: 25)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PBPromoteAccumulators
    : Pass<"pb-promote-accumulators", "::mlir::func::FuncOp"> {
  let summary = "Keep accumulators that a loop reads and writes in memory in registers";
  let description = [{
    A reduction bufferized into memory loads and stores its accumulator on
    every iteration: `%m[%i] = max(%m[%i], %x[%i, %j])` inside the loop on
    `%j`. When the accumulator's address does not depend on the loop, the
    loop loads and stores it once each (load before store, nothing else in
    the loop touches the buffer, every buffer accessed is a whole buffer),
    it becomes a loop-carried value:

    ```mlir
    affine.for %j = 0 to 1024 {
      %old = affine.load %m[%i]
      %new = arith.maximumf %old, %v
      affine.store %new, %m[%i]
    }
    // becomes
    %init = affine.load %m[%i]
    %r = affine.for %j = 0 to 1024 iter_args(%acc = %init) -> (f32) {
      %new = arith.maximumf %acc, %v
      affine.yield %new
    }
    affine.store %r, %m[%i]
    ```

    Loops are visited from the innermost out, so an accumulator climbs as
    far as its address allows. When the new value is the old one plus or
    times another value (`arith.addf`, `arith.mulf`), the operation is
    marked `reassoc`: the reduction may be computed in any order, which is
    what lets it run on vectors of partial sums.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def PBScalarReplacement
    : Pass<"pb-scalar-replacement", "::mlir::func::FuncOp"> {
  let summary = "Forward stores to loads, drop overwritten stores and "
                "repeated loads of affine accesses, in time linear in the "
                "accesses";
  let description = [{
    Upstream `affine-scalrep`'s transformation with its rules unchanged: a
    load takes the value of the one store to the same element that
    dominates it, reaches it in its innermost common loop and is not
    overwritten on the way; a store is dropped when a later store to the
    same element in the same region post-dominates it with no read between;
    a buffer left with stores only is removed; then a load takes the value
    of a dominating load of the same element with no write between (of
    several such, the one dominating the others).

    Upstream compares every pair of accesses to a buffer, each comparison
    composing and simplifying both access maps anew: in a network's single
    function, with unrolled tiles and transforms holding tens of accesses
    per buffer, that was a tenth of the compile time. Here each access's
    element is put into one canonical form once (its map fully composed
    with the affine.apply ops feeding it, operands deduplicated and put in
    one order, the map simplified) and only accesses with the same form are
    compared. Two accesses with the same form address the same element, so
    every replacement made is one upstream would make; forms that differ
    but are equal (which simplification does not bring together) are left
    apart.

    ```mlir
    affine.for %i = 0 to 16 {
      affine.store %x, %t[%i + 1]
      %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
      %y = affine.load %t[%a]          // becomes %x
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBForwardFills : Pass<"pb-forward-fills", "::mlir::func::FuncOp"> {
  let summary = "Fold a buffer fill into the nest that next reads and rewrites every element";
  let description = [{
    Bufferized reductions and stencils start from a filled buffer: one nest
    stores a value into every element, the next one reads each element,
    adds to it and stores it back. When that next nest visits every element
    exactly once (its loops are the buffer's dimensions, its accesses to the
    buffer all index it by those loops) and reads an element before writing
    it, the read is replaced by the fill value and the fill nest is removed:
    one pass over the buffer instead of two. "Next" is the first op after
    the fill that touches the buffer or a view of it (a view made before
    the fill included), and a nest that also reads the buffer through a
    view keeps its fill.

    ```mlir
    affine.for %i = 0 to 64 { affine.store %zero, %t[%i] }
    affine.for %i = 0 to 64 {
      %old = affine.load %t[%i]
      %new = arith.addf %old, %x
      affine.store %new, %t[%i]
    }
    // becomes
    affine.for %i = 0 to 64 {
      %new = arith.addf %zero, %x
      affine.store %new, %t[%i]
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBHoistReciprocals : Pass<"pb-hoist-reciprocals", "::mlir::func::FuncOp"> {
  let summary = "Turn divisions by a loop invariant into multiplications by its reciprocal";
  let description = [{
    In an innermost `affine.for`, `arith.divf %x, %s` where `%s` is defined
    outside the loop becomes `arith.mulf %x, %r`, with `%r = 1 / %s`
    computed once before the loop (one per loop and divisor). A vector
    division takes several times the cycles of a multiplication; the last
    pass of a softmax divides every element of a row by the row's sum.

    ```mlir
    affine.for %j = 0 to 1024 { ... %q = arith.divf %v, %sum : f32 ... }
    // becomes
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %sum : f32
    affine.for %j = 0 to 1024 { ... %q = arith.mulf %v, %r : f32 ... }
    ```

    The result may differ from the division in the last bit (two roundings
    instead of one), within the tolerances the end-to-end tests check
    against the reference lowering, which divides.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def PBPrefetchNextRow : Pass<"pb-prefetch-next-row", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the next row of a multi-pass row kernel while this row computes";
  let description = [{
    Matches a loop over rows (`affine.parallel` with one dimension, or
    `affine.for` without results, from 0 with unit steps) whose body runs
    several passes `affine.for %j = 0 to C` over a row, the first of which
    loads whole rows `X[..., %row, %j]` (contiguous) of buffers the nest
    does not write. The first pass reads the row from memory; the later
    ones reread it from L1 and compute (exp, normalization), while memory
    sits idle: the hardware prefetchers follow demand misses and do not run
    ahead into the next row. The heaviest later pass over the same `C`
    columns is strip-mined into chunks of `lines-per-chunk` cache lines,
    each of which first prefetches the same lines of the next row of each
    such buffer:

    ```mlir
    affine.parallel (%i) = (0) to (4096) {
      affine.for %j = 0 to 1024 { ... affine.load %x[%i, %j] ... }    // max
      %s = affine.for %j = 0 to 1024 iter_args(...) { ... exp ... }   // heaviest
      affine.for %j = 0 to 1024 { ... }
    }
    // the second pass becomes
    %s = affine.for %jj = 0 to 1024 step 128 iter_args(%a = ...) {
      affine.for %l = %jj to %jj + 128 step 16 {
        affine.prefetch %x[(%i + 1) mod 4096, %l], read, locality<3>, data
      }
      %r = affine.for %j = %jj to %jj + 128 iter_args(...) { ... exp ... }
      affine.yield %r
    }
    ```

    The chunks are long enough for the compute loop to be vectorized as
    before (a prefetch inside it would keep LLVM from vectorizing it). A
    prefetch changes no value; the last row prefetches the first rather
    than an address past the buffer. (Measured: bench/RESULTS.md, notes on
    the passes.)
  }];
  let options = [
    Option<"lineBytes", "line-bytes", "unsigned", /*default=*/"0",
           "cache line size in bytes (default: 0, from the machine model)">,
    Option<"linesPerChunk", "lines-per-chunk", "unsigned", /*default=*/"8",
           "cache lines prefetched together, ahead of the compute over the "
           "same columns (default: 8)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBHoistStackBuffers : Pass<"pb-hoist-stack-buffers", "::mlir::func::FuncOp"> {
  let summary = "Allocate stack buffers once per thread, not once per iteration of a sequential loop";
  let description = [{
    A `memref.alloca` of static shape inside sequential loops (`affine.for`,
    `scf.for`) moves in front of the outermost of them that is still inside
    the innermost enclosing parallel loop (`affine.parallel`, `scf.parallel`)
    or `memref.alloca_scope`, or in front of the outermost loop of the
    function. LLVM allocates an alloca left in a loop body again on every
    iteration, so a 32 KiB packed panel inside the column-tile loop of a
    matmul that runs sequentially (`--no-parallel`, or a loop too small to
    parallelize) would grow the stack by 32 KiB per tile until it overflows
    (`pbtool bench bench/kernels/gemm_2048.mlir --no-parallel` did: 128
    tiles x 4 k blocks).
    Moved, each thread (each iteration of a parallel loop, which S4 gives
    its own allocation scope) has one buffer that the sequential iterations
    reuse: its contents are undefined when it is allocated either way, so
    nothing can tell the difference.

    ```mlir
    affine.for %kt = 0 to 2048 step 512 {
      affine.for %jt = 0 to 2048 step 16 {
        %pack = memref.alloca() : memref<512x16xf32>
        ...
    // becomes
    %pack = memref.alloca() : memref<512x16xf32>
    affine.for %kt = 0 to 2048 step 512 {
      affine.for %jt = 0 to 2048 step 16 {
        ...
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PBVectorizeMaxReductions
    : Pass<"pb-vectorize-max-reductions", "::mlir::func::FuncOp"> {
  let summary = "Vectorize max/min reductions over a row with one instruction per vector";
  let description = [{
    Matches an innermost `affine.for` with constant bounds and unit step
    whose only work is `%m = arith.maximumf %x, %acc` (or `minimumf`), `%x`
    loaded contiguously along the loop, `%acc` its one loop-carried value,
    and whose trip count is a multiple of the vector width (`vector-bits`).
    `maximumf` propagates NaN and orders -0 below +0; on x86 that is five
    instructions per vector (LLVM's loop vectorizer emits compare, blends
    and a NaN check around `vmaxps`: `pbtool compile
    bench/kernels/softmax.mlir --emit=asm` without this pass). The row
    maximum of a softmax spends them on every element. The loop becomes

    ```mlir
    %m, %f = affine.for %j = 0 to 1024 step 8
        iter_args(%m = splat(-inf), %f = splat(false)) {
      %x = affine.vector_load %row[%i, %j] : vector<8xf32>
      %gt = arith.cmpf ogt, %x, %m     // with the select: one vmaxps
      %m2 = arith.select %gt, %x, %m
      %f2 = arith.ori %f, arith.cmpf uno, %x, %x   // the lanes that saw a NaN
      affine.yield %m2, %f2
    }
    %r = vector.reduction <maximumf>, %m
    %special = vector.reduction <or>, %f, or %r == 0
    %max = scf.if %special { the original loop } else { maximumf(%r, %acc0) }
    ```

    so the exact loop runs only for rows holding a NaN or whose maximum is
    zero (whose sign it could get wrong); every result equals the
    original's. Infinities are ordered: the compare-and-select gets them
    right, and a row with a causal mask's -inf stays on the fast path.
    Other loops are left alone. (Measured: bench/RESULTS.md, notes on the
    passes.)
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "width of the target's vector registers in bits (default: 0, "
           "from the machine model)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBBarrierFreeWorksharing
    : Pass<"pb-barrier-free-worksharing", "::mlir::ModuleOp"> {
  let summary = "Parallel loops whose threads claim chunks of work and wait "
                "only for claimed ones, not at a barrier";
  let description = [{
    Runs in S4 on CPUs, after pb-merge-parallel-regions. The worksharing
    loops (`omp.wsloop` without clauses) and singles of a parallel region
    become parts whose iterations the threads claim from counters the region
    shares, by compare-and-swap, then wait until a `done` counter says the
    claimed ones are computed; a single is a part of one iteration. No part
    waits for a thread that has not arrived: one that arrives late finds the
    part's iterations taken and goes on, so a region waits for every thread
    only at its end. A part is cut into one home range per thread of the
    machine model; thread t claims from range t first (the rows it computed
    in the part before, still in its cache), then from the others; a claim
    takes half of what is left of its range, down to the part cut into
    `chunks-per-thread` chunks per thread (Target/Heuristics). A thread
    waiting for the others' chunks spins a while, then sleeps between looks
    (`usleep`), so that its core goes idle and the scheduler can move there
    a thread that claimed a chunk and lost its core. Each thread
    keeps on its own stack where the next part's iterations start (every
    thread runs the same parts in the same order), so the counters only
    grow. Stack buffers of the parts are allocated once per thread at the
    region's start. The claim (a compare-and-swap loop) and the wait are two
    functions of the module, not inlined: one copy for all parts keeps the
    region's function small for LLVM.

    A part whose next part cannot depend on it does not wait: when the next
    part (in the same block, nothing with memory effects between them)
    neither reads nor writes what it writes, nor writes what it reads, a
    thread with nothing left to claim goes on to the next part at once, and
    the wait after that one, on the same counter, covers both. Memory is
    compared through the memrefs the parts access, traced through views of
    an arena at constant byte shifts and subviews with constant offsets
    (Analysis/MemoryFootprint): the fills of a padded buffer's border, the
    nest that writes its interior, and a nest before them that touches
    neither run without waiting for each other.

    ```mlir
    omp.parallel {
      omp.wsloop { omp.loop_nest (%i) : index = (%lb) to (%ub) step (%s) {
        A(%i) omp.yield } }
      omp.terminator
    }
    // becomes
    %counters = memref.alloca() : memref<24xi64>   // zeroed: 2 ranges, done
    omp.parallel {
      %base = memref.alloca() : memref<i64>        // zeroed
      %thread = func.call @omp_get_thread_num() : () -> i32
      scf.while ... {                              // over ranges, chunks
        %from, %to = func.call @__pb_claim_chunk(%counters, %word, ...)
        scf.for %t = %from to %to { A(%lb + %t * %s) }
      }
      memref.atomic_rmw addi %computed, %counters[%done] ...
      func.call @__pb_wait_done(%counters, %done, %limit)
      omp.terminator
    }
    ```

    On two cores shared with another thread pool of the process (a
    framework's workers spinning after their own call), every barrier of a
    region waited for a core; this is where a network compiled by
    PolyBlocks lost the most beside them. (Measured: bench/RESULTS.md,
    notes on the passes.)
  }];
  let options = [
    Option<"chunksPerThread", "chunks-per-thread", "unsigned",
           /*default=*/"0",
           "Most chunks per thread of the machine model a loop is cut into "
           "(0: Target/Heuristics)">,
  ];
  let statistics = [
    Statistic<"numWaitsSkipped", "waits-skipped",
              "Parts whose next part cannot depend on them, so they do not "
              "wait">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def PBOutlineParallelRegions
    : Pass<"pb-outline-parallel-regions", "::mlir::ModuleOp"> {
  let summary = "Parallel regions as functions the PolyBlocks thread pool "
                "runs, whose caller waits only for the threads that joined";
  let description = [{
    Runs in S5 on CPUs, once the host code is in the LLVM dialect. Every
    parallel region without clauses whose parts no longer meet at barriers
    (pb-barrier-free-worksharing left no OpenMP op in it) becomes a function
    `region(context, thread)` of the module, its values from outside passed
    in a context struct on the caller's stack (constants are rebuilt inside)
    and `omp_get_thread_num()` its `thread` argument; the region is replaced
    by a call of the thread pool (runtime/lib/ThreadPool.c, linked into every
    object that calls it):

    ```mlir
    llvm.func @forward(%a: !llvm.ptr, %n: i64) {
      omp.parallel {                        // A(%a, %n, omp_get_thread_num())
        ...
        omp.terminator
      }
    }
    // becomes
    llvm.func @forward(%a: !llvm.ptr, %n: i64) {
      %context = llvm.alloca ... x !llvm.struct<(ptr, i64)>  // %a, %n stored
      %region = llvm.mlir.addressof @forward.parallel0 : !llvm.ptr
      llvm.call @__pb_parallel_run_v1(%region, %context)
    }
    llvm.func internal @forward.parallel0(%context: !llvm.ptr, %thread: i32)
    ```

    The caller runs the region as thread 0 at once and, at its end, waits
    only for the workers that entered it: a worker that has not been
    scheduled by then (another thread pool of the process spinning on its
    core) does not hold the call up, where OpenMP's join waits for every
    thread of the team. Regions that still hold OpenMP ops (barriers of
    loops with clauses) are left to OpenMP. (Measured: bench/RESULTS.md,
    notes on the passes.)
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PBMergeParallelRegions
    : Pass<"pb-merge-parallel-regions", "::mlir::func::FuncOp"> {
  let summary = "Fork the threads once for consecutive parallel loops, not once per loop";
  let description = [{
    Runs in S4 on CPUs, after parallel loops became OpenMP. Consecutive
    `omp.parallel` regions of a block become one region. The ops between
    two of them run inside it: those without memory effects whose operands
    every thread has (views, index arithmetic) on every thread, the others
    in one `omp.single`; views and allocations (a packing buffer) between
    the function's own regions are computed once before the merged one. Each part ends at a barrier (the worksharing
    loop's own, the single's, or an added `omp.barrier`), so every part
    still sees all that the previous one wrote. A sequential `scf.for`
    whose body holds parallel regions (and nothing that cannot be merged)
    runs on every thread inside the region, its regions merged the same
    way, so it forks once rather than once per iteration.

    Merging stops at an op between regions whose results are used after it
    by another part (one thread computes it; the others would need it),
    and at ops that contain a parallel region themselves. Regions with
    clauses (reductions, private values, `if`, `num_threads`,
    `proc_bind`) are left alone.

    ```mlir
    omp.parallel { omp.wsloop { ... } omp.terminator }
    scf.for %i = ... { ... }
    omp.parallel { omp.wsloop { ... } omp.terminator }
    // becomes
    omp.parallel {
      omp.wsloop { ... }
      omp.single { scf.for %i = ... { ... } omp.terminator }
      omp.wsloop { ... }
      omp.terminator
    }
    ```

    A network forks and joins its threads once per parallel loop, often a
    hundred times per call; each fork wakes the other threads, or waits
    for a core when another thread pool in the process is holding it.
    (Measured: bench/RESULTS.md, notes on the passes.)
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def PBFuseEpilogues : Pass<"pb-fuse-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Compute the elementwise nest after a register-tiled contraction on its tiles";
  let description = [{
    A nest register-tiled by pb-register-tile-contraction stores each tile
    of its result `C` once, from vector registers (so do a Winograd output
    transform of pb-winograd-convolutions and a matmul streamed by
    pb-stream-skinny-contraction, from its block buffer: the producers whose
    decision records `stores_once`). When the next nest is an
    elementwise map of `C` -- its loops cover `C` whole, it reads
    `C[i, ...]` once per iteration, its other operands are unit-stride or
    invariant along `C`'s last dimension, its body is elementwise arith and
    math ops and one unit-stride store to another buffer `D` (a bias, GELU,
    a residual add and ReLU) -- that body is computed at each tile store, on
    the stored vector, and its result stored into `D` there:

    ```mlir
    // tile: C[%i + r, %j:%j+32] = %acc_r; then for i, j:
    //   D[i, j] = gelu(C[i, j] + %b[j])
    %b = affine.vector_load %bias[%j] : vector<32xf32>
    %s = arith.addf %acc_r, %b : vector<32xf32>
    ...                                          // gelu on vector<32xf32>
    affine.vector_store %g, %D[%i + r, %j]
    ```

    The elementwise nest is erased. The tile stores of `C` go too when
    nothing after the contraction reads `C`; otherwise they stay. The
    consumer's pass over memory (reading `C` back) is saved, and with it
    the write of `C` when it is dead.

    Convolutions as networks export them take the same path: `D` may be a
    view (the interior of the next layer's padded input), and the nests
    between the contraction and its consumer that commute with the
    contraction -- they write none of the buffers it touches, read none it
    writes, and allocate and free only buffers of their own -- move above
    it, with the views and allocations they use; deallocations between
    them stay. Such nests are the fills of that padded buffer's border,
    and other contractions of the same operand: a layer's key projection
    between its query projection and the query's bias, ResNet's shortcut
    convolution between a block's last convolution and their sum (which
    the contraction then computes on its tiles, reading the shortcut's
    result). An operand read
    `%v[%c, 0, 0]` of a `memref<Cx1x1xf32>` (batch norm's shift, as
    torch-mlir hands it over), strided by its subscripts but contiguous in
    memory along `C`'s last dimension, is read as a vector of the buffer
    collapsed to one dimension (`memref.collapse_shape`). An operand of
    elements narrower than a byte (i1: a byte each in memory, a bit each in
    a vector) that moves along the lanes keeps the consumer apart.

    The consumer may read `C` through a reshape (an `expand_shape` of it,
    or the buffer `C` is a `collapse_shape` of): jaxlib's DenseGeneral is a
    matmul of `[batch * sequence, heads * features]` whose bias is added on
    `[batch, sequence, heads, features]`. Each tile store's subscripts are
    then split into the consumer's (`floordiv`, `mod`), when every vector
    stays within one row of the consumer's last dimension (its size and the
    tiles' column offsets multiples of the lanes). The consumer's other
    operands are addressed without the split: those of `C`'s shape at `C`'s
    subscripts (`D`, a residual) through a `collapse_shape` to the tiles'
    shape at the tile store's subscripts (dependence analysis then sees the
    tiles' own accesses, and the column blocks stay parallel), the others
    through a `collapse_shape` to one dimension, where the split cancels.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBRegisterTileDepthwise
    : Pass<"pb-register-tile-depthwise", "::mlir::func::FuncOp"> {
  let summary = "Keep a depthwise convolution's output columns in vector registers across its window";
  let description = [{
    Matches perfect nests of a depthwise convolution's shape after
    `pb-permute-for-vectorization`: zero-based unit-step loops, parallel
    ones (those the accumulator `C` moves with) outside the window's
    reduction loops, the channel loop innermost, and the body
    `C[..] = C[..] + X[..] * F[..]` on f32 or f64 where all three move at
    unit stride with the channel only in their last subscript, the filter
    `F` moves with none of the parallel loops and the input `X` does. The
    innermost parallel loop (the output columns) is tiled by R, the
    channels by the vector width, and the R accumulator vectors stay in
    registers across the window: per window step one filter vector and R
    input vectors are loaded and R `vector.fma`s issued, instead of a load
    and a store of each accumulator. R is the largest divisor of the width
    from half the machine model's column budget up to it
    (`chooseDepthwiseTile`), else the budget with a last tile of the
    columns left over. Nests whose channels are no multiple of the vector
    width are left alone.

    ```mlir
    affine.for %w = 0 to 56 { affine.for %kh = 0 to 3 { affine.for %kw = 0 to 3 {
      affine.for %c = 0 to 32 {   // C[w, c] += X[w + kw, c] * F[kh, kw, c]
    // becomes
    affine.for %w0 = 0 to 56 step 14 { affine.for %c0 = 0 to 32 step 16 {
      // 14 accumulators loaded, then over kh, kw: one filter vector,
      // 14 input vectors, 14 vector.fma; then 14 stores
    ```
    (Measured: bench/RESULTS.md, notes on the passes.) When the nest
    before fills `C` (a bufferized `linalg.fill`: zero, or a bias), the
    nest reads and writes `C` at one element, its parallel loops and the
    channel loop index `C` one to one, nothing between touches `C` or a
    view of it and neither factor is a view of `C`, the accumulators start
    as a splat of the fill value instead of being loaded, and the fill
    nest is removed (decision field `fill_folded`), as
    pb-register-tile-contraction does for matmuls. The innermost window
    loop, of at most 7 steps, is marked for LLVM to unroll fully (decision
    field `window_row_unrolled`): the columns of a window row then read
    the same input vectors at neighbouring steps (`X[w0 + r + kw]` alike
    for each `r + kw`), each loaded once rather than once per step.
  }];
  let options = [
    Option<"columns", "columns", "unsigned", /*default=*/"0",
           "most output columns per register tile (default: 0, from the "
           "machine model)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBParallelizeOuterLoops
    : Pass<"pb-parallelize-outer-loops", "::mlir::func::FuncOp"> {
  let summary = "Run the outermost parallel loop of each large enough nest on all cores";
  let description = [{
    For every top-level loop nest (a nest of the function's body, or of a
    sequential `scf.for` in it such as pb-tile-batch's loop over the images,
    whose nests each do one image's work as at batch 1; not one a run-time
    check's `scf.if` guards), finds the outermost `affine.for` that
    carries no dependence and has at least two iterations (or its parallel
    child, when it has fewer than 8 iterations and the child more: 3
    channels on 2 threads would leave one idle a third of the time), and
    turns it into
    `affine.parallel` (which S4 maps to OpenMP), provided that loop does
    enough work each time it is entered to pay for waking the threads: at
    least `min-iterations` iterations of the innermost loops inside it, or
    `min-iterations-nested` when it sits inside a sequential loop of more
    than one iteration and is entered again on every iteration of that loop.
    A sequential loop with several nests inside (a k block that first packs
    an operand, then computes with it) gets one parallel loop in each.
    Loops below that (a short parallel loop inside a sequential one, a
    small nest), and loops with a single iteration, stay sequential. Only
    one level is parallelized, so threads are never nested. A function
    whose nests together do fewer than `min-function-iterations` innermost
    iterations stays on the calling thread altogether: its one fork would
    cost about as much as the threads save. (Above it, a worker that
    another thread pool of the process keeps off its core holds nothing up:
    the calling thread claims its parts. The zoo's MLP at batch 1, 38,932
    iterations, ran faster on two threads alone and right after each anchor
    of the model benchmark: bench/RESULTS.md.)

    ```mlir
    affine.for %i = 0 to 1024 { affine.for %j = 0 to 1024 { ... } }
    // becomes
    affine.parallel (%i) = (0) to (1024) { affine.for %j = 0 to 1024 { ... } }
    ```
  }];
  let options = [
    Option<"minIterations", "min-iterations", "uint64_t", /*default=*/"1024",
           "smallest number of innermost-loop iterations inside a loop worth "
           "running on several threads (default: 1024)">,
    Option<"minIterationsNested", "min-iterations-nested", "uint64_t",
           /*default=*/"65536",
           "the same for a loop inside a sequential loop, which wakes the "
           "threads on every iteration of that loop (default: 65536)">,
    Option<"minFunctionIterations", "min-function-iterations", "uint64_t",
           /*default=*/"16384",
           "smallest number of innermost-loop iterations of all the "
           "function's nests together for any of them to run on several "
           "threads (default: 16384)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def PBMapContractionToTensorCores
    : Pass<"pb-map-contraction-to-tensor-cores", "::mlir::func::FuncOp"> {
  let summary = "Compute f16 / bf16 matrix products with f32 accumulation on tensor cores or matrix cores";
  let description = [{
    For GPU targets. A top-level nest `for i, for j, for k: C[i, j] +=
    ext(A[i, k]) * ext(B[k, j])` with f16 A and B (or bf16 on AMD chips),
    an f32 C, row-major buffers and M, N, K multiples of 16 becomes a
    kernel in which each warp (wavefront) computes one 16 x 16 tile of C
    with the chip's matrix instructions: it loads the C tile, adds the
    products of the A and B tiles along K and stores it. One warp per
    block; the grid covers C's tiles. The nests around it (C's fill,
    epilogues) are left to `pb-map-to-gpu`.

    The chip chooses the instructions: `sm_*` warp-level `gpu.subgroup_mma_*`
    (WMMA m16n16k16 on NVIDIA tensor cores, f16 only); gfx90a / gfx94x
    `amdgpu.mfma 16x16x16` (64 lanes, 4 elements of each tile per lane);
    gfx11 `amdgpu.wmma 16x16x16` (wave32, a row of A and a column of B per
    lane). On AMD chips each lane loads and stores its own elements, in the
    instruction's layout.

    ```mlir
    affine.for %i = 0 to 64 { affine.for %j = 0 to 48 { affine.for %k = 0 to 32 {
      C[i, j] = C[i, j] + extf(A[i, k]) * extf(B[k, j]) } } }
    // becomes (sm_*)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c4, ...) threads(...) in (%sx = %c32, ...) {
      %c = gpu.subgroup_mma_load_matrix %C[%by * 16, %bx * 16] {leadDimension = 48}
      scf.for %k = 0 to 32 step 16 iter_args(%acc = %c) {
        %a = gpu.subgroup_mma_load_matrix %A[...]; %b = ...
        gpu.subgroup_mma_compute %a, %b, %acc
      }
      gpu.subgroup_mma_store_matrix ...
    }
    // or (gfx90a): 64 threads per block, lane l: r = l % 16, g = l / 16
      %c = vector.from_elements C[row + 4g + 0 .. 3, col + r]
      scf.for %k = 0 to 32 step 16 iter_args(%acc = %c) {
        %a = vector.load %A[row + r, k + 4g] : vector<4xf16>
        %b = vector.from_elements B[k + 4g + 0 .. 3, col + r]
        amdgpu.mfma 16x16x16 %a * %b + %acc
      }
      memref.store ... C[row + 4g + e, col + r] for each element e
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "the GPU whose matrix instructions to use (sm_*, gfx90a, gfx942, "
           "gfx1100; default: the machine model's chip, else sm_80)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect"];
}

//===----------------------------------------------------------------------===//
// S4: affine -> target dialects
//===----------------------------------------------------------------------===//

def PBMapToGPU : Pass<"pb-map-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Turn the loop nests of an entry point into GPU kernel launches";
  let description = [{
    For a GPU target, every piece of work in a function body runs on the
    device; the body itself keeps only buffer allocation and the launches.

    - A top-level nest whose outer loops form a band of perfectly nested,
      dependence-free loops with constant bounds is launched with one thread
      per iteration of the band: the band's iterations are numbered
      row-major (the innermost band loop fastest, so that consecutive
      threads of a warp touch consecutive elements of a row-major buffer),
      the launch has `ceil(iterations / block-size)` blocks of `block-size`
      threads (fewer threads, rounded up to a warp, for small bands), each
      thread recovers its loop indices by division and guards against the
      last block's excess threads, and runs the loops inside the band.
    - Other work (a nest whose outer loop carries a dependence, a single
      store) runs in order on a single thread, consecutive pieces in one
      launch.
    - Pure operations the kernels need (constants, views, `memref.get_global`)
      are copied into each launch, so that kernels take only buffer
      arguments; `memref.alloca` at the top level becomes a device
      allocation freed before the return.

    ```mlir
    affine.for %i = 0 to 64 { affine.for %j = 0 to 1000 { ... } }
    // becomes (64000 iterations, 250 blocks of 256 threads)
    gpu.launch blocks(%bx, ...) in (%gx = %c250, ...) threads(%tx, ...) in (%sx = %c256, ...) {
      %lin = affine.apply ()[s0, s1] -> (s0 * 256 + s1)()[%bx, %tx]
      %i = affine.apply ()[s0] -> (s0 floordiv 1000)()[%lin]
      %j = affine.apply ()[s0] -> (s0 mod 1000)()[%lin]
      ...
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "unsigned", /*default=*/"256",
           "threads per block for a band with enough iterations (default: "
           "256)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PBEmulateGPULaunches
    : Pass<"pb-emulate-gpu-launches", "::mlir::func::FuncOp"> {
  let summary = "Run GPU launches as loops over their blocks and threads on the CPU";
  let description = [{
    A testing aid for GPU targets on machines without a GPU: every
    `gpu.launch` becomes `scf.for` loops over its grid and block (z, y, x,
    outermost first), with the block and thread ids and sizes replaced by
    the loop indices and bounds, so that the mapping S3 and S4 chose runs
    and can be compared with the reference lowering on the CPU. Only
    launches whose threads do not talk to each other can be run this way:
    a launch with barriers, shuffles, shared memory or other `gpu` ops is
    rejected. Runs after `lower-affine` (loop indices are not affine
    symbols).

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, ...) threads(%tx, ...) in (%sx = %c256, ...) { ... }
    // becomes
    scf.for %bz = %c0 to %c1 step %c1 { ... scf.for %tx = %c0 to %c256 step %c1 { ... } }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def PBMergeGPUModules : Pass<"pb-merge-gpu-modules", "::mlir::ModuleOp"> {
  let summary = "Gather all outlined kernels into one GPU module";
  let description = [{
    Upstream kernel outlining gives every kernel its own `gpu.module`; this
    pass moves them all into the first one (`@pb_kernels`), so that a
    program becomes one device binary, loaded once, and updates the
    `gpu.launch_func` references. Symbols the outlining copied into several
    modules (constant `memref.global`s) are kept once.

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel }
    gpu.module @f_kernel_0 { gpu.func @f_kernel_0(...) kernel }
    // becomes
    gpu.module @pb_kernels { gpu.func @f_kernel(...) kernel  gpu.func @f_kernel_0(...) kernel }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PBInterleaveMathLoops : Pass<"pb-interleave-math-loops", "::mlir::func::FuncOp"> {
  let summary = "Ask LLVM to interleave the vectors of loops computing exp, log, erf or tanh";
  let description = [{
    LLVM's loop vectorizer gives a loop of approximated transcendental
    functions an interleave count of 1 (its register-pressure estimate
    counts each of the dozen or more polynomial coefficients), and the loop
    unroller then repeats the vector body in sequence. Each vector's chain
    of 15 to 35 dependent operations then waits on the previous one's: the
    out-of-order window does not hold several. This pass gives innermost
    `scf.for` loops on scalars that call `math.exp`, `expm1`, `exp2`, `log`,
    `log1p`, `log2` or `erf` on f32 an interleave count of 4, and those
    calling `tanh` 2 (`#llvm.loop_annotation` on the loop, which the
    lowering to LLVM turns into `!llvm.loop` metadata), unless they run
    fewer than `min-trip-count` iterations.

    (tanh gets 2: at 4 its expansion spills.) Loops with a reduction
    (softmax's sum of exps) already get 4 from LLVM. (Measured per
    function: bench/RESULTS.md, notes on the passes.)

    ```mlir
    scf.for %j = %c0 to %c1024 step %c1 {
      %e = math.exp %x : f32 ...
    }
    // becomes
    scf.for %j = %c0 to %c1024 step %c1 { ... }
        {loop_annotation = #llvm.loop_annotation<interleave = #llvm.loop_interleave<count = 4 : i32>>}
    ```
  }];
  let options = [
    Option<"minTripCount", "min-trip-count", "uint64_t", /*default=*/"64",
           "leave loops of fewer iterations alone (the interleaved vector "
           "loop needs interleave x vector-width elements per iteration)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PBApproximateMath : Pass<"pb-approximate-math"> {
  let summary = "Replace f32 exp, log, tanh, erf and friends by inline polynomials";
  let description = [{
    `math.exp`, `expm1`, `exp2`, `log`, `log1p`, `log2`, `tanh` and `erf` on
    f32 (scalars or vectors) become MLIR's polynomial approximations, written
    in arith: range reduction, a minimax polynomial, exponent arithmetic.
    A loop calling them then vectorizes like any other arithmetic instead of
    calling libm once per element. tests/e2e/math-approximations.mlir
    compares them with libm (the reference lowering) over wide ranges,
    overflow and underflow included, within pbtool crosscheck's f32
    tolerances. Other functions and other element types are left to libm.

    With `complete`, for device code that has no math library to call (AMD
    kernels: PolyBlocks links no ROCm device library), every function MLIR
    can approximate or expand is replaced too: sin, cos, atan, rsqrt,
    floor (as -ceil(-x)), ceil, pow, the hyperbolic functions, ...
    tests/e2e/math-ops.mlir checks these on the CPU
    (tests/Transforms/Common/approximate-math-complete.test).

    exp on f32, the inner loop of a softmax, is PolyBlocks' own version of
    MLIR's (its range reduction and polynomial) in 15 operations per element
    (a compare-and-select counted as the one vmaxps / vminps it becomes):
    `k` rounded by adding 1.5 * 2^23 + 127 in a fused
    multiply-add and clamped to k <= 127 on that sum, `2^k` from the bits
    of the sum shifted into the exponent field (no floor, no conversion to
    an integer, no add of the bias), no clamp of x from above (the result
    is +inf there anyway), and exp(r) = 1 + r (1 + r p(r)) in two fused
    multiply-adds. Its error against libm's double-precision exp is at most
    0.9 ulp over [-87.3, 88.3] (tests/Transforms/Common/approximate-math-accuracy.mlir).

    ```mlir
    %e = math.exp %x : f32
    // becomes (abridged)
    %xc = max(%x, -87.8)
    %s = min(math.fma %xc, log2(e), 1.5 * 2^23 + 127; 1.5 * 2^23 + 254)
    %k = %s - (1.5 * 2^23 + 127)
    %r = %xc - %k * ln(2)                // ln(2) in two parts
    %e = (1 + %r (1 + %r p(%r))) * bitcast(bitcast(%s) << 23)
    ```
  }];
  let options = [
    Option<"complete", "complete", "bool", /*default=*/"false",
           "replace every function that has an approximation or an "
           "expansion (for code without a math library)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBExpandArith : Pass<"pb-expand-arith"> {
  let summary = "Expand the arith ops that have no LLVM lowering (bf16 conversions, ceil/floor division)";
  let description = [{
    `arith.extf` / `arith.truncf` between bf16 and f32 become integer shifts
    and rounding (so no compiler-rt function such as `__truncsfbf2` is
    needed), and `arith.ceildivsi`, `ceildivui` and `floordivsi` become
    divisions with corrections. Unlike upstream `arith-expand`, min and max
    (`arith.maximumf`, ...) are kept: LLVM lowers them to its `llvm.maximum`
    intrinsics, whose reductions its vectorizer recognises, where an
    expansion into compares and selects stays scalar.

    ```mlir
    %q = arith.floordivsi %a, %b : i32
    // becomes
    %d = arith.divsi %a, %b; ... arith.select (a mod b != 0 && signs differ), %d - 1, %d
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// S5: -> LLVM
//===----------------------------------------------------------------------===//

def PBFlattenConstantGlobals
    : Pass<"pb-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Make constant globals one-dimensional arrays of their bytes";
  let description = [{
    The LLVM lowering gives a global of an N-D memref a nested array type
    and an initializer with one LLVM constant per row: for a network's
    weights, millions of objects that LLVM's passes then walk; and LLVM's
    code generation writes an array of floats out element by element (50
    ns each: 0.85 s for a 64 MiB weight), an array of bytes in one copy.
    Each constant global of static shape and identity layout whose
    elements are whole bytes (but i8), with a dense or resource initializer
    that is no splat, becomes a global of its bytes (a resource blob is
    kept, under an i8 type), and each `memref.get_global` of it a view of
    its elements (`memref.view`) in the original shape
    (`memref.expand_shape`), no copy.

    ```mlir
    memref.global "private" constant @w : memref<64x3xf32> = dense_resource<w>
    %w = memref.get_global @w : memref<64x3xf32>
    // becomes
    memref.global "private" constant @w : memref<768xi8> = dense_resource<w>
    %0 = memref.get_global @w : memref<768xi8>
    %1 = memref.view %0[%c0][] : memref<768xi8> to memref<192xf32>
    %w = memref.expand_shape %1 [[0, 1]] output_shape [64, 3] : memref<192xf32> into memref<64x3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PBLowerAffine : Pass<"pb-lower-affine"> {
  let summary = "Lower affine ops to scf, arith, memref and vector, keeping the loops' LLVM annotations";
  let description = [{
    Upstream's `lower-affine`, except that an `affine.for` with attributes
    of the LLVM dialect (a `loop_annotation` an S3 pass put on it) keeps
    them on its `scf.for`; `convert-scf-to-cf` moves them to the loop's
    back edge, where they become `!llvm.loop` metadata. That is how S3 asks
    LLVM to unroll a loop: LLVM unrolls no other loop
    (`optimizeLLVMModule`), S3's passes unroll what they mean to.

    ```mlir
    affine.for %k = 0 to 8 {...} {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>}
    // becomes
    scf.for %k = %c0 to %c8 step %c1 {...} {loop_annotation = #llvm.loop_annotation<...>}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def PBConvertHostToLLVM
    : Pass<"pb-convert-host-to-llvm", "::mlir::ModuleOp"> {
  let summary = "arith, func and cf to the LLVM dialect in one conversion";
  let description = [{
    The patterns of upstream `arith-to-llvm`, `convert-func-to-llvm` (with
    the bare-pointer calling convention: a memref argument is its aligned
    pointer) and `convert-cf-to-llvm`, applied together: one walk over a
    network's host code instead of three, the same LLVM IR once the casts
    between them are reconciled. Runs in S5 after the vector, memref, scf
    and math conversions.

    ```mlir
    func.func @f(%a: memref<4xf32>, %x: f32) -> f32 {
      %y = arith.addf %x, %x : f32
      cf.br ^bb1
    ^bb1:
      return %y : f32
    }
    // becomes
    llvm.func @f(%a: !llvm.ptr, %x: f32) -> f32 {
      %y = llvm.fadd %x, %x : f32
      llvm.br ^bb1
    ^bb1:
      llvm.return %y : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PBMarkNoAlias : Pass<"pb-mark-noalias", "::mlir::ModuleOp"> {
  let summary = "Mark the buffer arguments of public entry points as not aliasing";
  let description = [{
    The PolyBlocks C interface requires that a result buffer overlaps no
    other argument (inputs are only read, so they may overlap each other).
    This pass records that as `llvm.noalias` on every memref argument of the
    public functions, so that LLVM can keep values in registers and
    vectorize without run-time overlap checks.

    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) -> i32
    // becomes
    func.func @f(%a: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) -> i32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PBLowerGPUHost : Pass<"pb-lower-gpu-host", "::mlir::ModuleOp"> {
  let summary = "Embed the device binary and launch its kernels through the PolyBlocks runtime";
  let description = [{
    Runs after `gpu-module-to-binary`. The device binary (fatbin, cubin,
    PTX or HSACO) becomes a constant global of the host object, and every public
    function gets the stream as its last argument (`!llvm.ptr`: a
    `CUstream` or `hipStream_t`, null for the default stream). In its body:

    - `gpu.launch_func` becomes a call to `pbrtLaunch`, passing the binary,
      a per-binary module slot and a per-kernel function slot (filled once,
      on first use, by the runtime), the kernel's name, grid and block
      sizes, the stream and the addresses of the kernel arguments (buffers
      as device pointers, index values as i64);
    - `memref.alloc` becomes `pbrtAlloc` and `memref.dealloc` `pbrtFree`,
      stream-ordered;
    - the status result threads through the calls: each runtime call takes
      the status so far and does nothing once it is non-zero, and the
      function returns the final status. Buffers are freed whatever the
      status.

    ```mlir
    gpu.launch_func @pb_kernels::@f_kernel blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<1000xf32>, ...)
    // becomes
    %s1 = llvm.call @pbrtLaunch(%s0, @__pb_gpu_module_pb_kernels, @__pb_gpu_image_pb_kernels, %size, @__pb_gpu_function_f_kernel, @__pb_gpu_name_f_kernel, %c4, ..., %stream, %args)
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // POLYBLOCKS_TRANSFORMS_PASSES
