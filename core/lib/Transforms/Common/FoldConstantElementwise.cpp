//===- FoldConstantElementwise.cpp - Elementwise ops on constants ---------===//
//
// Evaluates elementwise linalg.generic ops whose inputs are all constants:
// batch norm computes rsqrt(running_var + eps) from its constant statistics,
// and without this every call would compute it again, in loops of a few
// dozen iterations that each cost a parallel region's synchronisation.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

#define DEBUG_TYPE "pb-fold-constant-elementwise"

namespace polyblocks {
#define GEN_PASS_DEF_PBFOLDCONSTANTELEMENTWISE
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using llvm::APFloat;

namespace {

/// One scalar function of one float, evaluated in double and rounded to the
/// operand's type (f32 in float, as the generated code computes it).
static APFloat applyMath(const APFloat &x, double (*f64)(double),
                         float (*f32)(float)) {
  bool losesInfo;
  if (&x.getSemantics() == &APFloat::IEEEsingle())
    return APFloat(f32(x.convertToFloat()));
  APFloat wide = x;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  APFloat result(f64(wide.convertToDouble()));
  result.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return result;
}

/// The payload of an elementwise generic as a list of float operations on
/// numbered slots: slots [0, numInputs) are the inputs' elements, then the
/// constants the payload reads, then each op's result.
class Payload {
public:
  /// The payload of `op`, or nullopt if it has an op or a type this does
  /// not evaluate.
  static std::optional<Payload> build(linalg::GenericOp op) {
    Payload payload;
    Block &body = op.getRegion().front();
    DenseMap<Value, int> slots;
    for (BlockArgument arg :
         body.getArguments().take_front(op.getNumDpsInputs()))
      slots[arg] = payload.numSlots++;
    auto slotOf = [&](Value value) -> std::optional<int> {
      if (auto it = slots.find(value); it != slots.end())
        return it->second;
      FloatAttr constant;
      if (!matchPattern(value, m_Constant(&constant)))
        return std::nullopt;
      payload.constants.push_back({payload.numSlots, constant.getValue()});
      return slots[value] = payload.numSlots++;
    };
    for (Operation &inner : body.without_terminator()) {
      if (inner.getNumResults() != 1 ||
          !isa<FloatType>(inner.getResult(0).getType()))
        return std::nullopt;
      FloatAttr constant;
      if (matchPattern(&inner, m_Constant(&constant))) {
        payload.constants.push_back({payload.numSlots, constant.getValue()});
        slots[inner.getResult(0)] = payload.numSlots++;
        continue;
      }
      Step step;
      step.op = &inner;
      for (Value operand : inner.getOperands()) {
        std::optional<int> slot = slotOf(operand);
        if (!slot || !isa<FloatType>(operand.getType()))
          return std::nullopt;
        step.operands.push_back(*slot);
      }
      step.semantics =
          &cast<FloatType>(inner.getResult(0).getType()).getFloatSemantics();
      if (!isSupported(inner, step.operands.size()))
        return std::nullopt;
      step.result = payload.numSlots++;
      slots[inner.getResult(0)] = step.result;
      payload.steps.push_back(std::move(step));
    }
    for (Value yielded : body.getTerminator()->getOperands()) {
      std::optional<int> slot = slotOf(yielded);
      if (!slot)
        return std::nullopt;
      payload.results.push_back(*slot);
    }
    return payload;
  }

  /// Slots holding the payload's constants, for evaluate().
  SmallVector<APFloat> makeSlots() const {
    SmallVector<APFloat> slots(numSlots, APFloat(0.0));
    for (const auto &[slot, value] : constants)
      slots[slot] = value;
    return slots;
  }

  /// Appends to `out[r]` result r for the inputs' elements in slots
  /// [0, numInputs).
  void evaluate(MutableArrayRef<APFloat> slots,
                MutableArrayRef<SmallVector<APFloat>> out) const {
    for (const Step &step : steps)
      slots[step.result] = apply(step, slots);
    for (auto [values, slot] : llvm::zip(out, results))
      values.push_back(slots[slot]);
  }

private:
  struct Step {
    Operation *op;
    SmallVector<int, 2> operands;
    int result;
    const llvm::fltSemantics *semantics;
  };

