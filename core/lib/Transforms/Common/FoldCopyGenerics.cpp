//===- FoldCopyGenerics.cpp - Copies that change no value, as views -------===//
//
// jaxlib spells two no-ops as `linalg.generic` copies: stop_gradient as a
// copy with identity maps, and `broadcast_in_dim` to a shape with dims of
// 1 added (a row's mean kept as [..., 1] for the division after it) as a
// copy whose input map drops those dims. Each is a loop nest over memory;
// neither changes a value. The first becomes its input, the second a
// `tensor.expand_shape` of it, which bufferizes to a view:
//
//   %c = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, d1)]}
//        ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) { yield %in }
//   %b = linalg.generic {maps = [(d0, d1, d2) -> (d0, d1),
//                               (d0, d1, d2) -> (d0, d1, d2)]}
//        ins(%c : tensor<2x8xf32>) outs(%f : tensor<2x8x1xf32>) { yield %in }
// becomes
//   %b = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 8, 1]
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-fold-copy-generics"

namespace polyblocks {
#define GEN_PASS_DEF_PBFOLDCOPYGENERICS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The dims of `copy`'s result that its input lacks, when `copy` is a
/// generic on tensors that yields its one input unchanged into its one init
/// (all loops parallel, the init's map the identity) and reads that input
/// through the identity (empty: the input and result types are the same)
/// or, shapes static, through the identity with some dims dropped, each of
/// size 1 in the result.
static std::optional<SmallVector<unsigned>>
getAddedUnitDims(linalg::GenericOp copy) {
  if (!copy.hasPureTensorSemantics() || copy.getNumDpsInputs() != 1 ||
      copy.getNumDpsInits() != 1 ||
      copy.getNumParallelLoops() != copy.getNumLoops())
    return std::nullopt;
  Block *body = copy.getBlock();
  if (body->getOperations().size() != 1 ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return std::nullopt;
  auto sourceType =
      dyn_cast<RankedTensorType>(copy.getDpsInputs()[0].getType());
  auto resultType = cast<RankedTensorType>(copy->getResult(0).getType());
  if (!sourceType || sourceType.getElementType() != resultType.getElementType())
    return std::nullopt;
  unsigned rank = copy.getNumLoops();
  SmallVector<AffineMap> maps = copy.getIndexingMapsArray();
  if (maps[1] != AffineMap::getMultiDimIdentityMap(rank, copy.getContext()) ||
      maps[0].getNumSymbols() != 0)
    return std::nullopt;
  // The input's dims, in order, a subsequence of the loops.
  SmallVector<unsigned> added;
  unsigned next = 0;
  for (AffineExpr expr : maps[0].getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() < next)
      return std::nullopt;
    for (; next < dim.getPosition(); ++next)
      added.push_back(next);
    ++next;
  }
  for (; next < rank; ++next)
    added.push_back(next);
  if (added.empty())
    return sourceType == resultType ? std::optional(added) : std::nullopt;
  if (!sourceType.hasStaticShape() || !resultType.hasStaticShape() ||
      llvm::any_of(added,
                   [&](unsigned d) { return resultType.getDimSize(d) != 1; }))
    return std::nullopt;
  return added;
}

/// The reassociation of an expand_shape from the dims of `rank` not in
/// `added` to all `rank` of them: each added dim of 1 joins the group of
/// the source dim before it (the first source dim's, for those before it).
static SmallVector<ReassociationIndices>
getReassociation(unsigned rank, ArrayRef<unsigned> added) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (unsigned d = 0; d < rank; ++d) {
    if (llvm::is_contained(added, d)) {
      if (groups.empty())
        leading.push_back(d);
      else
        groups.back().push_back(d);
      continue;
    }
    groups.emplace_back(leading);
    groups.back().push_back(d);
    leading.clear();
  }
  return groups;
}

struct FoldCopyGenericsPass
    : polyblocks::impl::PBFoldCopyGenericsBase<FoldCopyGenericsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<unsigned>>> copies;
    getOperation().walk([&](linalg::GenericOp generic) {
      if (std::optional<SmallVector<unsigned>> added =
              getAddedUnitDims(generic))
        copies.emplace_back(generic, std::move(*added));
    });
    for (auto &[copy, added] : copies) {
      Value source = copy.getDpsInputs()[0];
      Value folded = source;
      if (!added.empty()) {
        auto resultType = cast<RankedTensorType>(copy->getResult(0).getType());
        OpBuilder b(copy);
        folded = tensor::ExpandShapeOp::create(
            b, copy.getLoc(), resultType, source,
            getReassociation(resultType.getRank(), added));
      }
      copy->getResult(0).replaceAllUsesWith(folded);
      copy->erase();
    }
  }
};

} // namespace
