//===- CPUTarget.h - x86-64 code generation ---------------------*- C++ -*-===//
//
// The end of S5 for CPUs: LLVM dialect -> LLVM IR -> optimized LLVM IR ->
// assembly or a relocatable object, through LLVM's TargetMachine.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TARGET_CPUTARGET_H
#define POLYBLOCKS_TARGET_CPUTARGET_H

#include "polyblocks/Target/MachineModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace polyblocks {

/// The CPU to generate code for.
struct CPUTargetSpec {
  /// As LLVM names it; "host" = the machine running the compiler.
  std::string cpu = "host";
  /// LLVM feature string, e.g. "+avx2,+fma"; empty = the CPU's own.
  std::string features;
  /// Target triple; empty = the host's.
  std::string triple;
};

/// Creates the TargetMachine for `spec` ("host" = this machine, with its
/// features). Fails with a readable message for an unknown triple or CPU
/// name.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCPUTargetMachine(const CPUTargetSpec &spec);

/// The machine model of the CPU of `tm`: vector width and register count
/// from its features; for the host (`host`), the L1 data and L2 cache
/// sizes and the threads of this machine, else the model's defaults.
CPUModel getCPUModel(llvm::TargetMachine &tm, bool host);

/// The thread pool's entry point (runtime/lib/ThreadPool.c), which the
/// parallel regions of generated CPU code are run through.
inline constexpr const char kThreadPoolEntry[] = "__pb_parallel_run_v1";

/// Translates a module in the LLVM dialect (the output of S5) into LLVM IR
/// for `tm`, with the thread pool linked in if it calls it, and optimizes it
/// at -O3. With `timing`, each step is timed in a scope nested in it.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &tm,
                     mlir::TimingScope *timing = nullptr);

/// Emits `module` as assembly or as a relocatable object into `out`.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &tm,
                            llvm::CodeGenFileType fileType,
                            llvm::SmallVectorImpl<char> &out);

/// What the LLVM-dialect module that S5 leaves is finally turned into.
enum class CodeKind { LLVMIR, Assembly, Object };

/// Translates `module` (S5's output) into LLVM IR for `tm`, optimizes it and
/// writes it into `out` as LLVM IR text, assembly or a relocatable object.
/// When `keepFunction` is given, the functions it rejects (by LLVM name) are
/// written as declarations only (to look at one function's code). With
/// `timing`, each step is timed in a scope nested in it.
llvm::Error
emitCode(mlir::ModuleOp module, llvm::TargetMachine &tm, CodeKind kind,
         llvm::SmallVectorImpl<char> &out,
         llvm::function_ref<bool(llvm::StringRef)> keepFunction = nullptr,
         mlir::TimingScope *timing = nullptr);

} // namespace polyblocks

#endif // POLYBLOCKS_TARGET_CPUTARGET_H
