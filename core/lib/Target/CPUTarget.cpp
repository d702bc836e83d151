//===- CPUTarget.cpp - x86-64 code generation -----------------------------===//

#include "polyblocks/Target/CPUTarget.h"

#include "polyblocks/Support/TimingScopes.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <thread>

#include "polyblocks/Target/ThreadPoolIR.inc"

using namespace mlir;

namespace polyblocks {

static void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;
}

/// The host's features as an LLVM feature string ("+avx2,+fma,-amx-int8,...").
static std::string getHostFeatureString() {
  std::string features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    if (!features.empty())
      features += ',';
    features += (feature.second ? "+" : "-") + feature.first().str();
  }
  return features;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCPUTargetMachine(const CPUTargetSpec &options) {
  initializeNativeTarget();
  llvm::Triple triple(options.triple.empty() ? llvm::sys::getProcessTriple()
                                             : options.triple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("unknown target triple '" + triple.str() +
                                   "': " + error);

  bool host = options.cpu == "host";
  std::string cpu = host ? llvm::sys::getHostCPUName().str() : options.cpu;
  std::string features = options.features;
  if (host && features.empty())
    features = getHostFeatureString();

  // Asked with no CPU, so that LLVM does not warn about an unknown one.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return llvm::createStringError("unknown CPU '" + cpu + "' for " +
                                   triple.str() +
                                   " (try e.g. x86-64-v3, skylake-avx512, "
                                   "znver4, or 'host')");

  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("cannot create a target machine for " +
                                   triple.str() + " (" + cpu + ")");
  return tm;
}

llvm::Error checkRunsOnHost(const llvm::TargetMachine &tm) {
  if (tm.getTargetTriple().getArch() !=
      llvm::Triple(llvm::sys::getProcessTriple()).getArch())
    return llvm::createStringError("code for " + tm.getTargetTriple().str() +
                                   " cannot run on this host (" +
                                   llvm::sys::getProcessTriple() + ")");
  const llvm::MCSubtargetInfo *subtarget = tm.getMCSubtargetInfo();
  const llvm::FeatureBitset &enabled = subtarget->getFeatureBits();
  // The host's instruction sets, as LLVM names them. Only the vector ones
  // count: they are what generated kernels use; a CPU name also implies
  // system instructions that a virtual machine may hide (mwaitx) and that
  // no kernel is compiled to.
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  auto isVectorISA = [](StringRef name) {
    return name.starts_with("sse") || name.starts_with("avx") ||
           name.starts_with("fma") || name == "f16c" || name.starts_with("amx");
  };
  std::string missing;
  for (const llvm::SubtargetFeatureKV &feature :
       subtarget->getAllProcessorFeatures()) {
    auto it = host.find(feature.Key);
    if (it == host.end() || it->second || !isVectorISA(feature.Key) ||
        !enabled.test(feature.Value))
      continue;
    if (!missing.empty())
      missing += ", ";
    missing += feature.Key;
  }
  if (missing.empty())
    return llvm::Error::success();
  return llvm::createStringError(
      "code for CPU '" + tm.getTargetCPU().str() +
      "' cannot run on this host, which lacks " + missing +
      " (compile it with 'pbtool compile', or choose --cpu=host)");
}

/// The text of a sysfs attribute without its padding: sysfs reports a size
/// of a page, so the read may end in NULs after the newline.
static std::string readSysfsText(const llvm::Twine &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return "";
  StringRef text = (*buffer)->getBuffer();
  return text.take_until([](char c) { return c == '\0'; }).trim().str();
}

/// The sysfs directory of the host's first CPU's level-`level` data (or
/// unified) cache, or "" when sysfs does not say.
static std::string findHostCacheDir(unsigned level) {
  for (unsigned index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readSysfsText(dir + "/type");
    if (type.empty())
      break;
    if (type != "Instruction" &&
        readSysfsText(dir + "/level") == std::to_string(level))
      return dir;
  }
  return "";
}

/// The associativity of the host's level-1 data cache, or 0 when sysfs
/// does not say.
static unsigned readHostL1Ways() {
  std::string dir = findHostCacheDir(1);
  unsigned ways = 0;
  if (dir.empty() || StringRef(readSysfsText(dir + "/ways_of_associativity"))
                         .getAsInteger(10, ways))
    return 0;
  return ways;
}