  static bool isSupported(Operation &op, size_t numOperands) {
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp>(op))
      return numOperands == 2;
    return isa<arith::NegFOp, arith::TruncFOp, arith::ExtFOp, math::AbsFOp,
               math::SqrtOp, math::RsqrtOp, math::ExpOp, math::LogOp,
               math::TanhOp, math::ErfOp>(op);
  }

  static APFloat apply(const Step &step, ArrayRef<APFloat> slots) {
    const APFloat &a = slots[step.operands[0]];
    auto binary = [&](auto fn) {
      APFloat result = a;
      (result.*fn)(slots[step.operands[1]], APFloat::rmNearestTiesToEven);
      return result;
    };
    return llvm::TypeSwitch<Operation *, APFloat>(step.op)
        .Case([&](arith::AddFOp) { return binary(&APFloat::add); })
        .Case([&](arith::SubFOp) { return binary(&APFloat::subtract); })
        .Case([&](arith::MulFOp) { return binary(&APFloat::multiply); })
        .Case([&](arith::DivFOp) { return binary(&APFloat::divide); })
        .Case([&](arith::MaximumFOp) {
          return llvm::maximum(a, slots[step.operands[1]]);
        })
        .Case([&](arith::MinimumFOp) {
          return llvm::minimum(a, slots[step.operands[1]]);
        })
        .Case([&](arith::MaxNumFOp) {
          return llvm::maxnum(a, slots[step.operands[1]]);
        })
        .Case([&](arith::MinNumFOp) {
          return llvm::minnum(a, slots[step.operands[1]]);
        })
        .Case([&](arith::NegFOp) { return -a; })
        .Case([&](math::AbsFOp) { return abs(a); })
        .Case<arith::TruncFOp, arith::ExtFOp>([&](Operation *) {
          APFloat result = a;
          bool losesInfo;
          result.convert(*step.semantics, APFloat::rmNearestTiesToEven,
                         &losesInfo);
          return result;
        })
        .Case([&](math::SqrtOp) {
          return applyMath(
              a, [](double x) { return std::sqrt(x); },
              [](float x) { return std::sqrt(x); });
        })
        .Case([&](math::RsqrtOp) {
          return applyMath(
              a, [](double x) { return 1.0 / std::sqrt(x); },
              [](float x) { return 1.0f / std::sqrt(x); });
        })
        .Case([&](math::ExpOp) {
          return applyMath(
              a, [](double x) { return std::exp(x); },
              [](float x) { return std::exp(x); });
        })
        .Case([&](math::LogOp) {
          return applyMath(
              a, [](double x) { return std::log(x); },
              [](float x) { return std::log(x); });
        })
        .Case([&](math::TanhOp) {
          return applyMath(
              a, [](double x) { return std::tanh(x); },
              [](float x) { return std::tanh(x); });
        })
        .Case([&](math::ErfOp) {
          return applyMath(
              a, [](double x) { return std::erf(x); },
              [](float x) { return std::erf(x); });
        });
  }

  int numSlots = 0;
  SmallVector<std::pair<int, APFloat>> constants;
  SmallVector<Step> steps;
  SmallVector<int> results;
};

/// For each loop of `map`'s domain, the step of the linear (row-major)
/// index into a tensor of `shape` read through `map`: results that are
/// loops index the tensor, constant results must be 0.
static std::optional<SmallVector<int64_t>>
getLoopStrides(AffineMap map, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(map.getNumDims(), 0);
  SmallVector<int64_t> tensorStrides = computeStrides(shape);
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(result))
      strides[dim.getPosition()] += tensorStrides[i];
    else if (auto constant = dyn_cast<AffineConstantExpr>(result);
             !constant || constant.getValue() != 0)
      return std::nullopt;
  }
  return strides;
}

