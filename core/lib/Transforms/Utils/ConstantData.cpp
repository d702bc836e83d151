//===- ConstantData.cpp - The bytes of constants, at compile time ---------===//

#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

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

ElementsAttr reshapeConstant(ElementsAttr attr, ShapedType type) {
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return nullptr;
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

void walkRowMajor(ArrayRef<int64_t> shape,
                  ArrayRef<SmallVector<int64_t>> strides,
                  function_ref<void(ArrayRef<int64_t>)> visit) {
  int64_t rank = shape.size();
  int64_t numElements = 1;
  for (int64_t size : shape)
    numElements *= size;
  SmallVector<int64_t> index(rank, 0);
  SmallVector<int64_t> offsets(strides.size(), 0);
  for (int64_t i = 0; i < numElements; ++i) {
    visit(offsets);
    for (int64_t d = rank - 1; d >= 0; --d) {
      for (auto [offset, operandStrides] : llvm::zip(offsets, strides))
        offset += operandStrides[d];
      if (++index[d] < shape[d])
        break;
      for (auto [offset, operandStrides] : llvm::zip(offsets, strides))
        offset -= operandStrides[d] * shape[d];
      index[d] = 0;
    }
  }
}

/// Copies the `rows` x `cols` block at `in` (a row `inRowStride` elements
/// after the last, columns adjacent) transposed to `out` (a row
/// `outRowStride` elements after the last), in squares of kBlock; elements
/// of kBytes each (a constant the copies are compiled for), or of
/// `elementBytes` when kBytes is 0.
template <int64_t kBytes>
static void transposeBlock(const char *in, char *out, int64_t rows,
                           int64_t cols, int64_t inRowStride,
                           int64_t outRowStride, int64_t elementBytes) {
  constexpr int64_t kBlock = 16;
  int64_t bytes = kBytes ? kBytes : elementBytes;
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock)
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
      int64_t rEnd = std::min(rows, r0 + kBlock);
      int64_t cEnd = std::min(cols, c0 + kBlock);
      for (int64_t c = c0; c < cEnd; ++c)
        for (int64_t r = r0; r < rEnd; ++r)
          std::memcpy(out + (c * outRowStride + r) * bytes,
                      in + (r * inRowStride + c) * bytes, bytes);
    }
}

void transposeElements(ArrayRef<char> in, MutableArrayRef<char> out,
                       ArrayRef<int64_t> inShape, ArrayRef<int64_t> permutation,
                       int64_t elementBytes) {
  // The result's dims, each with its stride in the input; dims of one
  // element dropped, and neighbours that are neighbours in the input too
  // (a run of the result that is a run of the input) merged.
  SmallVector<int64_t> inStrides = computeStrides(inShape);
  SmallVector<int64_t> shape, strides;
  for (int64_t dim : permutation) {
    int64_t size = inShape[dim], stride = inStrides[dim];
    if (size == 1)
      continue;
    if (!shape.empty() && strides.back() == stride * size) {
      shape.back() *= size;
      strides.back() = stride;
      continue;
    }
    shape.push_back(size);
    strides.push_back(stride);
  }
  if (shape.empty() || strides.back() == 1) {
    // Runs of the input as they are (the identity, at the most, is one).
    int64_t run = shape.empty() ? 1 : shape.back();
    SmallVector<int64_t> outer(shape.begin(), shape.end());
    if (!outer.empty())
      outer.back() = 1;
    int64_t i = 0;
    walkRowMajor(outer, {strides}, [&](ArrayRef<int64_t> offsets) {
      std::memcpy(out.data() + i++ * run * elementBytes,
                  in.data() + offsets[0] * elementBytes, run * elementBytes);
    });
    return;
  }
  // The input's innermost dim of more than one element, somewhere before
  // the result's last: blocks of (that dim) x (the result's last dim), read
  // along their rows from the input and written along their columns.
  int64_t last = shape.size() - 1;
  int64_t inner = llvm::find(strides, 1) - strides.begin();
  SmallVector<int64_t> outStrides = computeStrides(shape);
  SmallVector<int64_t> outer(shape);
  outer[inner] = outer[last] = 1;
  auto transposeBlocks = [&](auto elementSize) {
    walkRowMajor(outer, {strides, outStrides}, [&](ArrayRef<int64_t> offsets) {
      transposeBlock<decltype(elementSize)::value>(
          in.data() + offsets[0] * elementBytes,
          out.data() + offsets[1] * elementBytes, shape[last], shape[inner],
          strides[last], outStrides[inner], elementBytes);
    });
  };
  // Copies of a constant size for the usual element sizes.
  switch (elementBytes) {
  case 1:
    return transposeBlocks(std::integral_constant<int64_t, 1>());
  case 2:
    return transposeBlocks(std::integral_constant<int64_t, 2>());
  case 4:
    return transposeBlocks(std::integral_constant<int64_t, 4>());
  case 8:
    return transposeBlocks(std::integral_constant<int64_t, 8>());
  default:
    return transposeBlocks(std::integral_constant<int64_t, 0>());
  }
}

