//===- FlattenConstantGlobals.cpp - Globals of N-D memrefs become 1-D -----===//
//
// The LLVM lowering gives a global of memref<64x3x7x7xf32> the type
// [64 x [3 x [7 x [7 x float]]]], an initializer of one LLVM constant per
// row: millions of objects for a network's weights, and minutes spent on
// them by LLVM's passes. Flat, each global is one array of its elements
// (one constant holding the raw data), viewed in its shape by an
// expand_shape where it is used.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

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

/// The initializer `value` as a 1-D attribute of `numElements` elements, or
/// null when it is of a kind this pass does not know.
static Attribute flattenInitializer(Attribute value, int64_t numElements) {
  auto type = cast<ShapedType>(cast<TypedAttr>(value).getType());
  auto flat = RankedTensorType::get({numElements}, type.getElementType());
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(flat);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(flat, resource.getRawHandle());
  return nullptr;
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
          !isa<TypedAttr>(*value) || type.getRank() < 2 ||
          !type.hasStaticShape() || !type.getLayout().isIdentity())
        continue;
      Attribute flatValue = flattenInitializer(*value, type.getNumElements());
      if (!flatValue)
        continue;
      global.setType(MemRefType::get({type.getNumElements()},
                                     type.getElementType(), AffineMap(),
                                     type.getMemorySpace()));
      global.setInitialValueAttr(flatValue);
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
      auto flat = memref::GetGlobalOp::create(
          builder, get.getLoc(),
          MemRefType::get({shaped.getNumElements()}, shaped.getElementType(),
                          AffineMap(), shaped.getMemorySpace()),
          get.getName());
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, shaped.getRank()));
      auto view = memref::ExpandShapeOp::create(builder, get.getLoc(), shaped,
                                                flat, {all});
      get.replaceAllUsesWith(view.getResult());
      get.erase();
    });
  }
};
} // namespace
