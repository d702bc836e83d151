//===- FlattenConstantGlobals.cpp - Constant globals become byte arrays ---===//
//
// The LLVM lowering gives a global of memref<64x3x7x7xf32> the type
// [64 x [3 x [7 x [7 x float]]]], an initializer of one LLVM constant per
// row: millions of objects for a network's weights, and minutes spent on
// them by LLVM's passes. And LLVM's code generation writes an array of
// floats out element by element (about 50 ns each), an array of bytes with
// one copy. So each constant global becomes one array of its bytes (its
// resource blob kept as it is), viewed as its elements (memref.view) in its
// shape (expand_shape) where it is used.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "pb-flatten-constant-globals"

namespace polyblocks {
#define GEN_PASS_DEF_PBFLATTENCONSTANTGLOBALS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

/// The initializer `value` as a 1-D attribute of its bytes (i8), or null
/// when it is of a kind this pass does not know or a splat (LLVM emits a
/// repeated byte as a fill).
static Attribute toBytes(Attribute value, int64_t numBytes) {
  auto bytes = RankedTensorType::get({numBytes},
                                     IntegerType::get(value.getContext(), 8));
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return nullptr;
    return DenseElementsAttr::getFromRawBuffer(bytes, dense.getRawData());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(bytes, resource.getRawHandle());
  return nullptr;
}

/// The byte array holding a global of `type` (whole-byte elements).
static MemRefType getByteArrayType(MemRefType type) {
  return MemRefType::get(
      {type.getNumElements() * (type.getElementTypeBitWidth() / 8)},
      IntegerType::get(type.getContext(), 8));
}

namespace {
struct FlattenConstantGlobalsPass
    : public polyblocks::impl::PBFlattenConstantGlobalsBase<
          FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseMap<StringAttr, MemRefType> flattened; // global -> its former type
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      std::optional<Attribute> value = global.getInitialValue();
      if (!global.getConstant() || !value || !*value ||
          !isa<TypedAttr>(*value) || type.getRank() < 1 ||
          !type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementTypeBitWidth() % 8 != 0 ||
          type.getElementType().isInteger(8) || type.getMemorySpace())
        continue;
      MemRefType byteArray = getByteArrayType(type);
      Attribute bytes = toBytes(*value, byteArray.getNumElements());
      if (!bytes)
        continue;
      global.setType(byteArray);
      global.setInitialValueAttr(bytes);
      flattened[global.getSymNameAttr()] = type;
    }
    if (flattened.empty())
      return;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = flattened.find(get.getNameAttr().getAttr());
      if (it == flattened.end())
        return;
      MemRefType shaped = it->second;
      OpBuilder builder(get);
      Location loc = get.getLoc();
      auto bytes = memref::GetGlobalOp::create(
          builder, loc, getByteArrayType(shaped), get.getName());
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value view = memref::ViewOp::create(
          builder, loc,
          MemRefType::get({shaped.getNumElements()}, shaped.getElementType()),
          bytes, zero, ValueRange{});
      if (shaped.getRank() > 1) {
        ReassociationIndices all =
            llvm::to_vector(llvm::seq<int64_t>(0, shaped.getRank()));
        view = memref::ExpandShapeOp::create(builder, loc, shaped, view, {all});
      }
      get.replaceAllUsesWith(view);
      get.erase();
    });
  }
};
} // namespace
