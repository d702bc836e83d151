//===- LowerTMTensor.cpp - tm_tensor ops on memrefs become loops ----------===//
//
// After bufferization, torch-mlir's sort, topk, scan and scatter (on
// memrefs) become scf loops: a stable bottom-up merge sort per slice, an
// insertion of every element into the k kept ones, a running combination,
// and a bounds-checked read-combine-write per update.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Dialect/TMTensor/TMTensor.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "pb-lower-tm-tensor"

namespace polyblocks {
#define GEN_PASS_DEF_PBLOWERTMTENSOR
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace polyblocks::tm_tensor;

namespace {

/// Clones the single block of `region` at the builder's insertion point
/// with its arguments bound to `args`; returns the value it yields.
Value inlineRegion(OpBuilder &b, Region &region, ValueRange args) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  return mapping.lookupOrDefault(block.getTerminator()->getOperand(0));
}

Value constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

ArrayRef<int64_t> getShape(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Builds loops over every index of `shape` but dimension `skip` (which
/// gets index 0) and calls `body` with the full index vector.
void buildSliceLoops(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    std::optional<int64_t> skip,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
  for (auto [d, size] : llvm::enumerate(shape)) {
    lbs.push_back(zero);
    ubs.push_back(constantIndex(
        b, loc, skip && static_cast<int64_t>(d) == *skip ? 1 : size));
    steps.push_back(one);
  }
  scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
}

/// `ivs` with dimension `dim` replaced by `pos`.
SmallVector<Value> at(ValueRange ivs, int64_t dim, Value pos) {
  SmallVector<Value> indices(ivs);
  indices[dim] = pos;
  return indices;
}

//===----------------------------------------------------------------------===//
// sort: bottom-up merge sort of every slice, through one scratch slice per
// output. The region says whether (left, right) are in order; the right
// element is taken first only when they are not, so equal elements keep
// their order.
//===----------------------------------------------------------------------===//

void lowerSort(SortOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  ValueRange outputs = op.getOutputs();
  int64_t dim = op.getDimension();
  ArrayRef<int64_t> shape = getShape(outputs[0]);
  int64_t n = shape[dim];
  if (n <= 1)
    return;
  SmallVector<Value> scratch;
  for (Value output : outputs)
    scratch.push_back(memref::AllocOp::create(
        b, loc,
        MemRefType::get({n},
                        cast<MemRefType>(output.getType()).getElementType())));
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
  Value size = constantIndex(b, loc, n);
  Type indexType = b.getIndexType();

  buildSliceLoops(
      b, loc, shape, dim, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        auto merge = [&](OpBuilder &b, Location loc, Value width) {
          Value step =
              arith::MulIOp::create(b, loc, width, constantIndex(b, loc, 2));
          scf::ForOp::create(
              b, loc, zero, size, step, ValueRange{},
              [&](OpBuilder &b, Location loc, Value lo, ValueRange) {
                Value mid = arith::MinUIOp::create(
                    b, loc, arith::AddIOp::create(b, loc, lo, width), size);
                Value hi = arith::MinUIOp::create(
                    b, loc, arith::AddIOp::create(b, loc, lo, step), size);
                // Merge [lo, mid) and [mid, hi) into the scratch slices.
                scf::ForOp::create(
                    b, loc, lo, hi, one, ValueRange{lo, mid},
                    [&](OpBuilder &b, Location loc, Value k, ValueRange ij) {
                      Value i = ij[0], j = ij[1];
                      Value leftDone = arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::uge, i, mid);
                      Value rightDone = arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::uge, j, hi);
                      // Both positions read stay in bounds while either run
                      // lasts: the left one is at most mid <= j < hi once the
                      // left run is done, and the right one is read at the left
                      // position once it is done.
                      Value rightAt =
                          arith::SelectOp::create(b, loc, rightDone, i, j);
                      SmallVector<Value> args;
                      for (Value output : outputs) {
                        args.push_back(memref::LoadOp::create(b, loc, output,
                                                              at(ivs, dim, i)));
                        args.push_back(memref::LoadOp::create(
                            b, loc, output, at(ivs, dim, rightAt)));
                      }
                      Value inOrder = inlineRegion(b, op.getRegion(), args);
                      Value trueValue =
                          arith::ConstantIntOp::create(b, loc, 1, 1);
                      Value outOfOrder =
                          arith::XOrIOp::create(b, loc, inOrder, trueValue);
                      // right = !rightDone && (leftDone || !inOrder)
                      Value right = arith::AndIOp::create(
                          b, loc,
                          arith::XOrIOp::create(b, loc, rightDone, trueValue),
                          arith::OrIOp::create(b, loc, leftDone, outOfOrder));
                      Value src = arith::SelectOp::create(b, loc, right, j, i);
                      for (auto [output, buffer] :
                           llvm::zip(outputs, scratch)) {
                        Value v = memref::LoadOp::create(b, loc, output,
                                                         at(ivs, dim, src));
                        memref::StoreOp::create(b, loc, v, buffer, k);
                      }
                      Value nextI = arith::SelectOp::create(
                          b, loc, right, i,
                          arith::AddIOp::create(b, loc, i, one));
                      Value nextJ = arith::SelectOp::create(
                          b, loc, right, arith::AddIOp::create(b, loc, j, one),
                          j);
                      scf::YieldOp::create(b, loc, ValueRange{nextI, nextJ});
                    });
                // Back into the slice.
                scf::ForOp::create(
                    b, loc, lo, hi, one, ValueRange{},
                    [&](OpBuilder &b, Location loc, Value k, ValueRange) {
                      for (auto [output, buffer] :
                           llvm::zip(outputs, scratch)) {
                        Value v = memref::LoadOp::create(b, loc, buffer, k);
                        memref::StoreOp::create(b, loc, v, output,
                                                at(ivs, dim, k));
                      }
                      scf::YieldOp::create(b, loc);
                    });
                scf::YieldOp::create(b, loc);
              });
          return step;
        };
        // Runs of width 1, 2, 4, ... merged pairwise until one run is left.
        scf::WhileOp::create(
            b, loc, TypeRange{indexType}, ValueRange{one},
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value more = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ult, args[0], size);
              scf::ConditionOp::create(b, loc, more, args);
            },
            [&](OpBuilder &b, Location loc, ValueRange args) {
              scf::YieldOp::create(b, loc, merge(b, loc, args[0]));
            });
      });
  for (Value buffer : scratch)
    memref::DeallocOp::create(b, loc, buffer);
}