struct FoldConstantGeneric : OpRewritePattern<linalg::GenericOp> {
  FoldConstantGeneric(MLIRContext *context, int64_t maxBytes)
      : OpRewritePattern(context), maxBytes(maxBytes) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() == 0 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    // Every input a constant, the inits not read.
    SmallVector<ElementsAttr> inputs;
    for (OpOperand *input : op.getDpsInputOperands()) {
      ElementsAttr attr;
      if (!polyblocks::matchConstantThroughReshape(input->get(), &attr))
        return failure();
      inputs.push_back(attr);
    }
    for (OpOperand &init : op.getDpsInitsMutable())
      if (op.payloadUsesValueFromOperand(&init))
        return rewriter.notifyMatchFailure(op, "reads its inits");
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    if (ShapedType::isDynamicShape(loopSizes))
      return failure();
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.getMatchingIndexingMap(&init).isIdentity())
        return rewriter.notifyMatchFailure(op, "permuted result");
    for (Value result : op->getResults()) {
      auto type = dyn_cast<FloatType>(getElementTypeOrSelf(result.getType()));
      if (!type || type.getWidth() > 64 || type.getWidth() % 8 != 0)
        return rewriter.notifyMatchFailure(op, "results not floats");
    }
    std::optional<Payload> payload = Payload::build(op);
    if (!payload)
      return rewriter.notifyMatchFailure(op, "payload not evaluated here");

    // Splat inputs give splat results: one evaluation.
    bool allSplats = llvm::all_of(
        inputs, [](ElementsAttr attr) { return isa<SplatElementsAttr>(attr); });
    int64_t numElements = ShapedType::getNumElements(loopSizes);
    if (!allSplats) {
      // No constant larger than the inputs it replaces: a bias broadcast
      // over a matrix is cheaper to compute than to store.
      int64_t largestInput = 0;
      for (ElementsAttr attr : inputs)
        largestInput = std::max(largestInput, attr.getNumElements());
      if (numElements > largestInput)
        return rewriter.notifyMatchFailure(op, "result larger than inputs");
      int64_t bytes = 0;
      for (Value result : op->getResults())
        bytes += numElements *
                 *polyblocks::getElementBytes(getElementTypeOrSelf(result));
      if (bytes > maxBytes)
        return rewriter.notifyMatchFailure(op, "over the size budget");
    }

    SmallVector<SmallVector<APFloat>> inputValues;
    SmallVector<SmallVector<int64_t>> inputStrides;
    for (auto [attr, input] : llvm::zip(inputs, op.getDpsInputOperands())) {
      std::optional<SmallVector<APFloat>> values =
          allSplats ? SmallVector<APFloat>{cast<SplatElementsAttr>(attr)
                                               .getSplatValue<APFloat>()}
                    : polyblocks::getFloatElements(attr);
      if (!values)
        return rewriter.notifyMatchFailure(op, "constant data not at hand");
      auto shape = cast<ShapedType>(input->get().getType()).getShape();
      std::optional<SmallVector<int64_t>> strides =
          getLoopStrides(op.getMatchingIndexingMap(input), shape);
      if (!strides)
        return rewriter.notifyMatchFailure(op, "input map not a projection");
      inputValues.push_back(std::move(*values));
      inputStrides.push_back(std::move(*strides));
    }

    // Walk the loops in row-major order of the results.
    SmallVector<SmallVector<APFloat>> resultValues(op->getNumResults());
    SmallVector<APFloat> slots = payload->makeSlots();
    auto visit = [&](ArrayRef<int64_t> offsets) {
      for (auto [i, values, offset] : llvm::enumerate(inputValues, offsets))
        slots[i] = values[offset];
      payload->evaluate(slots, resultValues);
    };
    if (allSplats)
      visit(SmallVector<int64_t>(inputs.size(), 0));
    else
      polyblocks::walkRowMajor(loopSizes, inputStrides, visit);

    // Constants named after the first resource read, if any (the blob
    // manager makes the names unique).
    std::string name;
    for (ElementsAttr attr : inputs)
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
        StringRef key = resource.getRawHandle().getKey();
        name = key.ends_with("_folded") ? key.str() : (key + "_folded").str();
        break;
      }
    SmallVector<Value> replacements;
    for (auto [result, values] : llvm::zip(op->getResults(), resultValues)) {
      auto type = cast<RankedTensorType>(result.getType());
      TypedAttr folded =
          allSplats ? cast<TypedAttr>(DenseElementsAttr::get(type, values[0]))
                    : cast<TypedAttr>(
                          polyblocks::makeFloatConstant(type, values, name));
      replacements.push_back(
          arith::ConstantOp::create(rewriter, op.getLoc(), type, folded));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  int64_t maxBytes;
};

struct FoldConstantElementwisePass
    : public polyblocks::impl::PBFoldConstantElementwiseBase<
          FoldConstantElementwisePass> {
  using PBFoldConstantElementwiseBase::PBFoldConstantElementwiseBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConstantGeneric>(&getContext(), maxBytes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