std::optional<SmallVector<APFloat>> getFloatElements(ElementsAttr attr) {
  auto floatType = dyn_cast<FloatType>(attr.getElementType());
  if (!floatType || floatType.getWidth() > 64)
    return std::nullopt;
  int64_t numElements = attr.getNumElements();
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return SmallVector<APFloat>(numElements, splat.getSplatValue<APFloat>());
  std::optional<int64_t> elementBytes = getElementBytes(floatType);
  if (!elementBytes)
    return std::nullopt;
  std::optional<ArrayRef<char>> bytes = getConstantBytes(attr, *elementBytes);
  if (!bytes)
    return std::nullopt;
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  unsigned bits = floatType.getWidth();
  SmallVector<APFloat> values;
  values.reserve(numElements);
  for (int64_t i = 0; i < numElements; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes->data() + i * *elementBytes, *elementBytes);
    values.emplace_back(semantics, APInt(bits, raw));
  }
  return values;
}

ElementsAttr makeFloatConstant(ShapedType type, ArrayRef<APFloat> values,
                               StringRef resourceName) {
  int64_t elementBytes = *getElementBytes(type.getElementType());
  std::vector<char> bytes(values.size() * elementBytes);
  for (auto [i, value] : llvm::enumerate(values)) {
    uint64_t raw = value.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + i * elementBytes, &raw, elementBytes);
  }
  return makeConstant(type, bytes, resourceName);
}

memref::GlobalOp getConstantGlobal(Value memref) {
  auto getGlobal = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !global.getType().getLayout().isIdentity())
    return nullptr;
  return global;
}

std::optional<ConstantColumnFactor>
matchConstantColumnFactor(const Contraction &c) {
  // Operation handles are not const-correct: copies of them.
  affine::AffineLoadOp panelLoad = c.panelLoad;
  affine::AffineForOp jLoop = c.jLoop;
  ConstantColumnFactor factor;
  factor.global = getConstantGlobal(panelLoad.getMemRef());
  if (!factor.global)
    return std::nullopt;
  factor.init = dyn_cast<ElementsAttr>(*factor.global.getInitialValue());
  std::optional<int64_t> elementBytes = getElementBytes(c.elementType);
  if (!factor.init || !elementBytes)
    return std::nullopt;
  factor.elementBytes = *elementBytes;
  std::optional<ArrayRef<char>> bytes =
      getConstantBytes(factor.init, *elementBytes);
  if (!bytes)
    return std::nullopt;
  factor.bytes = *bytes;

  // Y's linear offset as base + jCoef * j + sum of kCoefs[d] * k[d]: each
  // map operand is j or a reduction loop's variable, the map has no
  // symbols, divisions or remainders.
  AffineMap map = panelLoad.getAffineMap();
  if (map.getNumSymbols() != 0)
    return std::nullopt;
  for (AffineExpr result : map.getResults()) {
    bool linear = true;
    result.walk([&](AffineExpr e) {
      linear &= e.getKind() != AffineExprKind::Mod &&
                e.getKind() != AffineExprKind::FloorDiv &&
                e.getKind() != AffineExprKind::CeilDiv;
    });
    if (!linear)
      return std::nullopt;
  }
  SmallVector<int64_t> strides =
      computeStrides(factor.global.getType().getShape());
  auto offsetAt = [&](ArrayRef<int64_t> dims) {
    int64_t offset = 0;
    for (auto [index, stride] : llvm::zip(map.compose(dims), strides))
      offset += index * stride;
    return offset;
  };
  SmallVector<int64_t> point(map.getNumDims(), 0);
  factor.base = offsetAt(point);
  int64_t jCoef = 0;
  factor.kCoefs.assign(c.kLoops.size(), 0);
  // A batch's panels: the leading outer loops the panel moves with.
  ArrayRef<affine::AffineForOp> batchLoops =
      ArrayRef<affine::AffineForOp>(c.outerLoops)
          .take_front(c.numPanelBatchLoops);
  factor.batchCoefs.assign(batchLoops.size(), 0);
  for (auto [i, operand] : llvm::enumerate(panelLoad.getMapOperands())) {
    point[i] = 1;
    int64_t coef = offsetAt(point) - factor.base;
    point[i] = 0;
    if (operand == jLoop.getInductionVar()) {
      jCoef += coef;
      continue;
    }
    auto isLoopOf = [&](affine::AffineForOp loop) {
      return loop.getInductionVar() == operand;
    };
    if (const auto *k = llvm::find_if(c.kLoops, isLoopOf);
        k != c.kLoops.end()) {
      factor.kCoefs[k - c.kLoops.begin()] += coef;
      continue;
    }
    const auto *batch = llvm::find_if(batchLoops, isLoopOf);
    if (batch == batchLoops.end())
      return std::nullopt;
    factor.batchCoefs[batch - batchLoops.begin()] += coef;
  }
  // The matcher takes panels contiguous along j (Contraction.cpp): a
  // panel row's lanes are consecutive elements of Y.
  if (jCoef != 1)
    return std::nullopt;
  return factor;
}

