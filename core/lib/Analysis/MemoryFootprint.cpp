//===- MemoryFootprint.cpp - Which bytes a region of code may touch -------===//

#include "polyblocks/Analysis/MemoryFootprint.h"

#include "polyblocks/Analysis/AccessPattern.h"
#include "polyblocks/Analysis/LoopNests.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace polyblocks {

namespace {

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

/// Bytes [offset, offset + span) that a memref of `type` addresses from its
/// base pointer, when its shape and layout are constants.
std::optional<std::pair<int64_t, int64_t>> getByteSpan(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    if (size == 0)
      return std::make_pair(offset * bytes, int64_t(0));
    last += (size - 1) * stride;
  }
  return std::make_pair(offset * bytes, (last + 1) * bytes);
}

/// The global `get` reads, if the symbol resolves.
memref::GlobalOp lookupGlobal(memref::GetGlobalOp get) {
  return SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
}

/// True if no argument of a function can point into `memref`: an
/// allocation, a private global of the module, or a value an scf.if yields
/// that is one of these in each branch.
bool isInternalBuffer(Value memref) {
  Operation *def = memref.getDefiningOp();
  if (isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def))
    return true;
  if (auto get = dyn_cast_or_null<memref::GetGlobalOp>(def)) {
    memref::GlobalOp symbol = lookupGlobal(get);
    return symbol && symbol.isPrivate();
  }
  if (auto branches = dyn_cast_or_null<scf::IfOp>(def)) {
    if (branches.getElseRegion().empty())
      return false;
    unsigned index = cast<OpResult>(memref).getResultNumber();
    return isInternalBuffer(branches.thenYield().getOperand(index)) &&
           isInternalBuffer(branches.elseYield().getOperand(index));
  }
  return false;
}

/// The buffer `memref` starts in and the shift in bytes of its base pointer
/// from that buffer's start (none: not known), filling `extent`'s kind and
/// buffer.
std::optional<int64_t> traceBuffer(Value memref, MemoryExtent &extent) {
  if (isa<BlockArgument>(memref)) {
    if (polyblocks::isEntryPointArgument(memref)) {
      extent.kind = MemoryExtent::Kind::Argument;
      extent.buffer = memref.getAsOpaquePointer();
      return 0;
    }
    return std::nullopt;
  }
  Operation *def = memref.getDefiningOp();
  if (isa<memref::AllocOp, memref::AllocaOp>(def)) {
    extent.kind = MemoryExtent::Kind::Allocation;
    extent.buffer = memref.getAsOpaquePointer();
    return 0;
  }
  if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
    memref::GlobalOp symbol = lookupGlobal(get);
    if (!symbol)
      return std::nullopt;
    extent.kind = symbol.getConstant() ? MemoryExtent::Kind::ReadOnly
                                       : MemoryExtent::Kind::Opaque;
    extent.internal = symbol.isPrivate();
    extent.buffer = symbol.getOperation();
    return 0;
  }
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    std::optional<int64_t> shift = traceBuffer(view.getSource(), extent);
    APInt byteShift;
    if (!shift || !matchPattern(view.getByteShift(), m_ConstantInt(&byteShift)))
      return std::nullopt;
    return *shift + byteShift.getSExtValue();
  }
  // The same base pointer: the layout of the result says where it lies.
  if (isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
          memref::CastOp, memref::ReinterpretCastOp, memref::TransposeOp>(def))
    return traceBuffer(def->getOperand(0), extent);
  // Another buffer (an scf.if yielding a global arena or an allocation).
  if (isa<MemRefType>(memref.getType())) {
    extent.kind = MemoryExtent::Kind::Opaque;
    extent.internal = isInternalBuffer(memref);
    extent.buffer = memref.getAsOpaquePointer();
    return 0;
  }
  return std::nullopt;
}

/// The source a view-like op addresses within, if it is one.
Value getViewSource(Operation *def) {
  if (isa_and_nonnull<memref::ViewOp, memref::SubViewOp,
                      memref::CollapseShapeOp, memref::ExpandShapeOp,
                      memref::CastOp, memref::TransposeOp>(def))
    return def->getOperand(0);
  return {};
}

} // namespace

