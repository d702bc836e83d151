//===- IndexBounds.cpp - Which integer inputs are indices -----------------===//

#include "polyblocks/Analysis/IndexBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace polyblocks {

/// Ops whose result holds the same elements as their first operand, in
/// another shape or order.
static bool preservesElements(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::ExtractSliceOp, tensor::ReshapeOp, tensor::CastOp,
             linalg::TransposeOp, linalg::BroadcastOp, linalg::CopyOp>(op);
}

/// Casts that keep an integer's value (for the values indices take).
static bool isIntegerCast(Operation *op) {
  return isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, arith::TruncIOp>(op);
}

std::optional<int64_t> inferIndexBound(Value tensor) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || !type.getElementType().isSignlessInteger() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  std::optional<int64_t> bound;
  auto addBound = [&](int64_t size) {
    if (size > 0 && !ShapedType::isDynamic(size))
      bound = bound ? std::min(*bound, size) : size;
  };
  // Values holding the elements: tensors, and scalars read from them.
  llvm::SetVector<Value> worklist;
  worklist.insert(tensor);
  for (size_t i = 0; i < worklist.size(); ++i) {
    Value value = worklist[i];
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<TensorType>(value.getType())) {
        if (preservesElements(user) && use.getOperandNumber() == 0) {
          worklist.insert(user->getResult(0));
        } else if (isa<tensor::InsertSliceOp, tensor::ConcatOp>(user)) {
          // The result holds these elements among others.
          worklist.insert(user->getResult(0));
        } else if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
          if (use.get() == extract.getTensor())
            worklist.insert(extract.getResult());
        } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
          if (linalgOp.isDpsInput(&use))
            worklist.insert(linalgOp.getMatchingBlockArgument(&use));
        } else if (user->getName().getStringRef() == "tm_tensor.scatter" &&
                   use.getOperandNumber() == 1) {
          // (updates, indices) -> original: index column k addresses
          // dimension dimension_map[k] of the original.
          auto original = dyn_cast<ShapedType>(user->getOperand(2).getType());
          auto map = user->getAttrOfType<DenseI64ArrayAttr>("dimension_map");
          if (original && map)
            for (int64_t dim : map.asArrayRef())
              if (dim >= 0 && dim < original.getRank())
                addBound(original.getDimSize(dim));
        }
        continue;
      }
      // A scalar element.
      if (isIntegerCast(user)) {
        worklist.insert(user->getResult(0));
      } else if (auto yield = dyn_cast<linalg::YieldOp>(user)) {
        // Written into a result of the linalg op.
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(yield->getParentOp()))
          worklist.insert(linalgOp->getResult(use.getOperandNumber()));
      } else if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        for (auto [dim, index] : llvm::enumerate(extract.getIndices()))
          if (index == value)
            addBound(extract.getTensor().getType().getDimSize(dim));
      } else if (auto cmp = dyn_cast<arith::CmpIOp>(user)) {
        // A bounds check: %i < %c or %i <u %c.
        APInt limit;
        if ((cmp.getPredicate() == arith::CmpIPredicate::slt ||
             cmp.getPredicate() == arith::CmpIPredicate::ult) &&
            cmp.getLhs() == value &&
            matchPattern(cmp.getRhs(), m_ConstantInt(&limit)))
          addBound(limit.getSExtValue());
      }
    }
  }
  return bound;
}

} // namespace polyblocks
