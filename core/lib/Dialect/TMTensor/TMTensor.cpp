//===- TMTensor.cpp - torch-mlir's tm_tensor ops, as input ----------------===//

#include "polyblocks/Dialect/TMTensor/TMTensor.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace polyblocks::tm_tensor;

#include "polyblocks/Dialect/TMTensor/TMTensorOpsDialect.cpp.inc"

void TMTensorDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "polyblocks/Dialect/TMTensor/TMTensorOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// On memrefs, the op reads its inputs and reads and writes its outputs; on
/// tensors it has no memory effects.
static void getBufferEffects(
    Operation *op, ValueRange inputs, ValueRange outputs,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    if (llvm::is_contained(outputs, operand.get()))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

/// Checks what every op of the dialect shares: `numInputs` and `numOutputs`
/// operands (a range when min < max), ranked static shapes, results that
/// are the outputs' types on tensors and none on memrefs, and a region
/// with `numArgs` arguments yielding one value of type `yieldType`.
static LogicalResult verifyCommon(Operation *op, ValueRange inputs,
                                  ValueRange outputs, unsigned minInputs,
                                  unsigned maxInputs, unsigned numOutputs,
                                  unsigned numArgs, Type yieldType) {
  if (inputs.size() < minInputs || inputs.size() > maxInputs)
    return op->emitOpError()
           << "expects " << minInputs
           << (minInputs == maxInputs ? "" : " to " + std::to_string(maxInputs))
           << " `ins` operands, got " << inputs.size();
  if (outputs.size() != numOutputs && numOutputs != 0)
    return op->emitOpError() << "expects " << numOutputs
                             << " `outs` operands, got " << outputs.size();
  for (Value v : llvm::concat<const Value>(inputs, outputs)) {
    auto shaped = cast<ShapedType>(v.getType());
    if (!shaped.hasRank())
      return op->emitOpError()
             << "expects ranked operands, got " << v.getType();
  }
  bool onTensors = llvm::all_of(
      outputs, [](Value v) { return isa<RankedTensorType>(v.getType()); });
  bool onMemRefs = llvm::all_of(
      op->getOperands(), [](Value v) { return isa<MemRefType>(v.getType()); });
  if (!onTensors && !onMemRefs)
    return op->emitOpError("expects all operands to be tensors or all to be "
                           "memrefs");
  if (onTensors) {
    if (op->getResultTypes() != outputs.getTypes())
      return op->emitOpError("expects one result per `outs` operand, of its "
                             "type");
  } else if (op->getNumResults() != 0) {
    return op->emitOpError("on memrefs has no results");
  }
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != numArgs)
    return op->emitOpError() << "expects a region with " << numArgs
                             << " arguments, got " << body.getNumArguments();
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != 1 ||
      (yieldType && yield->getOperand(0).getType() != yieldType))
    return op->emitOpError() << "expects its region to yield one "
                             << (yieldType ? "value of type " : "value")
                             << (yieldType ? yieldType : Type());
  return success();
}

/// Checks that region argument `index` of `op` has type `type`.
static LogicalResult verifyArgType(Operation *op, unsigned index, Type type) {
  Type actual = op->getRegion(0).getArgument(index).getType();
  if (actual != type)
    return op->emitOpError() << "expects region argument #" << index
                             << " to be " << type << ", got " << actual;
  return success();
}

