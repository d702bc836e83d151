//===- IRBuilders.cpp - IR the rewriting passes share ---------------------===//

#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::affine;

namespace polyblocks {

SmallVector<Value> remapOperands(ValueRange mapOperands,
                                 const DenseMap<Value, Value> &ivMap) {
  SmallVector<Value> operands;
  for (Value operand : mapOperands)
    operands.push_back(ivMap.lookup_or(operand, operand));
  return operands;
}

SmallVector<Value> buildRowMultiplyAdds(OpBuilder &builder, Location loc,
                                        const Contraction &c,
                                        DenseMap<Value, Value> &ivMap,
                                        ArrayRef<Value> rows, ValueRange panels,
                                        ValueRange accs) {
  AffineLoadOp rowLoad = c.rowLoad;
  Value rowIv = AffineForOp(c.iLoop).getInductionVar();
  SmallVector<Value> scalars;
  for (Value row : rows) {
    ivMap[rowIv] = row;
    scalars.push_back(AffineLoadOp::create(
        builder, loc, rowLoad.getMemRef(), rowLoad.getAffineMap(),
        remapOperands(rowLoad.getMapOperands(), ivMap)));
  }
  return buildMultiplyAdds(builder, loc, scalars, panels, accs);
}

SmallVector<Value> buildMultiplyAdds(OpBuilder &builder, Location loc,
                                     ValueRange scalars, ValueRange panels,
                                     ValueRange accs) {
  assert(accs.size() == scalars.size() * panels.size() &&
         "one accumulator per row and panel vector");
  SmallVector<Value> results;
  for (auto [r, scalar] : llvm::enumerate(scalars)) {
    for (auto [v, panel] : llvm::enumerate(panels)) {
      Value splat =
          vector::BroadcastOp::create(builder, loc, panel.getType(), scalar);
      results.push_back(vector::FMAOp::create(builder, loc, splat, panel,
                                              accs[r * panels.size() + v]));
    }
  }
  return results;
}

void requestLLVMFullUnroll(Operation *loop) {
  MLIRContext *context = loop->getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/{}, /*count=*/{}, /*runtimeDisable=*/{},
      /*full=*/BoolAttr::get(context, true), {}, {}, {});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  // The name convert-scf-to-cf and the LLVM dialect's branch take it by.
  loop->setAttr("loop_annotation", annotation);
}

Value buildTranspose(OpBuilder &builder, Location loc, Value value,
                     ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = tensor::EmptyOp::create(
      builder, loc, applyPermutation(type.getShape(), permutation),
      type.getElementType());
  return linalg::TransposeOp::create(builder, loc, value, init, permutation)
      ->getResult(0);
}

} // namespace polyblocks
