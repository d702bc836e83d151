//===- JitModule.cpp - Run compiled kernels in-process --------------------===//

#include "polyblocks/Execution/JitModule.h"

#include "polyblocks/Target/CPUTarget.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/Target/TargetMachine.h"

#include "ThreadPool.h"

using namespace mlir;

namespace polyblocks {

JitModule::JitModule(std::unique_ptr<ExecutionEngine> engine)
    : engine(std::move(engine)) {}

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(ModuleOp llvmDialectModule, const PipelineOptions &options) {
  auto tm = createCPUTargetMachine(options.getCPUTarget());
  if (!tm)
    return tm.takeError();
  if (llvm::Error error = checkRunsOnHost(**tm))
    return std::move(error);
  llvm::TargetMachine *machine = tm->get();
  auto optimize = [machine](llvm::Module *module) {
    optimizeLLVMModule(*module, *machine);
    return llvm::Error::success();
  };
  // Generated multithreaded code calls into LLVM's OpenMP runtime.
  StringRef sharedLibs[] = {POLYBLOCKS_LIBOMP_PATH};
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine =
      ExecutionEngine::create(llvmDialectModule, engineOptions, std::move(*tm));
  if (!engine)
    return engine.takeError();
  // Parallel regions run on the thread pool built into this library (not a
  // copy in the JIT's code, which goes away with the module while the
  // workers stay).
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner(kThreadPoolEntry)] = {
        llvm::orc::ExecutorAddr::fromPtr(&__pb_parallel_run_v1),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  return std::unique_ptr<JitModule>(new JitModule(std::move(*engine)));
}

llvm::Expected<int32_t> JitModule::call(StringRef name,
                                        ArrayRef<void *> buffers) {
  // The packed interface takes a pointer to each argument, then a pointer to
  // the result.
  SmallVector<void *> pointers(buffers.begin(), buffers.end());
  SmallVector<void *> args;
  for (void *&pointer : pointers)
    args.push_back(&pointer);
  int32_t status = -1;
  args.push_back(&status);
  if (llvm::Error err = engine->invokePacked(name, args))
    return std::move(err);
  return status;
}

} // namespace polyblocks
