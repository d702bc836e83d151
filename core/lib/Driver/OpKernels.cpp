//===- OpKernels.cpp - One kernel per op, for per-op timing ---------------===//

#include "polyblocks/Driver/OpKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace polyblocks {

/// Ops that are views or metadata once bufferized: no kernel of their own.
static bool isShapeOnly(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
             tensor::CastOp, tensor::EmptyOp>(op);
}

/// Producers cloned into a kernel rather than passed to it: constants, empty
/// tensors and fills of them (a fill is folded into its first reader).
static bool isClonedProducer(Operation *op) {
  if (!op)
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op))
    return true;
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return llvm::all_of(fill->getOperands(), [](Value v) {
      return isClonedProducer(v.getDefiningOp());
    });
  return false;
}

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// The values `op` reads, in its operands and in its regions.
static SetVector<Value> getInputs(Operation *op) {
  SetVector<Value> inputs(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, inputs);
  return inputs;
}

/// Clones `value`'s producer and, first, the producers it reads into the
/// builder's block, unless already mapped.
static void cloneProducer(Value value, OpBuilder &builder, IRMapping &mapping) {
  if (mapping.contains(value))
    return;
  Operation *producer = value.getDefiningOp();
  for (Value input : getInputs(producer))
    cloneProducer(input, builder, mapping);
  builder.clone(*producer, mapping);
}

/// Appends the frames of `loc` to `frames`.
static void collectFrames(Location loc, SmallVectorImpl<std::string> &frames) {
  if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    collectFrames(callSite.getCallee(), frames);
    collectFrames(callSite.getCaller(), frames);
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    frames.push_back((llvm::sys::path::filename(file.getFilename().strref()) +
                      ":" + Twine(file.getLine()))
                         .str());
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    collectFrames(name.getChildLoc(), frames);
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (!fused.getLocations().empty())
      collectFrames(fused.getLocations().front(), frames);
  }
}

std::optional<int64_t> countFlops(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  int64_t iterations = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    iterations *= range;
  }
  int64_t perIteration = 0;
  for (Operation &bodyOp : op->getRegion(0).front()) {
    StringRef dialect =
        bodyOp.getDialect() ? bodyOp.getDialect()->getNamespace() : StringRef();
    if ((dialect == "arith" || dialect == "math") &&
        !isa<arith::ConstantOp>(bodyOp))
      ++perIteration;
  }
  return iterations * perIteration;
}

std::optional<int64_t> countFunctionFlops(ModuleOp module, StringRef function) {
  auto func = module.lookupSymbol<func::FuncOp>(function);
  if (!func || func.isExternal())
    return std::nullopt;
  int64_t total = 0;
  bool known = true, any = false;
  func.walk([&](linalg::LinalgOp op) {
    std::optional<int64_t> flops = countFlops(op);
    known &= flops.has_value() && op->getParentOp() == func;
    any = true;
    total += flops.value_or(0);
    return WalkResult::skip();
  });
  if (!any || !known)
    return std::nullopt;
  return total;
}

std::string formatShortLocation(Location loc) {
  SmallVector<std::string> frames;
  collectFrames(loc, frames);
  return frames.empty() ? "unknown" : llvm::join(frames, " < ");
}

FailureOr<OwningOpRef<ModuleOp>>
extractOpKernels(ModuleOp module, StringRef function,
                 std::vector<OpKernel> &kernels) {
  auto func = module.lookupSymbol<func::FuncOp>(function);
  if (!func || func.isExternal())
    return module.emitError("no function @") << function << " with a body";
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> out = ModuleOp::create(module.getLoc());
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(out->getBody());
  for (Operation &op : func.getBody().front()) {
    if (op.hasTrait<OpTrait::IsTerminator>() || isClonedProducer(&op) ||
        isShapeOnly(&op) || isa<CallOpInterface>(op) ||
        op.getNumResults() == 0 ||
        !llvm::all_of(op.getResultTypes(), isStaticTensor))
      continue;
    SmallVector<Value> arguments;
    bool extractable = true;
    for (Value input : getInputs(&op)) {
      if (isClonedProducer(input.getDefiningOp()))
        continue;
      if (!isStaticTensor(input.getType())) {
        extractable = false;
        break;
      }
      arguments.push_back(input);
    }
    if (!extractable)
      continue;
    std::string name =
        (function + "_op" + Twine(static_cast<unsigned>(kernels.size()))).str();
    SmallVector<Type> argumentTypes;
    for (Value argument : arguments)
      argumentTypes.push_back(argument.getType());
    auto kernel = func::FuncOp::create(
        builder, op.getLoc(), name,
        FunctionType::get(context, argumentTypes, op.getResultTypes()));
    OpBuilder body = OpBuilder::atBlockBegin(kernel.addEntryBlock());
    IRMapping mapping;
    mapping.map(arguments, kernel.getArguments());
    for (Value input : getInputs(&op))
      if (!mapping.contains(input))
        cloneProducer(input, body, mapping);
    Operation *clone = body.clone(op, mapping);
    func::ReturnOp::create(body, op.getLoc(), clone->getResults());
    std::string resultTypes;
    llvm::raw_string_ostream os(resultTypes);
    llvm::interleaveComma(op.getResultTypes(), os);
    kernels.push_back({name, op.getName().getStringRef().str(), resultTypes,
                       op.getLoc(), countFlops(&op)});
  }
  if (kernels.empty())
    return func.emitError("no op of @")
           << function << " computes a statically shaped tensor";
  return out;
}

} // namespace polyblocks
