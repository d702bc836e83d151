//===- TileBatch.cpp - The leading layers of a batch one image at a time --===//
//
// A batched network makes each activation for all its images before the
// next op reads it; where that activation outgrows the last-level cache,
// the next op reads it back from memory. This pass tiles the leading ops
// of the network -- those up to the last one that reads or makes such an
// activation -- into one loop over the images, each op computing one image
// per iteration, so that each image's activations pass from op to op
// through the cache.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Target/MachineModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-tile-batch"

namespace polyblocks {
#define GEN_PASS_DEF_PBTILEBATCH
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The loop of `op`'s iteration domain that walks dim 0 of its result and
/// of every operand that has the batch (dim 0 of size `batch`), if `op`
/// computes each image from that image's operands alone; -1 otherwise.
static int64_t getImageLoop(Operation *op, int64_t batch) {
  if (op->getNumResults() != 1)
    return -1;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      type.getDimSize(0) != batch)
    return -1;
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    // Its padding value must not depend on the image's index.
    if (pad.getStaticLow()[0] != 0 || pad.getStaticHigh()[0] != 0 ||
        !pad.getRegion().front().getArgument(0).use_empty())
      return -1;
    return 0;
  }
  // Convolutions, poolings and the ops around them; not matmuls: split by
  // image, a matmul's weight would be packed and read once per image (a
  // transformer's layers, whose weights outweigh an image's activations,
  // ran four times slower).
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return -1;
  bool elementwise =
      isa<linalg::GenericOp>(op) && linalgOp.getNumReductionLoops() == 0;
  if (!elementwise &&
      !isa<linalg::ConvolutionOpInterface, linalg::FillOp, linalg::TransposeOp>(
          op))
    return -1;
  AffineMap resultMap =
      linalgOp.getIndexingMapMatchingResult(cast<OpResult>(op->getResult(0)));
  auto dim = dyn_cast<AffineDimExpr>(resultMap.getResult(0));
  if (!dim || linalgOp.getIteratorTypesArray()[dim.getPosition()] !=
                  utils::IteratorType::parallel)
    return -1;
  unsigned loop = dim.getPosition();
  // Its body sees one image: the image's index would be 0.
  bool indexesImages = false;
  linalgOp->walk(
      [&](linalg::IndexOp index) { indexesImages |= index.getDim() == loop; });
  if (indexesImages)
    return -1;
  // Every operand either has the image loop at dim 0 alone, or does not
  // read it at all (weights, per-channel vectors).
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      bool atDim0 = i == 0 && isa<AffineDimExpr>(expr) &&
                    cast<AffineDimExpr>(expr).getPosition() == loop;
      if (!atDim0 && expr.isFunctionOfDim(loop))
        return -1;
    }
  }
  return loop;
}

/// Whether `operand` of `op` (an op with an image loop) carries the batch:
/// the per-image op reads that image's slice of it.
static bool isImageOperand(OpOperand &operand) {
  Operation *op = operand.getOwner();
  if (isa<tensor::PadOp>(op))
    return operand.getOperandNumber() == 0;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
  AffineMap resultMap =
      linalgOp.getIndexingMapMatchingResult(cast<OpResult>(op->getResult(0)));
  return map.getNumResults() > 0 && map.getResult(0) == resultMap.getResult(0);
}

/// `type` with dim 0 of size 1: one image of it.
static RankedTensorType getImageType(Type type) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape[0] = 1;
  return RankedTensorType::get(shape, ranked.getElementType());
}

/// The bytes of a statically shaped tensor of integers or floats.
static int64_t getTensorBytes(RankedTensorType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// The offsets, sizes and strides of image `image` of a tensor whose one
/// image is `type`.
struct ImageSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  ImageSlice(OpBuilder &b, RankedTensorType type, Value image)
      : offsets(type.getRank(), b.getIndexAttr(0)),
        sizes(getAsIndexOpFoldResult(b.getContext(), type.getShape())),
        strides(type.getRank(), b.getIndexAttr(1)) {
    offsets[0] = image;
  }
};

/// The largest tensor with the batch that `op` reads or makes, in bytes.
static int64_t getLargestBatchedBytes(Operation *op, int64_t batch) {
  int64_t largest = 0;
  auto consider = [&](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
        type.getDimSize(0) != batch || !type.getElementType().isIntOrFloat())
      return;
    largest = std::max(largest, getTensorBytes(type));
  };
  for (Value operand : op->getOperands())
    consider(operand);
  for (Value result : op->getResults())
    consider(result);
  return largest;
}

struct TileBatchPass : public polyblocks::impl::PBTileBatchBase<TileBatchPass> {
  using PBTileBatchBase::PBTileBatchBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    polyblocks::CPUModel cpu = polyblocks::getMachineModel(func).cpu;
    Block &body = func.getBody().front();

    // The batch: dim 0 of the first per-image op's result.
    int64_t batch = 0;
    for (Operation &op : body) {
      auto type = op.getNumResults() == 1
                      ? dyn_cast<RankedTensorType>(op.getResult(0).getType())
                      : nullptr;
      if (type && type.hasStaticShape() && type.getRank() >= 2 &&
          !isa<linalg::FillOp>(op) &&
          getImageLoop(&op, type.getDimSize(0)) >= 0) {
        batch = type.getDimSize(0);
        break;
      }
    }
    if (batch <= 1)
      return;