static Type getElementType(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

static ArrayRef<int64_t> getShape(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Checks that `dimension` is a dimension of rank `rank`.
static LogicalResult verifyDimension(Operation *op, int64_t dimension,
                                     int64_t rank) {
  if (dimension < 0 || dimension >= rank)
    return op->emitOpError()
           << "dimension " << dimension << " is out of range for rank " << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// SortOp
//===----------------------------------------------------------------------===//

LogicalResult SortOp::verify() {
  unsigned n = getOutputs().size();
  if (n == 0)
    return emitOpError("expects at least one `outs` operand");
  Builder b(getContext());
  if (failed(verifyCommon(*this, getInputs(), getOutputs(), 0, 0, 0, 2 * n,
                          b.getI1Type())))
    return failure();
  ArrayRef<int64_t> shape = getShape(getOutputs()[0]);
  if (failed(verifyDimension(*this, getDimension(), shape.size())))
    return failure();
  for (auto [i, output] : llvm::enumerate(getOutputs())) {
    if (getShape(output) != shape)
      return emitOpError() << "expects every `outs` operand to have the "
                              "shape of the first, got "
                           << output.getType();
    if (failed(verifyArgType(*this, 2 * i, getElementType(output))) ||
        failed(verifyArgType(*this, 2 * i + 1, getElementType(output))))
      return failure();
  }
  return success();
}

void SortOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBufferEffects(*this, getInputs(), getOutputs(), effects);
}

//===----------------------------------------------------------------------===//
// TopkOp
//===----------------------------------------------------------------------===//

LogicalResult TopkOp::verify() {
  Builder b(getContext());
  if (failed(verifyCommon(*this, getInputs(), getOutputs(), 1, 2, 2, 2,
                          b.getI1Type())))
    return failure();
  Value values = getInputs()[0];
  ArrayRef<int64_t> shape = getShape(values);
  if (failed(verifyDimension(*this, getDimension(), shape.size())))
    return failure();
  Value outValues = getOutputs()[0], outIndices = getOutputs()[1];
  if (getElementType(outValues) != getElementType(values))
    return emitOpError("expects the output values to have the element type "
                       "of the input values");
  if (!getElementType(outIndices).isSignlessInteger() ||
      (getInputs().size() == 2 &&
       getElementType(getInputs()[1]) != getElementType(outIndices)))
    return emitOpError("expects integer indices, of one type in and out");
  for (Value output : getOutputs()) {
    ArrayRef<int64_t> outShape = getShape(output);
    bool ok = outShape.size() == shape.size();
    for (size_t d = 0; ok && d < shape.size(); ++d)
      ok = static_cast<int64_t>(d) == getDimension() || outShape[d] == shape[d];
    if (!ok)
      return emitOpError() << "expects the outputs to have the input's shape "
                              "but for dimension "
                           << getDimension() << ", got " << output.getType();
  }
  if (getInputs().size() == 2 && getShape(getInputs()[1]) != shape)
    return emitOpError("expects the input indices to have the shape of the "
                       "input values");
  if (failed(verifyArgType(*this, 0, getElementType(values))) ||
      failed(verifyArgType(*this, 1, getElementType(values))))
    return failure();
  return success();
}

void TopkOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBufferEffects(*this, getInputs(), getOutputs(), effects);
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects 1 `ins` operands, got 0");
  Type element = getElementType(getInputs()[0]);
  if (failed(
          verifyCommon(*this, getInputs(), getOutputs(), 1, 1, 2, 2, element)))
    return failure();
  Value input = getInputs()[0];
  Value output = getOutputs()[0], accumulator = getOutputs()[1];
  ArrayRef<int64_t> shape = getShape(input);
  if (failed(verifyDimension(*this, getDimension(), shape.size())))
    return failure();
  if (getShape(output) != shape || getElementType(output) != element)
    return emitOpError() << "expects the output to have the input's type, got "
                         << output.getType();
  SmallVector<int64_t> accShape;
  for (auto [d, size] : llvm::enumerate(shape))
    if (static_cast<int64_t>(d) != getDimension())
      accShape.push_back(size);
  if (getShape(accumulator) != ArrayRef<int64_t>(accShape) ||
      getElementType(accumulator) != element)
    return emitOpError() << "expects the accumulator to have the input's "
                            "shape without dimension "
                         << getDimension() << ", got " << accumulator.getType();
  if (failed(verifyArgType(*this, 0, element)) ||
      failed(verifyArgType(*this, 1, element)))
    return failure();
  return success();
}

void ScanOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBufferEffects(*this, getInputs(), getOutputs(), effects);
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expects 1 `outs` operands, got 0");
  Type element = getElementType(getOutputs()[0]);
  if (failed(
          verifyCommon(*this, getInputs(), getOutputs(), 2, 2, 1, 2, element)))
    return failure();
  Value updates = getInputs()[0], indices = getInputs()[1];
  Value original = getOutputs()[0];
  ArrayRef<int64_t> updShape = getShape(updates), idxShape = getShape(indices);
  ArrayRef<int64_t> origShape = getShape(original);
  if (idxShape.size() != 2 || !getElementType(indices).isSignlessInteger())
    return emitOpError() << "expects indices of rank 2 and an integer type, "
                            "got "
                         << indices.getType();
  int64_t depth = idxShape[1];
  ArrayRef<int64_t> dimMap = getDimensionMap();
  if (static_cast<int64_t>(dimMap.size()) != depth)
    return emitOpError() << "expects one dimension_map entry per index "
                            "column ("
                         << depth << "), got " << dimMap.size();
  for (int64_t d : dimMap)
    if (d < 0 || d >= static_cast<int64_t>(origShape.size()))
      return emitOpError() << "dimension_map entry " << d
                           << " is not a dimension of the original";
  if (updShape.empty() || updShape[0] != idxShape[0])
    return emitOpError("expects updates and indices to have the number of "
                       "updates as dimension 0");
  int64_t sliceRank = updShape.size() - 1;
  if (sliceRank > static_cast<int64_t>(origShape.size()))
    return emitOpError("expects update slices of at most the original's rank");
  // The slice's dimensions are the original's trailing ones.
  int64_t offset = origShape.size() - sliceRank;
  for (int64_t d = 0; d < sliceRank; ++d)
    if (updShape[1 + d] > origShape[offset + d])
      return emitOpError() << "update slice dimension " << d << " (size "
                           << updShape[1 + d]
                           << ") exceeds the original's dimension "
                           << offset + d;
  for (int64_t d = 0; d < offset; ++d)
    if (!llvm::is_contained(dimMap, d))
      return emitOpError() << "dimension " << d
                           << " of the original is neither indexed nor "
                              "covered by the update slice";
  if (getElementType(updates) != element)
    return emitOpError("expects updates of the original's element type");
  if (failed(verifyArgType(*this, 0, element)) ||
      failed(verifyArgType(*this, 1, element)))
    return failure();
  return success();
}

void ScatterOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBufferEffects(*this, getInputs(), getOutputs(), effects);
}

#define GET_OP_CLASSES
#include "polyblocks/Dialect/TMTensor/TMTensorOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Bufferization
//===----------------------------------------------------------------------===//

namespace {
/// Every tm_tensor op bufferizes into itself on buffers: inputs read,
/// outputs updated in place and standing for the results.
template <typename OpTy>
struct TMTensorBufferization
    : public bufferization::DstBufferizableOpInterfaceExternalModel<
          TMTensorBufferization<OpTy>, OpTy> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (!isa<TensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    auto dps = cast<DestinationStyleOpInterface>(op);
    SmallVector<Value> results;
    for (OpOperand &init : dps.getDpsInitsMutable())
      results.push_back(operands[init.getOperandNumber()]);

    rewriter.setInsertionPoint(op);
    OperationState newState(op->getLoc(), op->getName());
    newState.addOperands(operands);
    newState.propertiesAttr = op->getPropertiesAsAttribute();
    newState.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    newState.addRegion();
    Operation *newOp = rewriter.create(newState);
    rewriter.inlineRegionBefore(op->getRegion(0), newOp->getRegion(0),
                                newOp->getRegion(0).end());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};
} // namespace

void polyblocks::tm_tensor::registerTMTensorDialect(DialectRegistry &registry) {
  registry.insert<TMTensorDialect>();
  registry.addExtension(+[](MLIRContext *ctx, TMTensorDialect *) {
    SortOp::attachInterface<TMTensorBufferization<SortOp>>(*ctx);
    TopkOp::attachInterface<TMTensorBufferization<TopkOp>>(*ctx);
    ScanOp::attachInterface<TMTensorBufferization<ScanOp>>(*ctx);
    ScatterOp::attachInterface<TMTensorBufferization<ScatterOp>>(*ctx);
  });
}