//===----------------------------------------------------------------------===//
// topk: every input element, in order along the dimension, moves through
// the k kept ones of its slice, displacing each it is better than.
//===----------------------------------------------------------------------===//

void lowerTopk(TopkOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value values = op.getInputs()[0];
  Value indices = op.getInputs().size() == 2 ? op.getInputs()[1] : Value();
  Value outValues = op.getOutputs()[0], outIndices = op.getOutputs()[1];
  int64_t dim = op.getDimension();
  int64_t k = getShape(outValues)[dim];
  Type indexElement = cast<MemRefType>(outIndices.getType()).getElementType();
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
  Value kSize = constantIndex(b, loc, k);

  buildSliceLoops(
      b, loc, getShape(values), std::nullopt,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        Value value = memref::LoadOp::create(b, loc, values, ivs);
        Value index =
            indices ? memref::LoadOp::create(b, loc, indices, ivs).getResult()
                    : arith::IndexCastOp::create(b, loc, indexElement, ivs[dim])
                          .getResult();
        scf::ForOp::create(
            b, loc, zero, kSize, one, ValueRange{value, index},
            [&](OpBuilder &b, Location loc, Value slot, ValueRange carried) {
              SmallVector<Value> pos = at(ivs, dim, slot);
              Value keptValue = memref::LoadOp::create(b, loc, outValues, pos);
              Value keptIndex = memref::LoadOp::create(b, loc, outIndices, pos);
              Value better =
                  inlineRegion(b, op.getRegion(), {carried[0], keptValue});
              Value worse =
                  inlineRegion(b, op.getRegion(), {keptValue, carried[0]});
              // Equal values (neither better): the smaller index first.
              Value equal = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq, better, worse);
              Value earlier = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::slt, carried[1], keptIndex);
              Value takeIndex = arith::OrIOp::create(
                  b, loc, better,
                  arith::AndIOp::create(b, loc, equal, earlier));
              memref::StoreOp::create(b, loc,
                                      arith::SelectOp::create(b, loc, better,
                                                              carried[0],
                                                              keptValue),
                                      outValues, pos);
              memref::StoreOp::create(b, loc,
                                      arith::SelectOp::create(b, loc, takeIndex,
                                                              carried[1],
                                                              keptIndex),
                                      outIndices, pos);
              scf::YieldOp::create(
                  b, loc,
                  ValueRange{arith::SelectOp::create(b, loc, better, keptValue,
                                                     carried[0]),
                             arith::SelectOp::create(b, loc, takeIndex,
                                                     keptIndex, carried[1])});
            });
      });
}

//===----------------------------------------------------------------------===//
// scan: a running combination along the dimension.
//===----------------------------------------------------------------------===//

