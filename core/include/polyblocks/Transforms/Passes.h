//===- Passes.h - PolyBlocks passes -----------------------------*- C++ -*-===//
//
// Declarations of every pass PolyBlocks owns. The records live in Passes.td;
// TableGen writes the base classes, the option structs and the create*()
// functions.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_PASSES_H
#define POLYBLOCKS_TRANSFORMS_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace polyblocks {

/// Whether pb-approximate-math replaces the math op `name` ("math.exp",
/// "exp", ...) on f32 by an inline approximation in host code.
bool isApproximatedMathOp(llvm::StringRef name);

/// The unit attribute pb-share-buffers puts on the arena it allocates, for
/// pb-static-arenas.
inline constexpr llvm::StringLiteral kArenaAttrName = "pb.arena";

#define GEN_PASS_DECL
#include "polyblocks/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "polyblocks/Transforms/Passes.h.inc"

} // namespace polyblocks

#endif // POLYBLOCKS_TRANSFORMS_PASSES_H