memref::GlobalOp getOrCreateConstantGlobal(memref::GlobalOp after,
                                           StringRef name, MemRefType type,
                                           ArrayRef<char> bytes,
                                           bool asResource) {
  Operation *module = after->getParentOp();
  std::optional<int64_t> elementBytes = getElementBytes(type.getElementType());
  std::string candidate = name.str();
  for (unsigned suffix = 0;; ++suffix) {
    if (suffix != 0)
      candidate = (name + "_" + llvm::Twine(suffix)).str();
    auto existing = dyn_cast_or_null<memref::GlobalOp>(
        SymbolTable::lookupSymbolIn(module, candidate));
    if (!existing)
      break;
    if (existing.getType() != type || !existing.getConstant() ||
        !existing.getInitialValue() || !elementBytes)
      continue;
    auto init = dyn_cast<ElementsAttr>(*existing.getInitialValue());
    if (!init)
      continue;
    std::optional<ArrayRef<char>> data = getConstantBytes(init, *elementBytes);
    if (data && *data == bytes)
      return existing;
  }
  auto tensorType =
      RankedTensorType::get(type.getShape(), type.getElementType());
  OpBuilder b(after->getContext());
  b.setInsertionPointAfter(after);
  return memref::GlobalOp::create(
      b, after.getLoc(), candidate, b.getStringAttr("private"), type,
      makeConstant(tensorType, bytes, asResource ? StringRef(candidate) : ""),
      /*constant=*/true, b.getI64IntegerAttr(64));
}

int64_t releaseUnreferencedResources(Operation *root) {
  auto *blobs =
      root->getContext()
          ->getLoadedDialect<BuiltinDialect>()
          ->getRegisteredInterface<ResourceBlobManagerDialectInterface>();
  if (!blobs)
    return 0;
  llvm::StringSet<> referenced;
  root->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      referenced.insert(attr.getRawHandle().getKey());
    });
  });
  SmallVector<std::string> unreferenced;
  DialectResourceBlobManager &manager = blobs->getBlobManager();
  manager.getBlobMap(
      [&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &map) {
        for (const auto &entry : map) {
          const AsmResourceBlob *blob = entry.second.getBlob();
          if (blob && !blob->getData().empty() &&
              !referenced.contains(entry.first()))
            unreferenced.push_back(entry.first().str());
        }
      });
  int64_t released = 0;
  for (const std::string &name : unreferenced) {
    released += manager.lookup(name)->getBlob()->getData().size();
    manager.update(name, AsmResourceBlob());
  }
  return released;
}

} // namespace polyblocks