MemoryExtent getMemoryExtent(Value memref) {
  MemoryExtent extent;
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return extent;
  std::optional<int64_t> shift = traceBuffer(memref, extent);
  if (extent.kind == MemoryExtent::Kind::Unknown)
    return extent;
  // The byte range: from the layout of the value itself, else of the
  // nearest source whose layout is constant (a view lies within its
  // source), else the whole buffer.
  std::optional<std::pair<int64_t, int64_t>> span =
      shift ? getByteSpan(type) : std::nullopt;
  if (span) {
    extent.begin = *shift + span->first;
    extent.end = extent.begin + span->second;
  } else if (Value source = getViewSource(memref.getDefiningOp())) {
    // Traced to the same buffer: all of it but where it lies carries over.
    extent = getMemoryExtent(source);
  } else {
    extent.begin = 0;
    extent.end = kUnbounded;
  }
  // The box of a subview with constant offsets, sizes and strides.
  if (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    ArrayRef<int64_t> offsets = subview.getStaticOffsets();
    ArrayRef<int64_t> sizes = subview.getStaticSizes();
    ArrayRef<int64_t> strides = subview.getStaticStrides();
    auto isConstant = [](ArrayRef<int64_t> values) {
      return llvm::none_of(values, ShapedType::isDynamic);
    };
    if (isConstant(offsets) && isConstant(sizes) && isConstant(strides)) {
      extent.boxSource = subview.getSource();
      extent.boxBegin.assign(offsets.begin(), offsets.end());
      extent.boxEnd.clear();
      for (auto [offset, size, stride] : llvm::zip(offsets, sizes, strides))
        extent.boxEnd.push_back(size == 0 ? offset
                                          : offset + (size - 1) * stride + 1);
    }
  }
  return extent;
}

bool mayOverlap(const MemoryExtent &a, const MemoryExtent &b) {
  using Kind = MemoryExtent::Kind;
  if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
    return true;
  if (a.kind == Kind::ReadOnly || b.kind == Kind::ReadOnly)
    return a.buffer == b.buffer;
  if (a.buffer != b.buffer) {
    // Different buffers: an allocation overlaps nothing else, nor does an
    // argument another argument; an opaque buffer may be anything but a
    // fresh allocation.
    if (a.kind == Kind::Allocation || b.kind == Kind::Allocation)
      return false;
    if (a.kind == Kind::Argument && b.kind == Kind::Argument)
      return false;
    if ((a.kind == Kind::Argument && b.internal) ||
        (b.kind == Kind::Argument && a.internal))
      return false;
    return true;
  }
  if (a.end <= b.begin || b.end <= a.begin)
    return false;
  if (a.boxSource && a.boxSource == b.boxSource &&
      a.boxBegin.size() == b.boxBegin.size()) {
    for (size_t d = 0; d < a.boxBegin.size(); ++d)
      if (a.boxEnd[d] <= b.boxBegin[d] || b.boxEnd[d] <= a.boxBegin[d])
        return false;
  }
  return true;
}

MemoryFootprint getMemoryFootprint(Operation *op, Operation *privateScope) {
  MemoryFootprint footprint;
  auto isPrivate = [&](Value memref) {
    // A buffer allocated inside the scope (each thread has its own).
    Operation *def = getBaseBuffer(memref).getDefiningOp();
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def) &&
           privateScope && privateScope->isAncestor(def);
  };
  op->walk([&](Operation *nested) {
    if (footprint.unknown)
      return WalkResult::interrupt();
    if (nested == op)
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects) {
      // Loops and branches: their bodies are walked.
      if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        footprint.unknown = true;
      return WalkResult::advance();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      Value value = instance.getValue();
      bool allocates = isa<MemoryEffects::Allocate>(instance.getEffect());
      if (value && op->isAncestor(value.getParentBlock()->getParentOp()) &&
          (allocates || isa<MemoryEffects::Free>(instance.getEffect())))
        continue;
      if (!value || !isa<MemRefType>(value.getType())) {
        footprint.unknown = true;
        break;
      }
      if (isPrivate(value))
        continue;
      MemoryExtent extent = getMemoryExtent(value);
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        footprint.reads.push_back(std::move(extent));
      else
        footprint.writes.push_back(std::move(extent));
    }
    return WalkResult::advance();
  });
  return footprint;
}

bool mayConflict(const MemoryFootprint &a, const MemoryFootprint &b) {
  if (a.unknown || b.unknown)
    return true;
  auto anyOverlap = [](ArrayRef<MemoryExtent> xs, ArrayRef<MemoryExtent> ys) {
    for (const MemoryExtent &x : xs)
      for (const MemoryExtent &y : ys)
        if (mayOverlap(x, y))
          return true;
    return false;
  };
  return anyOverlap(a.writes, b.writes) || anyOverlap(a.writes, b.reads) ||
         anyOverlap(a.reads, b.writes);
}

} // namespace polyblocks
