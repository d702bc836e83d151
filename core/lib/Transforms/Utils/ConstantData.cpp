//===- ConstantData.cpp - The bytes of constants, at compile time ---------===//

#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;

namespace polyblocks {

std::optional<int64_t> getElementBytes(Type type) {
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return type.getIntOrFloatBitWidth() / 8;
}

std::optional<ArrayRef<char>> getConstantBytes(ElementsAttr attr,
                                               int64_t elementBytes) {
  int64_t size = attr.getNumElements() * elementBytes;
  ArrayRef<char> data;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    data = dense.getRawData();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    data = blob->getData();
  } else {
    return std::nullopt;
  }
  if (static_cast<int64_t>(data.size()) != size)
    return std::nullopt;
  return data;
}

bool matchConstantThroughReshape(Value value, ElementsAttr *attr) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    value = collapse.getSrc();
  else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    value = expand.getSrc();
  ElementsAttr constant;
  if (!matchPattern(value, m_Constant(&constant)))
    return false;
  if (attr)
    *attr = constant;
  return true;
}

ElementsAttr makeConstant(ShapedType type, ArrayRef<char> bytes,
                          StringRef resourceName) {
  if (resourceName.empty())
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
      bytes.size(), /*align=*/64, /*dataIsMutable=*/true);
  std::memcpy(blob.getMutableData().data(), bytes.data(), bytes.size());
  return DenseResourceElementsAttr::get(type, resourceName, std::move(blob));
}

} // namespace polyblocks