/// The size in KiB of the host's first CPU's level-`level` data (or unified)
/// cache, or 0 when sysfs does not say.
static unsigned readHostCacheKiB(unsigned level) {
  std::string dir = findHostCacheDir(level);
  if (dir.empty())
    return 0;
  std::string sizeText = readSysfsText(dir + "/size");
  StringRef size = sizeText;
  unsigned kib = 0;
  if (size.consume_back("K") && !size.getAsInteger(10, kib))
    return kib;
  return 0;
}

CPUModel getCPUModel(llvm::TargetMachine &tm, bool host) {
  const llvm::MCSubtargetInfo *subtarget = tm.getMCSubtargetInfo();
  CPUModel cpu;
  if (subtarget->checkFeatures("+avx512f")) {
    cpu.vectorBits = 512;
    cpu.numVectorRegisters = 32;
  } else if (subtarget->checkFeatures("+avx")) {
    cpu.vectorBits = 256;
    cpu.numVectorRegisters = 16;
  } else {
    cpu.vectorBits = 128;
    cpu.numVectorRegisters = 16;
  }
  if (host) {
    if (unsigned kib = readHostCacheKiB(1))
      cpu.l1CacheKiB = kib;
    if (unsigned ways = readHostL1Ways())
      cpu.l1Ways = ways;
    if (unsigned kib = readHostCacheKiB(2))
      cpu.l2CacheKiB = kib;
    if (unsigned kib = readHostCacheKiB(3))
      cpu.l3CacheKiB = kib;
    if (unsigned threads = std::thread::hardware_concurrency())
      cpu.numThreads = threads;
  }
  return cpu;
}

/// Links the thread pool (runtime/lib/ThreadPool.c) into `module` if its
/// code runs parallel regions (pb-outline-parallel-regions): its definitions
/// are weak, so the copies of several objects merge into one pool.
static llvm::Error linkThreadPool(llvm::Module &module) {
  llvm::Function *run = module.getFunction(kThreadPoolEntry);
  if (!run || !run->isDeclaration())
    return llvm::Error::success();
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> pool =
      llvm::parseIR(llvm::MemoryBufferRef(kThreadPoolIR, "ThreadPool.ll"),
                    diagnostic, module.getContext());
  if (!pool)
    return llvm::createStringError("the thread pool's IR does not parse: " +
                                   diagnostic.getMessage());
  pool->setDataLayout(module.getDataLayout());
  pool->setTargetTriple(module.getTargetTriple());
  if (llvm::Linker::linkModules(module, std::move(pool),
                                llvm::Linker::LinkOnlyNeeded))
    return llvm::createStringError("linking the thread pool failed");
  return llvm::Error::success();
}

void optimizeLLVMModule(llvm::Module &module, llvm::TargetMachine &tm) {
  // S3 unrolls what it means to (register tiles, short loops) or asks LLVM
  // to (llvm.loop.unroll metadata, polyblocks::requestLLVMFullUnroll);
  // LLVM's own unrolling on top made MobileNetV2's code 3.6 times larger
  // and its -O3 and code generation 3 times slower, for no speed
  // (bench/RESULTS.md, notes: compile time). The loop vectorizer stays: it
  // vectorizes the scalar loops S3 leaves.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&tm, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pm =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pm.run(module, modules);
}

/// Translates `module` into LLVM IR for `tm`, with the thread pool linked
/// in and the target's CPU and features on every function.
static llvm::Expected<std::unique_ptr<llvm::Module>>
translateForTarget(ModuleOp module, llvm::LLVMContext &llvmContext,
                   llvm::TargetMachine &tm, TimingScope *timing,
                   llvm::function_ref<void()> translated) {
  TimingScope translating = nestTiming(timing, "translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  if (translated)
    translated();
  translating.stop();
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  TimingScope linking = nestTiming(timing, "link the thread pool");
  if (llvm::Error err = linkThreadPool(*llvmModule))
    return std::move(err);
  linking.stop();
  for (llvm::Function &fn : *llvmModule) {
    if (fn.isDeclaration())
      continue;
    fn.addFnAttr("target-cpu", tm.getTargetCPU());
    if (!tm.getTargetFeatureString().empty())
      fn.addFnAttr("target-features", tm.getTargetFeatureString());
  }
  return llvmModule;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &tm, TimingScope *timing,
                     llvm::function_ref<void()> translated) {
  auto llvmModule =
      translateForTarget(module, llvmContext, tm, timing, translated);
  if (!llvmModule)
    return llvmModule.takeError();
  TimingScope optimizing = nestTiming(timing, "optimize LLVM IR (-O3)");
  optimizeLLVMModule(**llvmModule, tm);
  return llvmModule;
}

llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &tm,
                            llvm::CodeGenFileType fileType,
                            llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, fileType))
    return llvm::createStringError("the target cannot emit this file type");
  pm.run(module);
  return llvm::Error::success();
}

