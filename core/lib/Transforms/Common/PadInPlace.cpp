//===- PadInPlace.cpp - Producers write into their padded buffer ----------===//
//
// A convolution's zero padding arrives as a `tensor.pad` of the previous
// layer's result: bufferized, it is a new buffer filled with the padding
// value and a copy of the whole result into its interior. This pass fills
// the padded tensor before the producer runs and inserts the producer's
// result into it; empty-tensor elimination then has the producer compute
// straight into the interior, and the copy is gone:
//
//   %r = linalg.generic ... outs(%empty) ...
//   %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] { yield %zero }
// becomes
//   %f = linalg.fill ins(%zero) outs(tensor.empty() : <padded shape>)
//   %r = linalg.generic ... outs(%empty) ...
//   %p = tensor.insert_slice %r into %f[0, 1, 1, 0] [<shape of %r>]
//                                        [1, 1, 1, 1]
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
  Value empty = tensor::EmptyOp::create(b, loc, paddedType.getShape(),
                                        paddedType.getElementType());
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
          .getResult(0);
  b.setInsertionPoint(pad);
  int64_t rank = sourceType.getRank();
  SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
  for (int64_t size : sourceType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  Value inserted = tensor::InsertSliceOp::create(
      b, loc, pad.getSource(), filled, pad.getMixedLowPad(), sizes, strides);
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
