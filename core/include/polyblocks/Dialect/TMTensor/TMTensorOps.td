//===- TMTensorOps.td - torch-mlir's tm_tensor ops, as input -*- tablegen -*-===//
//
// torch-mlir's FX importer writes sort, top-k, cumulative scans and
// scatter-accumulate (torch.sort, topk, cumsum, scatter_add, index_put) as
// ops of its own `tm_tensor` dialect. PolyBlocks reads them with the same
// syntax, bufferizes them like any destination-style op and lowers them to
// loops in S2 (pb-lower-tm-tensor). Only what the importer writes is here;
// its attention op is not (the importer decomposes attention into linalg).
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DIALECT_TMTENSOR_OPS
#define POLYBLOCKS_DIALECT_TMTENSOR_OPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TMTensor_Dialect : Dialect {
  let name = "tm_tensor";
  let cppNamespace = "::polyblocks::tm_tensor";
  let summary = "The sort, scan and scatter ops of torch-mlir's exports";
  let description = [{
    Ops on tensors (as imported) or memrefs (after bufferization). Each
    reads its `ins`, updates its `outs` in place and, on tensors, returns
    the updated `outs` as results; a region computes what each step keeps.
  }];
}

class TMTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TMTensor_Dialect, mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments,
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        SingleBlockImplicitTerminator<"::polyblocks::tm_tensor::YieldOp">])> {
  let hasVerifier = 1;
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  code extraDstClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
    /// True when the op works on memrefs (after bufferization).
    bool hasPureBufferSemantics() {
      return ::llvm::all_of(getOperandTypes(), [](::mlir::Type t) {
        return !::llvm::isa<::mlir::TensorType>(t);
      });
    }
  }];
}

def TMTensor_SortOp : TMTensor_Op<"sort"> {
  let summary = "Sort slices of several tensors together along one dimension";
  let description = [{
    Sorts every slice along `dimension` of the `outs` (all of one shape),
    permuting them together. The region is the comparator: given the
    elements of two positions (lhs and rhs of the first output, then of the
    second, ...) it yields true when they are in order. Equal elements keep
    their order (the sort is stable).

    ```mlir
    %r:2 = tm_tensor.sort dimension(1) outs(%x, %idx : tensor<4x8xf32>, tensor<4x8xi64>) {
    ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
      %le = arith.cmpf ole, %a, %b : f32
      tm_tensor.yield %le : i1
    } -> tensor<4x8xf32>, tensor<4x8xi64>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension);
  let assemblyFormat = [{
    attr-dict
    `dimension` `(` $dimension `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = extraDstClassDeclaration;
}

def TMTensor_TopkOp : TMTensor_Op<"topk"> {
  let summary = "Merge the elements of a tensor into its k best along one dimension";
  let description = [{
    `ins`: the values (and, optionally, their indices, i32); `outs`: the k
    best values and their indices so far, of the input's shape but for
    `dimension`, which has size k. Every input element along `dimension` is
    inserted into its slice of the outputs: it moves past each kept element
    for which the region (new, kept) yields true, equal values keeping the
    smaller index first. Without input indices, an element's index is its
    position along `dimension`.
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension);
  let assemblyFormat = [{
    attr-dict
    `dimension` `(` $dimension `)`
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = extraDstClassDeclaration;
}

def TMTensor_ScanOp : TMTensor_Op<"scan"> {
  let summary = "Cumulative combination along one dimension (cumsum, cumprod)";
  let description = [{
    `ins`: one tensor; `outs`: the result, of the input's shape, and an
    accumulator without `dimension`, which ends holding each slice's total.
    Along `dimension`, the result's element i is the region's combination
    (previous result, input element) of the input's elements up to i
    (`inclusive`) or before i; the first element is the input's (inclusive)
    or the accumulator's initial value.

    ```mlir
    %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xf32>)
        outs(%zeros, %acc : tensor<4x8xf32>, tensor<4xf32>) {
    ^bb0(%prev: f32, %x: f32):
      %s = arith.addf %prev, %x : f32
      tm_tensor.yield %s : f32
    } -> tensor<4x8xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension,
                       BoolAttr:$inclusive);
  let assemblyFormat = [{
    `dimension` `(` $dimension `)`
    `inclusive` `(` $inclusive `)`
    attr-dict
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = extraDstClassDeclaration;
}

def TMTensor_ScatterOp : TMTensor_Op<"scatter"> {
  let summary = "Combine slices of updates into a tensor at indexed positions";
  let description = [{
    `ins`: the updates (N x slice) and the indices (N x depth, integers);
    `outs`: the original tensor, updated in place. Update n goes to the
    position whose dimensions `dimension_map[k]` are offset by indices[n][k]
    (and whose trailing dimensions follow the slice); the region combines
    (update, current) into the new element. Repeated indices are combined
    in order. An index out of range is a failed run-time check (the update
    is skipped and the entry point returns PB_STATUS_CHECK_FAILED).

    ```mlir
    %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false)
        ins(%upd, %idx : tensor<3x1x8xf32>, tensor<3x1xi64>) outs(%x : tensor<5x8xf32>) {
    ^bb0(%u: f32, %cur: f32):
      %s = arith.addf %cur, %u : f32
      tm_tensor.yield %s : f32
    } -> tensor<5x8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       DenseI64ArrayAttr:$dimension_map,
                       DefaultValuedAttr<BoolAttr, "true">:$unique_indices);
  let assemblyFormat = [{
    attr-dict `unique_indices` `(` $unique_indices `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = extraDstClassDeclaration;
}

def TMTensor_YieldOp : Op<TMTensor_Dialect, "yield",
                          [Pure, ReturnLike, Terminator]> {
  let summary = "The value a tm_tensor op's region computes";
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // POLYBLOCKS_DIALECT_TMTENSOR_OPS
