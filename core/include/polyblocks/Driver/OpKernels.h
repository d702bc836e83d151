//===- OpKernels.h - One kernel per op, for per-op timing -------*- C++ -*-===//
//
// A network's time, op by op: each op of an entry point that computes a
// tensor becomes a public function of its own (its tensor operands as
// arguments, the constants it reads cloned in), so that it can be compiled
// and timed alone. The ops are compiled as they stand, not fused with their
// neighbours: the sum is what the network would take without fusion across
// ops, and the ranking shows where the time goes.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_OPKERNELS_H
#define POLYBLOCKS_DRIVER_OPKERNELS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace polyblocks {

/// One extracted op: the name of its function and where the op came from.
struct OpKernel {
  std::string function;
  std::string opName;
  /// The types of its results, e.g. "tensor<1x64x56x56xf32>".
  std::string resultTypes;
  mlir::Location loc;
  /// The arithmetic operations it does (countFlops), when known.
  std::optional<int64_t> flops;
};

/// The arithmetic operations of a linalg op with static loop ranges: its
/// iterations times the arith and math ops of its body (2 for a matmul's
/// or a convolution's multiply-add); nullopt for other ops.
std::optional<int64_t> countFlops(mlir::Operation *op);

/// The arithmetic operations of the linalg ops in the body of @function
/// (countFlops each): what one call does; nullopt when it has none, one
/// whose count is not known (dynamic shapes), or one inside a loop.
std::optional<int64_t> countFunctionFlops(mlir::ModuleOp module,
                                          llvm::StringRef function);

/// A location in one line: the frames of a call-site chain as file:line
/// (base names), callee first ("conv.py:565 < resnet.py:96"); "unknown"
/// when there is none.
std::string formatShortLocation(mlir::Location loc);

/// Builds a module with one public function per tensor-computing op of
/// @`function` in `module` (ops with only constant operands, constants and
/// ops that only reshape are left out: they fold or cost nothing; so are
/// calls), named
/// `<function>_op<N>` in program order. Each function takes the op's
/// non-constant operands (statically shaped tensors; ops reading anything
/// else are left out) and returns its results. Fills `kernels` in the same
/// order. Fails with a diagnostic if @`function` does not exist or has no
/// such op.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
extractOpKernels(mlir::ModuleOp module, llvm::StringRef function,
                 std::vector<OpKernel> &kernels);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_OPKERNELS_H
