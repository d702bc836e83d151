//===- AccessPattern.cpp - How affine accesses move with loops ------------===//

#include "polyblocks/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"

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
    AffineExpr delta = simplifyAffineExpr(expr.replaceDims(shiftedDims) - expr,
                                          map.getNumDims(), map.getNumSymbols());
    auto constant = dyn_cast<AffineConstantExpr>(delta);
    if (r + 1 == numResults && constant && constant.getValue() == 1)
      lastMovesByOne = true;
    else
      return AccessStride::Strided;
  }
  return lastMovesByOne ? AccessStride::Contiguous : AccessStride::Invariant;
}

} // namespace polyblocks