llvm::Error emitCode(ModuleOp module, llvm::TargetMachine &tm, CodeKind kind,
                     llvm::SmallVectorImpl<char> &out,
                     llvm::function_ref<bool(StringRef)> keepFunction,
                     TimingScope *timing,
                     llvm::function_ref<void()> translated) {
  llvm::LLVMContext llvmContext;
  auto llvmModule =
      translateAndOptimize(module, llvmContext, tm, timing, translated);
  if (!llvmModule)
    return llvmModule.takeError();
  TimingScope emitting =
      nestTiming(timing, kind == CodeKind::LLVMIR ? "print LLVM IR"
                                                  : "generate machine code");
  if (keepFunction)
    for (llvm::Function &fn : **llvmModule)
      if (!fn.isDeclaration() && !keepFunction(fn.getName()))
        fn.deleteBody();
  llvm::raw_svector_ostream os(out);
  switch (kind) {
  case CodeKind::LLVMIR:
    (*llvmModule)->print(os, nullptr);
    return llvm::Error::success();
  case CodeKind::Assembly:
    return emitMachineCode(**llvmModule, tm,
                           llvm::CodeGenFileType::AssemblyFile, os);
  case CodeKind::Object:
    return emitMachineCode(**llvmModule, tm, llvm::CodeGenFileType::ObjectFile,
                           os);
  }
  llvm_unreachable("unknown code kind");
}

/// Emits `module`'s object into the file `path`.
static llvm::Error emitObjectFile(llvm::Module &module, llvm::TargetMachine &tm,
                                  llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  if (llvm::Error err =
          emitMachineCode(module, tm, llvm::CodeGenFileType::ObjectFile, os))
    return err;
  os.close();
  if (os.has_error())
    return llvm::createStringError(
        os.error(), "cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}

/// A scope of `timing` for `step` of part `index` (the scopes of the parts'
/// threads are shown together, each thread's time its own).
static TimingScope nestPartTiming(TimingScope &timing, unsigned index,
                                  llvm::StringRef step) {
  return timing.nest("part " + std::to_string(index) + ": " + step.str());
}

/// -O3 and code generation of part `index`, `module`, into the file `path`,
/// each step timed in a scope of `timing`; part 0 writes the module's
/// constant data too (`withConstants`) when none was detached.
static llvm::Error compilePart(llvm::Module &module, llvm::TargetMachine &tm,
                               llvm::StringRef path, unsigned index,
                               TimingScope &timing,
                               bool withConstants = false) {
  TimingScope optimizing =
      nestPartTiming(timing, index, "optimize LLVM IR (-O3)");
  optimizeLLVMModule(module, tm);
  optimizing.stop();
  TimingScope emitting = nestPartTiming(
      timing, index,
      withConstants ? "generate machine code (and the constant data)"
                    : "generate machine code");
  return emitObjectFile(module, tm, path);
}

/// compilePart for a part given as bitcode, with `tm` (its own), in a
/// context of its own: the thread that calls it owns everything it touches.
static llvm::Error compilePart(llvm::ArrayRef<char> bitcode,
                               llvm::TargetMachine &tm, llvm::StringRef path,
                               unsigned index, TimingScope &timing) {
  llvm::LLVMContext context;
  TimingScope reading = nestPartTiming(timing, index, "read its bitcode");
  auto part = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()), "part"),
      context);
  reading.stop();
  if (!part)
    return part.takeError();
  return compilePart(**part, tm, path, index, timing);
}

