//===- ConstantDataTest.cpp - The bytes of constants at compile time ----===//
//---------------===//

#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using namespace mlir;
using namespace polyblocks;

namespace {

// Two weights as an exporter writes them, one of them used twice; a third
// blob that a pass made and then replaced.
const char *kSource = R"mlir(
  func.func @f() -> (tensor<2xf32>, tensor<2xf32>, tensor<4xf32>) {
    %a = arith.constant dense_resource<a> : tensor<2xf32>
    %a2 = arith.constant dense_resource<a> : tensor<2xf32>
    %b = arith.constant dense_resource<b> : tensor<4xf32>
    return %a, %a2, %b : tensor<2xf32>, tensor<2xf32>, tensor<4xf32>
  }
  {-#
    dialect_resources: {
      builtin: {
        a: "0x040000000000803F00000040",
        b: "0x040000000000404000008040000080400000A040"
      }
    }
  #-})mlir";

class ConstantDataTest : public ::testing::Test {
protected:
  ConstantDataTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    module = parseSourceString<ModuleOp>(kSource, &context);
  }

  /// The `index`-th arith.constant of the module.
  arith::ConstantOp constant(unsigned index) {
    SmallVector<arith::ConstantOp> constants;
    module->walk([&](arith::ConstantOp op) { constants.push_back(op); });
    return constants[index];
  }

  static ArrayRef<char> dataOf(arith::ConstantOp op) {
    return cast<DenseResourceElementsAttr>(op.getValue())
        .getRawHandle()
        .getBlob()
        ->getData();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ConstantDataTest, NothingFreedWhileEveryBlobIsReferenced) {
  ASSERT_TRUE(module);
  EXPECT_EQ(releaseUnreferencedResources(*module), 0);
  EXPECT_EQ(dataOf(constant(0)).size(), 8u);
  EXPECT_EQ(dataOf(constant(2)).size(), 16u);
}

// `b` replaced by a folded constant (a new blob): the parsed `b` is freed,
// `a` stays while one of its two uses is left, the new blob stays.
TEST_F(ConstantDataTest, ReplacedBlobsAreFreedLiveOnesKept) {
  ASSERT_TRUE(module);
  arith::ConstantOp b = constant(2);
  auto oldB = cast<DenseResourceElementsAttr>(b.getValue());
  std::vector<char> folded(16, 1);
  b.setValueAttr(cast<TypedAttr>(
      makeConstant(cast<ShapedType>(b.getType()), folded, "b_folded")));
  constant(0).setValueAttr(DenseElementsAttr::get(
      cast<ShapedType>(constant(0).getType()), ArrayRef<float>{1.0f, 2.0f}));

  EXPECT_EQ(releaseUnreferencedResources(*module), 16);
  EXPECT_TRUE(oldB.getRawHandle().getBlob()->getData().empty());
  ArrayRef<char> a = dataOf(constant(1));
  ASSERT_EQ(a.size(), 8u);
  float second;
  std::memcpy(&second, a.data() + 4, 4);
  EXPECT_EQ(second, 2.0f);
  EXPECT_EQ(dataOf(constant(2)), ArrayRef<char>(folded));
  // Freed once: a second call finds nothing more.
  EXPECT_EQ(releaseUnreferencedResources(*module), 0);
}

// A reshaped weight shares its blob (no bytes copied) and keeps it alive
// when the constant of the old shape is gone; dense and splat elements
// reshape to the same values.
TEST_F(ConstantDataTest, ReshapedConstantsShareTheirBlob) {
  ASSERT_TRUE(module);
  arith::ConstantOp b = constant(2);
  auto type = RankedTensorType::get(
      {2, 2}, cast<ShapedType>(b.getType()).getElementType());
  ArrayRef<char> before = dataOf(b);
  auto matrix = dyn_cast_or_null<DenseResourceElementsAttr>(
      reshapeConstant(cast<ElementsAttr>(b.getValue()), type));
  ASSERT_TRUE(matrix);
  EXPECT_EQ(matrix.getType(), type);
  b.setValueAttr(matrix);
  b.getResult().setType(type);
  EXPECT_EQ(releaseUnreferencedResources(*module), 0);
  EXPECT_EQ(dataOf(b).data(), before.data());
  EXPECT_EQ(dataOf(b).size(), 16u);

  auto vector = RankedTensorType::get({4}, type.getElementType());
  auto dense =
      DenseElementsAttr::get(type, ArrayRef<float>{1.0f, 2.0f, 3.0f, 4.0f});
  auto flat = dyn_cast_or_null<DenseElementsAttr>(
      reshapeConstant(cast<ElementsAttr>(dense), vector));
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat.getType(), vector);
  EXPECT_EQ(*(flat.value_begin<float>() + 3), 4.0f);
  auto splat = dyn_cast_or_null<SplatElementsAttr>(reshapeConstant(
      cast<ElementsAttr>(DenseElementsAttr::get(type, 1.5f)), vector));
  ASSERT_TRUE(splat);
  EXPECT_EQ(splat.template getSplatValue<float>(), 1.5f);
}

/// out[i] = in[j], j[permutation[k]] = i[k], one element at a time: the
/// definition transposeElements must meet.
std::vector<char> transposeByDefinition(ArrayRef<char> in,
                                        ArrayRef<int64_t> inShape,
                                        ArrayRef<int64_t> permutation,
                                        int64_t elementBytes) {
  int64_t rank = inShape.size();
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  SmallVector<int64_t> shape, strides;
  for (int64_t dim : permutation) {
    shape.push_back(inShape[dim]);
    strides.push_back(inStrides[dim]);
  }
  std::vector<char> out(in.size());
  int64_t i = 0;
  walkRowMajor(shape, {strides}, [&](ArrayRef<int64_t> offsets) {
    std::memcpy(out.data() + i++ * elementBytes,
                in.data() + offsets[0] * elementBytes, elementBytes);
  });
  return out;
}

// Random shapes (with dims of one element, and of more than one block),
// every permutation of ranks 1 to 4 and some of 5, element sizes 1 to 8 and
// an odd one: the blocked and run-copying paths give the definition's bytes.
TEST(TransposeElementsTest, MatchesTheDefinitionOnRandomShapes) {
  std::mt19937 random(19);
  int cases = 0;
  for (int64_t rank = 1; rank <= 5; ++rank) {
    SmallVector<int64_t> permutation(rank);
    std::iota(permutation.begin(), permutation.end(), 0);
    do {
      for (int64_t elementBytes : {1, 2, 3, 4, 8}) {
        if (rank == 5 && random() % 8 != 0)
          continue;
        SmallVector<int64_t> shape;
        int64_t numElements = 1;
        for (int64_t d = 0; d < rank; ++d) {
          // Sizes 1 (dropped), a few, and across a 16 x 16 block's edge.
          static const int64_t kSizes[] = {1, 2, 3, 5, 17, 33};
          int64_t size = kSizes[random() % (rank <= 2 ? 6 : 5)];
          shape.push_back(size);
          numElements *= size;
        }
        std::vector<char> in(numElements * elementBytes);
        for (char &byte : in)
          byte = static_cast<char>(random());
        std::vector<char> out(in.size(), 0);
        transposeElements(in, out, shape, permutation, elementBytes);
        EXPECT_EQ(out,
                  transposeByDefinition(in, shape, permutation, elementBytes))
            << "shape "
            << llvm::join(llvm::map_range(shape,
                                          [](int64_t size) {
                                            return std::to_string(size);
                                          }),
                          "x")
            << ", element bytes " << elementBytes;
        ++cases;
      }
    } while (std::next_permutation(permutation.begin(), permutation.end()));
  }
  EXPECT_GT(cases, 150);
}

} // namespace