    // The cut: the last per-image op that reads or makes an activation
    // too large for the cache, moved on through the elementwise ops that
    // alone read its result (its epilogue: batch norm, activation).
    Operation *cut = nullptr;
    for (Operation &op : body)
      if (getImageLoop(&op, batch) >= 0 &&
          polyblocks::isBatchTiledActivation(
              cpu, getLargestBatchedBytes(&op, batch), batch))
        cut = &op;
    if (!cut)
      return;
    while (cut->getResult(0).hasOneUse()) {
      Operation *user = *cut->getResult(0).getUsers().begin();
      if (!isa<linalg::GenericOp>(user) || getImageLoop(user, batch) < 0)
        break;
      cut = user;
    }

    // The per-image ops the cut depends on, through the operands that
    // carry the batch: they go into the loop, in program order.
    llvm::SmallPtrSet<Operation *, 32> inLoop{cut};
    SmallVector<Operation *> worklist{cut};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (OpOperand &operand : op->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        if (isImageOperand(operand) && producer &&
            producer->getBlock() == &body &&
            getImageLoop(producer, batch) >= 0 &&
            inLoop.insert(producer).second)
          worklist.push_back(producer);
      }
    }
    SmallVector<Operation *> ordered;
    for (Operation &op : body)
      if (inLoop.contains(&op))
        ordered.push_back(&op);
    // The loop pays for itself where an activation too large for the
    // cache is made and read in it, never leaving it.
    bool keepsOneInCache = llvm::any_of(ordered, [&](Operation *op) {
      Value result = op->getResult(0);
      int64_t bytes = getTensorBytes(cast<RankedTensorType>(result.getType()));
      return op != cut &&
             polyblocks::isBatchTiledActivation(cpu, bytes, batch) &&
             llvm::all_of(result.getUsers(), [&](Operation *user) {
               return inLoop.contains(user);
             });
    });
    if (!keepsOneInCache) {
      LLVM_DEBUG(llvm::dbgs() << "not tiling: no large activation stays in "
                                 "the loop\n");
      return;
    }
    // A result read before the cut by an op left out of the loop (one
    // mixing the images) would be read before the loop makes it.
    for (Operation *op : ordered)
      for (Operation *user : op->getUsers()) {
        Operation *inBody = body.findAncestorOpInBlock(*user);
        if (!inLoop.contains(inBody) && inBody->isBeforeInBlock(cut)) {
          LLVM_DEBUG(llvm::dbgs() << "not tiling: " << *inBody
                                  << " reads an op of the loop\n");
          return;
        }
      }
    // The loop's results: the cut's, and those of ops also read after the
    // loop (a residual connection across the cut); fills are cheaper made
    // again than kept.
    SmallVector<Operation *> results;
    for (Operation *op : ordered) {
      if (op == cut || isa<linalg::FillOp>(op))
        continue;
      if (llvm::any_of(op->getUsers(),
                       [&](Operation *user) { return !inLoop.contains(user); }))
        results.push_back(op);
    }
    results.push_back(cut);
    LLVM_DEBUG(llvm::dbgs() << ordered.size() << " ops one image at a time, "
                            << results.size() << " results\n");

    // Every value an op in the loop reads is defined before the cut.
    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPoint(cut);
    Location loc = cut->getLoc();
    SmallVector<Value> inits;
    for (Operation *op : results) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      inits.push_back(tensor::EmptyOp::create(
          rewriter, op->getLoc(), type.getShape(), type.getElementType()));
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value count = arith::ConstantIndexOp::create(rewriter, loc, batch);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, inits,
        [&](OpBuilder &b, Location loc, Value image, ValueRange accs) {
          // Each op on one image: the batched values it reads as that
          // image's slice (made once), the values of the ops before it in
          // the loop as their clones' results.
          IRMapping perImage;
          for (Operation *op : ordered) {
            for (OpOperand &operand : op->getOpOperands()) {
              Value value = operand.get();
              if (!isImageOperand(operand) || perImage.contains(value))
                continue;
              RankedTensorType type = getImageType(value.getType());
              if (value.getDefiningOp<tensor::EmptyOp>()) {
                perImage.map(value, tensor::EmptyOp::create(
                                        b, op->getLoc(), type.getShape(),
                                        type.getElementType()));
                continue;
              }
              ImageSlice slice(b, type, image);
              perImage.map(value,
                           tensor::ExtractSliceOp::create(
                               b, op->getLoc(), type, value, slice.offsets,
                               slice.sizes, slice.strides));
            }
            Operation *clone = b.clone(*op, perImage);
            clone->getResult(0).setType(
                getImageType(op->getResult(0).getType()));
            perImage.map(op->getResult(0), clone->getResult(0));
          }
          SmallVector<Value> yields;
          for (auto [op, acc] : llvm::zip(results, accs)) {
            Value value = perImage.lookup(op->getResult(0));
            ImageSlice slice(b, cast<RankedTensorType>(value.getType()), image);
            yields.push_back(tensor::InsertSliceOp::create(
                b, op->getLoc(), value, acc, slice.offsets, slice.sizes,
                slice.strides));
          }
          scf::YieldOp::create(b, loc, yields);
        });
    for (auto [op, result] : llvm::zip(results, loop.getResults()))
      rewriter.replaceAllUsesWith(op->getResult(0), result);
    // The batched ops, last first (producers come before their users).
    for (Operation *op : llvm::reverse(ordered))
      if (op->use_empty())
        rewriter.eraseOp(op);
  }
};

} // namespace
