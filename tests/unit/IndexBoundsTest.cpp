//===- IndexBoundsTest.cpp - Which integer inputs are indices -------------===//

#include "polyblocks/Analysis/IndexBounds.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace polyblocks;

namespace {

class IndexBoundsTest : public ::testing::Test {
protected:
  IndexBoundsTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// The bound of argument `arg` of the first function of `source`.
  std::optional<int64_t> boundOf(StringRef source, unsigned arg) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<func::FuncOp>().begin();
    return inferIndexBound(func.getArgument(arg));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// An embedding lookup: the ids index the table's 10 rows (the read and the
// bounds check agree); the table itself is no index.
TEST_F(IndexBoundsTest, EmbeddingIdsIndexTheTableRows) {
  const char *source = R"mlir(
    func.func @f(%ids: tensor<3xi64>, %table: tensor<10x4xi32>) -> tensor<3x4xi32> {
      %c10 = arith.constant 10 : index
      %e = tensor.empty() : tensor<3x4xi32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xi32>) {
      ^bb0(%id: i64, %o: i32):
        %i = arith.index_cast %id : i64 to index
        %j = linalg.index 1 : index
        %ok = arith.cmpi slt, %i, %c10 : index
        cf.assert %ok, "index must be smaller than dim size"
        %v = tensor.extract %table[%i, %j] : tensor<10x4xi32>
        linalg.yield %v : i32
      } -> tensor<3x4xi32>
      return %r : tensor<3x4xi32>
    })mlir";
  EXPECT_EQ(boundOf(source, 0), 10);
  EXPECT_EQ(boundOf(source, 1), std::nullopt);
}

// A scalar read from the input and reshaped on the way: the smallest
// dimension it indexes wins.
TEST_F(IndexBoundsTest, SmallestIndexedDimensionWins) {
  const char *source = R"mlir(
    func.func @f(%p: tensor<1x1xi32>, %t: tensor<7x5xf32>) -> tensor<f32> {
      %c0 = arith.constant 0 : index
      %flat = tensor.collapse_shape %p [] : tensor<1x1xi32> into tensor<i32>
      %s = tensor.extract %flat[] : tensor<i32>
      %i = arith.index_cast %s : i32 to index
      %v = tensor.extract %t[%i, %i] : tensor<7x5xf32>
      %r = tensor.from_elements %v : tensor<f32>
      return %r : tensor<f32>
    })mlir";
  EXPECT_EQ(boundOf(source, 0), 5);
}

// scatter_add as torch-mlir writes it: the ids are read in a generic,
// yielded into a column of the index tensor and inserted into it; the
// scatter's dimension map says which dimensions of the original they index.
TEST_F(IndexBoundsTest, ScatterIndicesThroughAGenericAndInsertSlice) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<5x8xf32>, %ids: tensor<3xi64>, %u: tensor<3xf32>) -> tensor<5x8xf32> {
      %e = tensor.empty() : tensor<3x1xi64>
      %col = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0, 0)>],
                             iterator_types = ["parallel"]}
          ins(%ids : tensor<3xi64>) outs(%e : tensor<3x1xi64>) {
      ^bb0(%id: i64, %o: i64):
        linalg.yield %id : i64
      } -> tensor<3x1xi64>
      %z = tensor.empty() : tensor<3x2xi64>
      %idx = tensor.insert_slice %col into %z[0, 0] [3, 1] [1, 1] : tensor<3x1xi64> into tensor<3x2xi64>
      %r = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false)
          ins(%u, %idx : tensor<3xf32>, tensor<3x2xi64>) outs(%x : tensor<5x8xf32>) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tm_tensor.yield %s : f32
      } -> tensor<5x8xf32>
      return %r : tensor<5x8xf32>
    })mlir";
  EXPECT_EQ(boundOf(source, 1), 5);
}

// Integers that are only computed with are not indices.
TEST_F(IndexBoundsTest, ArithmeticIsNoIndex) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
      %e = tensor.empty() : tensor<4xi32>
      %r = linalg.add ins(%a, %a : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
      return %r : tensor<4xi32>
    })mlir";
  EXPECT_EQ(boundOf(source, 0), std::nullopt);
}

} // namespace
