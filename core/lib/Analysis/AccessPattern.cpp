//===- AccessPattern.cpp - How affine accesses move with loops ------------===//

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::affine;

namespace polyblocks {

AccessStride getAccessStride(Operation *accessOp, Value iv) {
  MemRefAccess access(accessOp);
  AffineValueMap map;
  access.getAccessMap(&map);
  unsigned pos = 0;
  while (pos < map.getNumOperands() && map.getOperand(pos) != iv)
    ++pos;
  if (pos == map.getNumOperands())
    return AccessStride::Invariant;
  if (pos >= map.getNumDims())
    return AccessStride::Strided; // used as a symbol: no linear view
  MLIRContext *ctx = accessOp->getContext();
  SmallVector<AffineExpr> shiftedDims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    shiftedDims.push_back(getAffineDimExpr(d, ctx) + (d == pos ? 1 : 0));
  bool lastMovesByOne = false;
  unsigned numResults = map.getNumResults();
  for (unsigned r = 0; r < numResults; ++r) {
    AffineExpr expr = map.getResult(r);
    if (!expr.isFunctionOfDim(pos))
      continue;
    AffineExpr delta =
        simplifyAffineExpr(expr.replaceDims(shiftedDims) - expr,
                           map.getNumDims(), map.getNumSymbols());
    auto constant = dyn_cast<AffineConstantExpr>(delta);
    if (r + 1 == numResults && constant && constant.getValue() == 1)
      lastMovesByOne = true;
    else
      return AccessStride::Strided;
  }
  return lastMovesByOne ? AccessStride::Contiguous : AccessStride::Invariant;
}

AccessStride getAddressStride(Operation *accessOp, Value iv) {
  MemRefAccess access(accessOp);
  AffineValueMap map;
  access.getAccessMap(&map);
  unsigned pos = 0;
  while (pos < map.getNumOperands() && map.getOperand(pos) != iv)
    ++pos;
  if (pos == map.getNumOperands())
    return AccessStride::Invariant;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (pos >= map.getNumDims() ||
      failed(cast<MemRefType>(access.memref.getType())
                 .getStridesAndOffset(strides, offset)))
    return getAccessStride(accessOp, iv);
  MLIRContext *ctx = accessOp->getContext();
  SmallVector<AffineExpr> shiftedDims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    shiftedDims.push_back(getAffineDimExpr(d, ctx) + (d == pos ? 1 : 0));
  int64_t elements = 0;
  for (auto [r, expr] : llvm::enumerate(map.getAffineMap().getResults())) {
    if (!expr.isFunctionOfDim(pos))
      continue;
    auto delta = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr.replaceDims(shiftedDims) - expr,
                           map.getNumDims(), map.getNumSymbols()));
    if (!delta || ShapedType::isDynamic(strides[r]))
      return AccessStride::Strided;
    elements += delta.getValue() * strides[r];
  }
  if (elements == 0)
    return AccessStride::Invariant;
  return elements == 1 ? AccessStride::Contiguous : AccessStride::Strided;
}

bool isDistinctBuffer(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref))
    return isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
  Operation *def = memref.getDefiningOp();
  if (auto global = dyn_cast_or_null<memref::GetGlobalOp>(def)) {
    auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        def, global.getNameAttr());
    return symbol && symbol.getConstant();
  }
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def);
}

FailureOr<BufferAccesses> collectBufferAccesses(Operation *root) {
  BufferAccesses result;
  auto visit = [&](Operation *op) {
    Value memref;
    if (auto read = dyn_cast<AffineReadOpInterface>(op)) {
      memref = read.getMemRef();
      result.read.insert(memref);
    } else if (auto write = dyn_cast<AffineWriteOpInterface>(op)) {
      memref = write.getMemRef();
      result.written.insert(memref);
    } else if (isa<AffineForOp, AffineIfOp, AffineYieldOp>(op) || isPure(op)) {
      return WalkResult::advance();
    } else {
      return WalkResult::interrupt(); // unknown effects on memory
    }
    result.byBuffer[memref].push_back(op);
    return isDistinctBuffer(memref) ? WalkResult::advance()
                                    : WalkResult::interrupt();
  };
  for (Region &region : root->getRegions())
    if (region.walk(visit).wasInterrupted())
      return failure();
  return result;
}

std::optional<int64_t> getSubscriptOffset(Operation *accessOp, unsigned dim,
                                          Value iv) {
  MemRefAccess access(accessOp);
  AffineValueMap map;
  access.getAccessMap(&map);
  if (dim >= map.getNumResults())
    return std::nullopt;
  AffineExpr expr = map.getResult(dim);
  int64_t offset = 0;
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
      sum && sum.getKind() == AffineExprKind::Add) {
    auto constant = dyn_cast<AffineConstantExpr>(sum.getRHS());
    if (!constant)
      return std::nullopt;
    offset = constant.getValue();
    expr = sum.getLHS();
  }
  auto d = dyn_cast<AffineDimExpr>(expr);
  if (!d || map.getOperand(d.getPosition()) != iv)
    return std::nullopt;
  return offset;
}

} // namespace polyblocks