llvm::Error emitObjects(
    ModuleOp module, llvm::TargetMachine &tm, const CodegenSplit &split,
    llvm::function_ref<llvm::Expected<std::vector<std::string>>(unsigned)>
        files,
    llvm::function_ref<llvm::Error(llvm::ArrayRef<DetachedConstant>)> finish,
    TimingScope *timing, llvm::function_ref<void()> translated) {
  llvm::LLVMContext llvmContext;
  auto llvmModule =
      translateForTarget(module, llvmContext, tm, timing, translated);
  if (!llvmModule)
    return llvmModule.takeError();
  std::vector<llvm::SmallVector<char, 0>> parts;
  // In parts, the constant data leaves part 0 (ConstantSection.cpp): the
  // objects' format is ELF-64 for x86-64.
  const llvm::Triple &triple = tm.getTargetTriple();
  bool detach =
      triple.isOSBinFormatELF() && triple.getArch() == llvm::Triple::x86_64;
  std::string tag;
  CodegenSplit partSplit = split;
  if (split.parts > 1) {
    TimingScope splitting = nestTiming(timing, "split into parts");
    if (detach) {
      tag = getModuleTag(**llvmModule);
      // No part writes the constant data.
      partSplit.constantBytesPerInstruction = 0;
    }
    parts = splitModule(**llvmModule, partSplit);
  }
  std::vector<DetachedConstant> constants;
  if (!parts.empty() && detach)
    constants = detachConstantData(**llvmModule, tag);
  // Without `finish`, the constant data is an object of its own, the last
  // file, written on a thread of its own.
  bool ownObject = !finish && !constants.empty();
  unsigned count = parts.size() + 1 + (ownObject ? 1 : 0);
  llvm::Expected<std::vector<std::string>> paths = files(count);
  if (!paths)
    return paths.takeError();
  assert(paths->size() == count && "a file per object");
  if (parts.empty()) {
    TimingScope optimizing = nestTiming(timing, "optimize LLVM IR (-O3)");
    optimizeLLVMModule(**llvmModule, tm);
    optimizing.stop();
    TimingScope emitting = nestTiming(timing, "generate machine code");
    if (llvm::Error err = emitObjectFile(**llvmModule, tm, paths->front()))
      return err;
    emitting.stop();
    return finish ? finish({}) : llvm::Error::success();
  }
  TimingScope compiling = nestTiming(
      timing, "optimize LLVM IR (-O3) and generate machine code, " +
                  std::to_string(parts.size() + 1) + " parts in parallel");
  // A target machine per part, made before any thread starts: code
  // generation resets a machine's options per function.
  std::vector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (size_t i = 0; i < parts.size(); ++i) {
    machines.emplace_back(tm.getTarget().createTargetMachine(
        tm.getTargetTriple(), tm.getTargetCPU(), tm.getTargetFeatureString(),
        tm.Options, tm.getRelocationModel(), tm.getCodeModel(),
        tm.getOptLevel()));
    if (!machines.back())
      return llvm::createStringError("cannot create a target machine for a "
                                     "part of the program");
  }
  // Each thread's failure, as a message (empty: none).
  std::vector<std::string> failures(parts.size() + 1);
  std::vector<std::thread> workers;
  for (size_t i = 0; i < parts.size(); ++i)
    workers.emplace_back([&, i] {
      if (llvm::Error error = compilePart(parts[i], *machines[i],
                                          (*paths)[i + 1], i + 1, compiling))
        failures[i] = llvm::toString(std::move(error));
    });
  if (ownObject)
    workers.emplace_back([&] {
      TimingScope writing = compiling.nest("write the constant data");
      if (llvm::Error error = writeConstantObject(constants, paths->back()))
        failures.back() = llvm::toString(std::move(error));
    });
  llvm::Error error =
      compilePart(**llvmModule, tm, paths->front(), 0, compiling,
                  /*withConstants=*/constants.empty());
  for (std::thread &worker : workers)
    worker.join();
  for (const std::string &failure : failures)
    if (!failure.empty())
      error =
          llvm::joinErrors(std::move(error), llvm::createStringError(failure));
  if (error)
    return error;
  compiling.stop();
  return finish ? finish(constants) : llvm::Error::success();
}

} // namespace polyblocks
