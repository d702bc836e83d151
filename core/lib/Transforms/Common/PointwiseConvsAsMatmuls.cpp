//===- PointwiseConvsAsMatmuls.cpp - 1x1 convolutions as matmuls ----------===//
//
// A 1x1 convolution of unit stride, channels last, is a matmul: each pixel
// of the image is a row, [N * H * W, C] x [C, F]. As a convolution, the
// micro-kernel tiles each image row on its own (a 7-pixel row: tiles of 4
// and 3 rows); as the matmul, its tiles run across image rows. The
// elementwise op that alone reads the convolution's result (batch norm's
// shift, an activation, a residual add: one generic after
// pb-fuse-elementwise) is reshaped with it, so that pb-fuse-epilogues still
// finds it on the matmul's tiles.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "pb-pointwise-convs-as-matmuls"

namespace polyblocks {
#define GEN_PASS_DEF_PBPOINTWISECONVSASMATMULS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The reassociation that makes an NHWC tensor a matrix of pixels by
/// channels.
static SmallVector<ReassociationIndices> pixelsByChannels() {
  return {{0, 1, 2}, {3}};
}

/// Whether `conv` is a 1x1 convolution of unit stride on tensors of static
/// shapes (its dilations then do not matter).
static bool isPointwise(linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics())
    return false;
  for (Value operand : conv->getOperands())
    if (!cast<ShapedType>(operand.getType()).hasStaticShape())
      return false;
  ArrayRef<int64_t> filter =
      cast<ShapedType>(conv.getInputs()[1].getType()).getShape();
  return filter[0] == 1 && filter[1] == 1 &&
         llvm::all_of(conv.getStrides().getValues<int64_t>(),
                      [](int64_t stride) { return stride == 1; });
}

/// An operand's indexing map in the loops (pixel, channel) of the reshaped
/// elementwise op, and the reassociation that reshapes the operand for it
/// (empty: used as it is); none if the map reads the pixel loops (n, h, w)
/// other than all three together, in order, as consecutive results.
/// Constant results (a `Cx1x1` per-channel operand) stay as they are.
static std::optional<std::pair<AffineMap, SmallVector<ReassociationIndices>>>
getPixelsByChannelsMap(AffineMap map) {
  MLIRContext *ctx = map.getContext();
  AffineExpr pixel = getAffineDimExpr(0, ctx);
  AffineExpr channel = getAffineDimExpr(1, ctx);
  SmallVector<AffineExpr> results;
  SmallVector<ReassociationIndices> groups;
  bool reshaped = false;
  for (unsigned i = 0, e = map.getNumResults(); i < e; ++i) {
    AffineExpr expr = map.getResult(i);
    if (isa<AffineConstantExpr>(expr)) {
      results.push_back(expr);
      groups.push_back({static_cast<int64_t>(i)});
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    if (dim.getPosition() == 3) {
      results.push_back(channel);
      groups.push_back({static_cast<int64_t>(i)});
      continue;
    }
    if (dim.getPosition() != 0 || i + 2 >= e ||
        map.getResult(i + 1) != getAffineDimExpr(1, ctx) ||
        map.getResult(i + 2) != getAffineDimExpr(2, ctx))
      return std::nullopt;
    results.push_back(pixel);
    int64_t first = i;
    groups.push_back({first, first + 1, first + 2});
    reshaped = true;
    i += 2;
  }
  AffineMap newMap = AffineMap::get(2, 0, results, ctx);
  if (!reshaped)
    groups.clear();
  return std::make_pair(newMap, groups);
}

/// The elementwise generic that alone reads `conv`'s result, pixel by
/// pixel, if it can be reshaped with it: four parallel loops, one result,
/// no `linalg.index`, every map readable as pixels by channels.
static linalg::GenericOp getReshapableEpilogue(linalg::Conv2DNhwcHwcfOp conv) {
  Value result = conv->getResult(0);
  if (!result.hasOneUse())
    return nullptr;
  OpOperand &use = *result.getUses().begin();
  auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() != 4 || generic.getNumParallelLoops() != 4 ||
      generic->getNumResults() != 1 || generic.hasIndexSemantics() ||
      !generic.isDpsInput(&use) ||
      !generic.getMatchingIndexingMap(&use).isIdentity() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return nullptr;
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!getPixelsByChannelsMap(map))
      return nullptr;
  return generic;
}

/// `value` reshaped by `groups` (collapsed; as it is if none).
static Value collapse(RewriterBase &rewriter, Location loc, Value value,
                      ArrayRef<ReassociationIndices> groups) {
  if (groups.empty())
    return value;
  return tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
}

