//===- PadInPlace.cpp - Producers write into their padded buffer ----------===//
//
// A convolution's zero padding arrives as a `tensor.pad` of the previous
// layer's result: bufferized, it is a new buffer filled with the padding
// value and a copy of the whole result into its interior. This pass fills
// the padded tensor's border before the producer runs and inserts the
// producer's result into it; empty-tensor elimination then has the producer
// compute straight into the interior, and the copy is gone:
//
//   %r = linalg.generic ... outs(%empty) ...
//   %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] { yield %zero }
// becomes
//   %f = <%zero filled into the border slabs of tensor.empty() : <padded
//         shape>: rows 0 and H+1, then columns 0 and W+1 of rows 1..H>
//   %r = linalg.generic ... outs(%empty) ...
//   %p = tensor.insert_slice %r into %f[0, 1, 1, 0] [<shape of %r>]
//                                        [1, 1, 1, 1]
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "pb-pad-in-place"

namespace polyblocks {
#define GEN_PASS_DEF_PBPADINPLACE
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// Rewrites `pad` when its shapes are static, its padding value a constant
/// and its source computed by a destination-style op of the same block
/// (whose result can then be computed in place).
bool padInPlace(tensor::PadOp pad) {
  auto sourceType = pad.getSourceType();
  auto paddedType = pad.getResultType();
  if (!sourceType.hasStaticShape() || !paddedType.hasStaticShape() ||
      !llvm::all_of(pad.getMixedLowPad(),
                    [](OpFoldResult low) { return isa<Attribute>(low); }))
    return false;
  Value paddingValue = pad.getConstantPaddingValue();
  Attribute constant;
  if (!paddingValue || !matchPattern(paddingValue, m_Constant(&constant)))
    return false;
  Operation *producer = pad.getSource().getDefiningOp();
  if (!producer || producer->getBlock() != pad->getBlock() ||
      !isa<DestinationStyleOpInterface>(producer))
    return false;

  OpBuilder b(producer);
  Location loc = pad.getLoc();
  Value value = arith::ConstantOp::create(b, loc, cast<TypedAttr>(constant));
  Value filled = tensor::EmptyOp::create(b, loc, paddedType.getShape(),
                                         paddedType.getElementType());
  // Only the border is filled: for each padded dimension d, the slabs
  // below and above the interior along d, across the interior of the
  // dimensions before d and the whole of those after it.
  SmallVector<int64_t> low, high;
  for (auto [size, padded, lowPad] : llvm::zip(
           sourceType.getShape(), paddedType.getShape(), pad.getStaticLow())) {
    low.push_back(lowPad);
    high.push_back(padded - lowPad - size);
  }
  int64_t rank = sourceType.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    for (auto [begin, length] :
         {std::pair(int64_t(0), low[d]),
          std::pair(low[d] + sourceType.getDimSize(d), high[d])}) {
      if (length == 0)
        continue;
      SmallVector<int64_t> offsets, shape;
      for (int64_t e = 0; e < rank; ++e) {
        offsets.push_back(e < d ? low[e] : e == d ? begin : 0);
        shape.push_back(e < d    ? sourceType.getDimSize(e)
                        : e == d ? length
                                 : paddedType.getDimSize(e));
      }
      Value slab =
          tensor::EmptyOp::create(b, loc, shape, paddedType.getElementType());
      Value slabFilled =
          linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{slab})
              .getResult(0);
      filled = tensor::InsertSliceOp::create(
          b, loc, slabFilled, filled, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, shape), unitStrides);
    }
  }
  b.setInsertionPoint(pad);
  Value inserted = tensor::InsertSliceOp::create(
      b, loc, pad.getSource(), filled, pad.getMixedLowPad(),
      getAsIndexOpFoldResult(context, sourceType.getShape()), unitStrides);
  pad.getResult().replaceAllUsesWith(inserted);
  pad.erase();
  return true;
}

struct PadInPlacePass
    : public polyblocks::impl::PBPadInPlaceBase<PadInPlacePass> {
  using PBPadInPlaceBase::PBPadInPlaceBase;

  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    for (tensor::PadOp pad : pads)
      padInPlace(pad);
  }
};

} // namespace
