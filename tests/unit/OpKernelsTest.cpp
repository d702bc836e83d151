//===- OpKernelsTest.cpp - What bench --per-op counts of an op ------------===//

#include "polyblocks/Driver/OpKernels.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace polyblocks;

namespace {

// A linalg op's arithmetic: its iterations times the arith and math ops of
// its body (constants not counted); none for other ops or dynamic shapes.
TEST(OpKernelsTest, CountFlopsOfLinalgOps) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>,
             %x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x5xf32>,
             %y: tensor<1x8x8x5xf32>, %d: tensor<?x16xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %k = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x5xf32>) outs(%y : tensor<1x8x8x5xf32>) -> tensor<1x8x8x5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %v, %v : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %p = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%d : tensor<?x16xf32>) {
  ^bb0(%o: f32):
    %s = arith.addf %o, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  return
}
)mlir",
      &context);
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(module->getBody()->front());
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front())
    ops.push_back(&op);
  // matmul: 4 x 16 x 8 iterations of a multiply and an add.
  EXPECT_EQ(countFlops(ops[0]), 2 * 4 * 16 * 8);
  // conv: 1 x 8 x 8 x 5 outputs, a 3 x 3 x 3 window.
  EXPECT_EQ(countFlops(ops[1]), 2 * 8 * 8 * 5 * 27);
  // generic: an add and a max per element, the constant not counted.
  EXPECT_EQ(countFlops(ops[2]), 2 * 4 * 16);
  // transpose: no arithmetic.
  EXPECT_EQ(countFlops(ops[4]), 0);
  // tensor.empty: not a linalg op; a dynamic shape: unknown.
  EXPECT_EQ(countFlops(ops[3]), std::nullopt);
  EXPECT_EQ(countFlops(ops[5]), std::nullopt);
}

} // namespace
