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

namespace {

/// How each subscript of an access moves when `iv` advances by one.
struct SubscriptMoves {
  /// The loop does not appear in the access.
  bool invariant = false;
  /// Per subscript: the constant it moves by, nullopt when it does not
  /// move by a constant (or `iv` is a symbol of the map).
  SmallVector<std::optional<int64_t>> deltas;
};

} // namespace

static SubscriptMoves getSubscriptMoves(Operation *accessOp, Value iv) {
  MemRefAccess access(accessOp);
  AffineValueMap map;
  access.getAccessMap(&map);
  SubscriptMoves moves;
  unsigned pos = 0;
  while (pos < map.getNumOperands() && map.getOperand(pos) != iv)
    ++pos;
  if (pos == map.getNumOperands()) {
    moves.invariant = true;
    return moves;
  }
  MLIRContext *ctx = accessOp->getContext();
  SmallVector<AffineExpr> shiftedDims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    shiftedDims.push_back(getAffineDimExpr(d, ctx) + (d == pos ? 1 : 0));
  for (AffineExpr expr : map.getAffineMap().getResults()) {
    if (pos >= map.getNumDims()) { // used as a symbol: no linear view
      moves.deltas.push_back(std::nullopt);
      continue;
    }
    if (!expr.isFunctionOfDim(pos)) {
      moves.deltas.push_back(0);
      continue;
    }
    auto delta = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr.replaceDims(shiftedDims) - expr,
                           map.getNumDims(), map.getNumSymbols()));
    moves.deltas.push_back(delta ? std::optional<int64_t>(delta.getValue())
                                 : std::nullopt);
  }
  return moves;
}

AccessStride getAccessStride(Operation *accessOp, Value iv) {
  SubscriptMoves moves = getSubscriptMoves(accessOp, iv);
  if (moves.invariant)
    return AccessStride::Invariant;
  bool lastMovesByOne = false;
  for (auto [r, delta] : llvm::enumerate(moves.deltas)) {
    if (delta == 0)
      continue;
    if (r + 1 == moves.deltas.size() && delta == 1)
      lastMovesByOne = true;
    else
      return AccessStride::Strided;
  }
  return lastMovesByOne ? AccessStride::Contiguous : AccessStride::Invariant;
}

/// The strides of the memref `accessOp` accesses, or none when its layout
/// has no strided form.
static std::optional<SmallVector<int64_t>>
getMemRefStrides(Operation *accessOp) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(MemRefAccess(accessOp).memref.getType())
                 .getStridesAndOffset(strides, offset)))
    return std::nullopt;
  return strides;
}

/// getAddressDelta with the memref's `strides`.
static std::optional<int64_t> getAddressDelta(Operation *accessOp, Value iv,
                                              ArrayRef<int64_t> strides) {
  SubscriptMoves moves = getSubscriptMoves(accessOp, iv);
  if (moves.invariant)
    return 0;
  int64_t elements = 0;
  for (auto [r, delta] : llvm::enumerate(moves.deltas)) {
    if (delta == 0)
      continue;
    if (!delta || ShapedType::isDynamic(strides[r]))
      return std::nullopt;
    elements += *delta * strides[r];
  }
  return elements;
}

std::optional<int64_t> getAddressDelta(Operation *accessOp, Value iv) {
  std::optional<SmallVector<int64_t>> strides = getMemRefStrides(accessOp);
  if (!strides)
    return std::nullopt;
  return getAddressDelta(accessOp, iv, *strides);
}

AccessStride getAddressStride(Operation *accessOp, Value iv) {
  std::optional<SmallVector<int64_t>> strides = getMemRefStrides(accessOp);
  if (!strides)
    return getAccessStride(accessOp, iv);
  std::optional<int64_t> elements = getAddressDelta(accessOp, iv, *strides);
  if (!elements)
    return AccessStride::Strided;
  if (*elements == 0)
    return AccessStride::Invariant;
  return *elements == 1 ? AccessStride::Contiguous : AccessStride::Strided;
}

bool isEntryPointArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto func =
      dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
  return func && func.isPublic();
}

bool isDistinctBuffer(Value memref) {
  if (isa<BlockArgument>(memref))
    return isEntryPointArgument(memref);
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
