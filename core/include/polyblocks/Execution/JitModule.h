//===- JitModule.h - Run compiled kernels in-process ------------*- C++ -*-===//
//
// JIT-compiles a module that S5 (or the reference pipeline) has lowered to
// the LLVM dialect and calls its entry points with host buffers, through the
// same C interface that the generated header declares.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_EXECUTION_JITMODULE_H
#define POLYBLOCKS_EXECUTION_JITMODULE_H

#include "polyblocks/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace polyblocks {

class JitModule {
public:
  /// Compiles `llvmDialectModule` for the CPU described by `options`.
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(mlir::ModuleOp llvmDialectModule, const PipelineOptions &options);
  ~JitModule();

  /// Calls entry point `name` with `buffers` (the inputs, then one buffer per
  /// result) and returns the status it returned.
  llvm::Expected<int32_t> call(llvm::StringRef name,
                               llvm::ArrayRef<void *> buffers);

private:
  explicit JitModule(std::unique_ptr<mlir::ExecutionEngine> engine);
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

} // namespace polyblocks

#endif // POLYBLOCKS_EXECUTION_JITMODULE_H
