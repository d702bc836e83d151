//===- ConstantDataTest.cpp - Freeing constants no IR refers to -----------===//

#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

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

} // namespace
