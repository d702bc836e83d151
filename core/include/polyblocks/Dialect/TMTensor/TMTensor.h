//===- TMTensor.h - torch-mlir's tm_tensor ops, as input ---------*- C++
//-*-===//
//
// The ops of torch-mlir's `tm_tensor` dialect that its FX importer writes
// (sort, topk, scan, scatter), read with the importer's syntax.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DIALECT_TMTENSOR_TMTENSOR_H
#define POLYBLOCKS_DIALECT_TMTENSOR_TMTENSOR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

#include "polyblocks/Dialect/TMTensor/TMTensorOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "polyblocks/Dialect/TMTensor/TMTensorOps.h.inc"

namespace polyblocks::tm_tensor {

/// Registers the dialect and the bufferization of its ops (one-shot
/// bufferization turns them into the same ops on memrefs).
void registerTMTensorDialect(mlir::DialectRegistry &registry);

} // namespace polyblocks::tm_tensor

#endif // POLYBLOCKS_DIALECT_TMTENSOR_TMTENSOR_H