void lowerScan(ScanOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0];
  Value output = op.getOutputs()[0], accumulator = op.getOutputs()[1];
  int64_t dim = op.getDimension();
  ArrayRef<int64_t> shape = getShape(input);
  int64_t n = shape[dim];
  if (n == 0)
    return;
  bool inclusive = op.getInclusive();
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);

  buildSliceLoops(
      b, loc, shape, dim, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> accIndices;
        for (auto [d, iv] : llvm::enumerate(ivs))
          if (static_cast<int64_t>(d) != dim)
            accIndices.push_back(iv);
        Value first =
            inclusive
                ? memref::LoadOp::create(b, loc, input, at(ivs, dim, zero))
                      .getResult()
                : memref::LoadOp::create(b, loc, accumulator, accIndices)
                      .getResult();
        memref::StoreOp::create(b, loc, first, output, at(ivs, dim, zero));
        if (n == 1)
          return;
        auto loop = scf::ForOp::create(
            b, loc, one, constantIndex(b, loc, n), one, ValueRange{first},
            [&](OpBuilder &b, Location loc, Value i, ValueRange prev) {
              Value from =
                  inclusive ? i
                            : arith::SubIOp::create(b, loc, i, one).getResult();
              Value x =
                  memref::LoadOp::create(b, loc, input, at(ivs, dim, from));
              Value next = inlineRegion(b, op.getRegion(), {prev[0], x});
              memref::StoreOp::create(b, loc, next, output, at(ivs, dim, i));
              scf::YieldOp::create(b, loc, next);
            });
        memref::StoreOp::create(b, loc, loop.getResult(0), accumulator,
                                accIndices);
      });
}

//===----------------------------------------------------------------------===//
// scatter: for every element of every update, its position in the original
// (indexed dimensions offset by the update's indices, the slice's own
// trailing ones), checked to lie inside it, then read, combined, written.
// Sequential, in update order: repeated indices combine one after another.
//===----------------------------------------------------------------------===//

void lowerScatter(ScatterOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value updates = op.getInputs()[0], indices = op.getInputs()[1];
  Value original = op.getOutputs()[0];
  ArrayRef<int64_t> origShape = getShape(original);
  ArrayRef<int64_t> dimMap = op.getDimensionMap();
  int64_t sliceRank = getShape(updates).size() - 1;
  int64_t offset = origShape.size() - sliceRank;

  buildSliceLoops(
      b, loc, getShape(updates), std::nullopt,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> pos(origShape.size());
        for (int64_t d = 0; d < sliceRank; ++d)
          pos[offset + d] = ivs[1 + d];
        SmallVector<int64_t> indexed;
        for (auto [column, d] : llvm::enumerate(dimMap)) {
          Value raw = memref::LoadOp::create(
              b, loc, indices,
              ValueRange{ivs[0], constantIndex(b, loc, column)});
          Value index =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
          pos[d] =
              pos[d] ? arith::AddIOp::create(b, loc, pos[d], index).getResult()
                     : index;
          indexed.push_back(d);
        }
        Value zero = constantIndex(b, loc, 0);
        for (int64_t d : indexed) {
          Value nonNegative = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sge, pos[d], zero);
          Value below =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, pos[d],
                                    constantIndex(b, loc, origShape[d]));
          Value inside = arith::AndIOp::create(b, loc, nonNegative, below);
          cf::AssertOp::create(b, loc, inside,
                               "scatter index out of range for dimension " +
                                   std::to_string(d));
        }
        Value update = memref::LoadOp::create(b, loc, updates, ivs);
        Value current = memref::LoadOp::create(b, loc, original, pos);
        Value next = inlineRegion(b, op.getRegion(), {update, current});
        memref::StoreOp::create(b, loc, next, original, pos);
      });
}

struct LowerTMTensorPass
    : public polyblocks::impl::PBLowerTMTensorBase<LowerTMTensorPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<SortOp, TopkOp, ScanOp, ScatterOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (!cast<DestinationStyleOpInterface>(op).hasPureBufferSemantics()) {
        op->emitOpError("expects memref operands: pb-lower-tm-tensor runs "
                        "after bufferization");
        return signalPassFailure();
      }
      OpBuilder b(op);
      if (auto sort = dyn_cast<SortOp>(op))
        lowerSort(sort, b);
      else if (auto topk = dyn_cast<TopkOp>(op))
        lowerTopk(topk, b);
      else if (auto scan = dyn_cast<ScanOp>(op))
        lowerScan(scan, b);
      else
        lowerScatter(cast<ScatterOp>(op), b);
      op->erase();
    }
  }
};

} // namespace
