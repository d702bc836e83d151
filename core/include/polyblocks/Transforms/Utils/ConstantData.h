//===- ConstantData.h - The bytes of constants, at compile time -*- C++ -*-===//
//
// Passes that evaluate what depends only on constant weights (transposes on
// tensors, packed panels of convolution filters) read and write the
// elements' bytes through these.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_UTILS_CONSTANTDATA_H
#define POLYBLOCKS_TRANSFORMS_UTILS_CONSTANTDATA_H

#include "polyblocks/Analysis/Contraction.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace polyblocks {

/// Bytes of one element of `type` if it is an integer or float of whole
/// bytes (not index), else nullopt.
std::optional<int64_t> getElementBytes(mlir::Type type);

/// The row-major bytes of the elements of `attr`, `elementBytes` each, or
/// nullopt when they are not at hand (splats, bit-packed i1, elided
/// resources).
std::optional<llvm::ArrayRef<char>> getConstantBytes(mlir::ElementsAttr attr,
                                                     int64_t elementBytes);

/// Whether `value` is a constant or a reshape of one (the bytes of a
/// row-major reshape are its source's: depthwise filters arrive as
/// Cx1xKHxKW constants collapsed to CxKHxKW); the constant in `attr`.
bool matchConstantThroughReshape(mlir::Value value,
                                 mlir::ElementsAttr *attr = nullptr);

/// `attr` with the shape of `type` (the same number of elements, row-major):
/// a splat or dense elements reshaped, a `dense_resource` sharing its blob
/// (no bytes copied); null for other constants.
mlir::ElementsAttr reshapeConstant(mlir::ElementsAttr attr,
                                   mlir::ShapedType type);

/// A constant of `type` holding `bytes`: dense elements when `resourceName`
/// is empty, else a new `dense_resource` blob of that name.
mlir::ElementsAttr makeConstant(mlir::ShapedType type,
                                llvm::ArrayRef<char> bytes,
                                llvm::StringRef resourceName);

/// Visits the indices of `shape` in row-major order, passing for each the
/// linear offsets of the operands read at it: offsets[k] is the sum over
/// dimensions d of index[d] * strides[k][d].
void walkRowMajor(llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<llvm::SmallVector<int64_t>> strides,
                  llvm::function_ref<void(llvm::ArrayRef<int64_t>)> visit);

/// Writes into `out` the row-major elements (`elementBytes` each) of the
/// transpose of `in`, of shape `inShape`, by `permutation` (result dim k is
/// input dim permutation[k], as linalg.transpose's): contiguous runs copied
/// whole, other permutations in cache-sized square blocks.
void transposeElements(llvm::ArrayRef<char> in, llvm::MutableArrayRef<char> out,
                       llvm::ArrayRef<int64_t> inShape,
                       llvm::ArrayRef<int64_t> permutation,
                       int64_t elementBytes);

/// The elements of a float constant, row-major (a splat repeated), or
/// nullopt when they are not at hand or not floats.
std::optional<llvm::SmallVector<llvm::APFloat>>
getFloatElements(mlir::ElementsAttr attr);

/// A constant of float `type` holding `values` (in its element type's
/// semantics), named as makeConstant's.
mlir::ElementsAttr makeFloatConstant(mlir::ShapedType type,
                                     llvm::ArrayRef<llvm::APFloat> values,
                                     llvm::StringRef resourceName);

/// The constant global with an initial value and an identity layout that
/// `memref` reads through memref.get_global (a network's weights after
/// bufferization), or null.
mlir::memref::GlobalOp getConstantGlobal(mlir::Value memref);

/// A contraction's column factor Y when it is read from a constant global
/// linearly (a network's weights): Y at (batch..., j, k...) is element
/// `base + j + sum kCoefs[d] * k[d] + sum batchCoefs[b] * batch[b]` of
/// `bytes`, the global's row-major data; batch the leading
/// `numPanelBatchLoops` outer loops of `c`.
struct ConstantColumnFactor {
  mlir::memref::GlobalOp global;
  mlir::ElementsAttr init;
  llvm::ArrayRef<char> bytes;
  int64_t elementBytes = 0;
  int64_t base = 0;
  llvm::SmallVector<int64_t> kCoefs;
  llvm::SmallVector<int64_t> batchCoefs;
};

/// The column factor of `c` as a ConstantColumnFactor (its panels can then
/// be packed at compile time), or nullopt: not a constant global, its bytes
/// not at hand, or read through a map with symbols, divisions or
/// remainders, by a loop other than j, the reduction loops and the batch
/// loops, or with j at a stride other than 1.
std::optional<ConstantColumnFactor>
matchConstantColumnFactor(const Contraction &c);

/// A private constant memref global of `type` (identity layout, 64-byte
/// aligned) holding `bytes`, inserted after `after` (a global): an existing
/// one named `name` or `name_<N>` with the same type and bytes (the same
/// weights transformed or packed the same way for two ops), else a new one
/// under the first of those names that is free. Its data is a new
/// `dense_resource` blob when `asResource`, else dense elements.
mlir::memref::GlobalOp getOrCreateConstantGlobal(mlir::memref::GlobalOp after,
                                                 llvm::StringRef name,
                                                 mlir::MemRefType type,
                                                 llvm::ArrayRef<char> bytes,
                                                 bool asResource);

/// Frees the data of the builtin dialect's resource blobs (`dense_resource`
/// constants) that no attribute of an operation in `root` refers to any
/// more: the weights as parsed, once folding has replaced them, and each
/// folding's intermediate results. Returns the bytes freed. Blobs live as
/// long as the context, so only a caller whose `root` holds all the IR of
/// its context may call this (one compilation of one module; not after
/// cloning it).
int64_t releaseUnreferencedResources(mlir::Operation *root);

} // namespace polyblocks

#endif // POLYBLOCKS_TRANSFORMS_UTILS_CONSTANTDATA_H
