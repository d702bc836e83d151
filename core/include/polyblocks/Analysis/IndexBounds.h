//===- IndexBounds.h - Which integer inputs are indices ----------*- C++
//-*-===//
//
// Exporters pass token ids, gather and scatter positions as integer tensors.
// Test drivers (pbtool crosscheck, bench) feed random inputs: for an index
// input they must stay within the dimension it indexes, or the program
// reads out of bounds (or fails its bounds checks).
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_ANALYSIS_INDEXBOUNDS_H
#define POLYBLOCKS_ANALYSIS_INDEXBOUNDS_H

#include "mlir/IR/Value.h"

#include <optional>

namespace polyblocks {

/// If the elements of `tensor` (an integer tensor of a tensor program) are
/// used as indices, the size of the smallest dimension they index: a valid
/// element lies in [0, bound). Follows the elements through linalg payloads
/// (and the results they are yielded into), tensor.extract, casts,
/// reshapes, slices and concatenations to the subscripts
/// of tensor.extract, to the bounds that cf.assert checks (`cmpi slt %i,
/// %c100`) and to the indices of tm_tensor.scatter. Returns nullopt when
/// no such use is found.
std::optional<int64_t> inferIndexBound(mlir::Value tensor);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_INDEXBOUNDS_H
