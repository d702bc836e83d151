//===- MemoryFootprintTest.cpp - Which bytes memrefs may share ------------===//

#include "polyblocks/Analysis/MemoryFootprint.h"
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

// Extents of memrefs cut from an arena (views at constant byte shifts),
// from views (constant subviews: boxes; a subview at a run-time offset lies
// somewhere in its source), reshaped, from globals and from arguments; which
// may share a byte.
TEST(MemoryFootprintTest, ExtentsThroughViewsSubviewsAndReshapes) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
memref.global "private" constant @weights : memref<4xf32> = dense<1.0>
func.func @f(%in: memref<8xf32>, %out: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c200 = arith.constant 200 : index
  %arena = memref.alloc() : memref<512xi8>
  %padded = memref.view %arena[%c0][] : memref<512xi8> to memref<6x6xf32>
  %other = memref.view %arena[%c256][] : memref<512xi8> to memref<16xf32>
  %near = memref.view %arena[%c200][] : memref<512xi8> to memref<16xf32>
  %top = memref.subview %padded[0, 0] [1, 6] [1, 1] : memref<6x6xf32> to memref<1x6xf32, strided<[6, 1]>>
  %left = memref.subview %padded[1, 0] [4, 1] [1, 1] : memref<6x6xf32> to memref<4x1xf32, strided<[6, 1], offset: 6>>
  %interior = memref.subview %padded[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  %row = memref.subview %padded[%i, 0] [1, 6] [1, 1] : memref<6x6xf32> to memref<1x6xf32, strided<[6, 1], offset: ?>>
  %flat = memref.collapse_shape %other [[0]] : memref<16xf32> into memref<16xf32>
  %grid = memref.expand_shape %other [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %w = memref.get_global @weights : memref<4xf32>
  %fresh = memref.alloc() : memref<8xf32>
  return
}
)mlir",
      &context);
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(module->lookupSymbol("f"));
  // Values by the position of their op in the body.
  SmallVector<Value> byOp;
  for (Operation &op : func.getBody().front())
    byOp.push_back(op.getNumResults() ? op.getResult(0) : Value());
  Value padded = byOp[4], other = byOp[5], near = byOp[6], top = byOp[7],
        left = byOp[8], interior = byOp[9], row = byOp[10], flat = byOp[11],
        grid = byOp[12], weights = byOp[13], fresh = byOp[14];
  Value in = func.getArgument(0), out = func.getArgument(1);
  auto overlap = [](Value a, Value b) {
    return mayOverlap(getMemoryExtent(a), getMemoryExtent(b));
  };

  MemoryExtent extent = getMemoryExtent(interior);
  EXPECT_EQ(extent.kind, MemoryExtent::Kind::Allocation);
  EXPECT_EQ(extent.begin, 7 * 4);
  EXPECT_EQ(extent.end, (7 + 3 * 6 + 3 + 1) * 4);
  EXPECT_EQ(extent.boxSource, padded);

  // Subviews of one view: the first row and the interior lie in different
  // bytes; the left column's bytes [24, 100) interleave with the
  // interior's [28, 100), their boxes do not meet.
  EXPECT_FALSE(overlap(top, interior));
  EXPECT_FALSE(overlap(left, interior));
  EXPECT_FALSE(overlap(top, left));
  EXPECT_TRUE(overlap(interior, padded));
  // A row at a run-time offset: anywhere in the view.
  EXPECT_TRUE(overlap(row, interior));
  EXPECT_FALSE(overlap(row, other));
  // Views of the arena: bytes [0, 144), [256, 320), [200, 264).
  EXPECT_FALSE(overlap(padded, other));
  EXPECT_TRUE(overlap(near, other));
  EXPECT_FALSE(overlap(near, padded));
  // Reshapes keep the bytes.
  EXPECT_TRUE(overlap(flat, grid));
  EXPECT_FALSE(overlap(grid, padded));
  EXPECT_TRUE(overlap(grid, near));
  // A constant global is never written; allocations and arguments are
  // distinct buffers (a written argument is a result: the C interface's
  // contract).
  EXPECT_EQ(getMemoryExtent(weights).kind, MemoryExtent::Kind::ReadOnly);
  EXPECT_FALSE(overlap(weights, padded));
  EXPECT_FALSE(overlap(fresh, padded));
  EXPECT_FALSE(overlap(in, out));
  EXPECT_FALSE(overlap(in, other));
  EXPECT_TRUE(overlap(in, in));
}

} // namespace
