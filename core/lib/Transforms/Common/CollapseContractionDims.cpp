//===- CollapseContractionDims.cpp - Contractions as matmuls --------------===//
//
// Collapses the loops of a contraction that every operand indexes together,
// in the same order and next to each other (or not at all), into one: a
// Flax DenseGeneral, [b, s, e] x [e, h, d] -> [b, s, h, d], becomes the
// matmul it is, [b * s, e] x [e, h * d], on reshapes of its operands. The
// micro-kernel then sees M = b * s rows and N = h * d columns instead of a
// nest whose rows are s alone and whose column factor moves with h.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "pb-collapse-contraction-dims"

namespace polyblocks {
#define GEN_PASS_DEF_PBCOLLAPSECONTRACTIONDIMS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The runs of consecutive loops of `op` to collapse: loops of one iterator
/// type that every indexing map reads next to each other, in loop order, or
/// not at all; runs of one loop are left out. None unless `op` is a
/// contraction on tensors of static shapes indexed by projected
/// permutations.
static SmallVector<ReassociationIndices>
getCollapsibleRuns(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumReductionLoops() == 0 ||
      !linalg::isaContractionOpInterface(generic) ||
      ShapedType::isDynamicShape(generic.getStaticLoopRanges()))
    return {};
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return {};
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  SmallVector<ReassociationIndices> runs;
  int64_t numLoops = generic.getNumLoops();
  for (int64_t first = 0; first < numLoops;) {
    ReassociationIndices run{first};
    while (run.back() + 1 < numLoops &&
           iterators[run.back() + 1] == iterators[first]) {
      ReassociationIndices longer(run);
      longer.push_back(run.back() + 1);
      if (!linalg::areDimSequencesPreserved(maps, {longer}))
        break;
      run = std::move(longer);
    }
    first = run.back() + 1;
    if (run.size() > 1)
      runs.push_back(std::move(run));
  }
  return runs;
}

struct CollapseContractionDimsPass
    : public polyblocks::impl::PBCollapseContractionDimsBase<
          CollapseContractionDimsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateCollapseDimensions(patterns, getCollapsibleRuns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