/// The destination `value` reshaped by `groups`: a new `tensor.empty` (or
/// its fill) where it is one, so that the buffer the op writes is its own
/// allocation (pb-fuse-epilogues then computes the epilogue in place of the
/// product); else a reshape.
static Value collapseInit(RewriterBase &rewriter, Location loc, Value value,
                          ArrayRef<ReassociationIndices> groups) {
  auto type = tensor::CollapseShapeOp::inferCollapsedType(
      cast<RankedTensorType>(value.getType()), groups);
  auto fill = value.getDefiningOp<linalg::FillOp>();
  Value empty = fill ? fill.getOutputs()[0] : value;
  if (!empty.getDefiningOp<tensor::EmptyOp>())
    return collapse(rewriter, loc, value, groups);
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  if (!fill)
    return init;
  return linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], init)
      ->getResult(0);
}

/// The filter `value`, 1x1xCxF, as the CxF matrix: a constant if it is one
/// (the micro-kernel packs a constant's panels at compile time), else a
/// reshape.
static Value collapseFilter(RewriterBase &rewriter, Location loc, Value value,
                            ArrayRef<ReassociationIndices> groups) {
  auto type =
      cast<RankedTensorType>(tensor::CollapseShapeOp::inferCollapsedType(
          cast<RankedTensorType>(value.getType()), groups));
  ElementsAttr attr;
  if (polyblocks::matchConstantThroughReshape(value, &attr))
    if (ElementsAttr matrix = polyblocks::reshapeConstant(attr, type))
      return arith::ConstantOp::create(rewriter, loc, type,
                                       cast<TypedAttr>(matrix));
  return collapse(rewriter, loc, value, groups);
}

/// Rewrites `conv`, and its epilogue if it has one that can follow, as a
/// matmul on pixels by channels (and an elementwise op on the same), their
/// result expanded back to NHWC. Left as it is when that result is padded:
/// pb-pad-in-place has the producer of a padded tensor write into its
/// interior, whose pixels are not one matrix; reshaped, the result would
/// be copied there.
static void rewriteAsMatmul(RewriterBase &rewriter,
                            linalg::Conv2DNhwcHwcfOp conv) {
  linalg::GenericOp epilogue = getReshapableEpilogue(conv);
  Operation *last = epilogue ? epilogue.getOperation() : conv.getOperation();
  if (llvm::any_of(last->getResult(0).getUsers(),
                   [](Operation *user) { return isa<tensor::PadOp>(user); }))
    return;

  // The matmul takes the convolution's place (pb-fuse-epilogues reaches its
  // epilogue past the nests between that commute with it: ResNet's
  // downsampling convolution between a block's last convolution and their
  // sum).
  Location loc = conv.getLoc();
  SmallVector<ReassociationIndices> rows = pixelsByChannels();
  rewriter.setInsertionPoint(conv);
  Value input = collapse(rewriter, loc, conv.getInputs()[0], rows);
  Value filter = collapseFilter(rewriter, loc, conv.getInputs()[1], rows);
  Value init = collapseInit(rewriter, loc, conv.getOutputs()[0], rows);
  auto matmul = linalg::MatmulOp::create(
      rewriter, loc, ValueRange{input, filter}, ValueRange{init});
  Value product = matmul->getResult(0);
  auto resultType = cast<RankedTensorType>(conv->getResult(0).getType());

  if (!epilogue) {
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(conv, resultType,
                                                       product, rows);
    return;
  }
  rewriter.setInsertionPoint(epilogue);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    auto [map, groups] =
        *getPixelsByChannelsMap(epilogue.getMatchingIndexingMap(&operand));
    maps.push_back(map);
    if (operand.get() == conv->getResult(0))
      operands.push_back(product);
    else if (epilogue.isDpsInit(&operand))
      operands.push_back(collapseInit(rewriter, loc, operand.get(), groups));
    else
      operands.push_back(collapse(rewriter, loc, operand.get(), groups));
  }
  int64_t numInputs = epilogue.getNumDpsInputs();
  auto reshaped = linalg::GenericOp::create(
      rewriter, epilogue.getLoc(), operands.back().getType(),
      ArrayRef(operands).take_front(numInputs),
      ArrayRef(operands).drop_front(numInputs), maps,
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel));
  IRMapping mapping;
  epilogue.getRegion().cloneInto(&reshaped.getRegion(), mapping);
  auto epilogueType = cast<RankedTensorType>(epilogue->getResult(0).getType());
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      epilogue, epilogueType, reshaped->getResult(0), rows);
  rewriter.eraseOp(conv);
}

struct PointwiseConvsAsMatmulsPass
    : public polyblocks::impl::PBPointwiseConvsAsMatmulsBase<
          PointwiseConvsAsMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (isPointwise(conv))
        convs.push_back(conv);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNhwcHwcfOp conv : convs)
      rewriteAsMatmul(rewriter, conv);
  }
};

} // namespace
