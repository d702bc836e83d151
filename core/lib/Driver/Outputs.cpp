//===- Outputs.cpp - What a compilation writes, and its file names --------===//

#include "polyblocks/Driver/Outputs.h"

#include "polyblocks/Driver/SharedLibrary.h"
#include "polyblocks/Support/TimingScopes.h"
#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace polyblocks {

bool OutputKind::isText() const {
  if (kind == DeviceCode)
    return device->format == "isa";
  return kind != Object && kind != SharedLibrary;
}

OutputKind getStageOutput(Stage stage) {
  OutputKind kind;
  kind.kind = OutputKind::StageIR;
  kind.stage = stage;
  kind.id = getStageInfo(stage).id.str();
  kind.extension = ".mlir";
  return kind;
}

/// The host code kinds, in the order messages list them.
static const struct {
  llvm::StringLiteral id;
  OutputKind::Kind kind;
  llvm::StringLiteral extension;
} kHostKinds[] = {{"obj", OutputKind::Object, ".o"},
                  {"shared", OutputKind::SharedLibrary, ".so"},
                  {"asm", OutputKind::Assembly, ".s"},
                  {"llvm", OutputKind::LLVMIR, ".ll"}};

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<OutputKind> parseOutputKind(StringRef name,
                                           const PipelineOptions &options,
                                           StringRef what, bool withStages,
                                           bool textOnly) {
  std::string id = name.lower();
  if (withStages)
    if (std::optional<Stage> stage = parseStage(id))
      return getStageOutput(*stage);
  OutputKind kind;
  kind.id = id;
  for (const auto &host : kHostKinds) {
    if (id != host.id || (textOnly && (host.kind == OutputKind::Object ||
                                       host.kind == OutputKind::SharedLibrary)))
      continue;
    kind.kind = host.kind;
    kind.extension = host.extension.str();
    return kind;
  }
  if (const DeviceCodeKind *device = findDeviceCodeKind(id);
      device && (!textOnly || device->format == "isa")) {
    if (device->target != options.target || options.emulateGPU) {
      StringRef needed = getTargetKindName(device->target);
      return makeError(
          what + " '" + id + "' is " + device->description +
          ", device code of target " + needed + ", but the target is " +
          getTargetKindName(options.target) +
          (options.emulateGPU ? " emulated on the CPU" : "") +
          " (compile with --target=" + needed +
          (options.emulateGPU ? " without --emulate-gpu" : "") + ")");
    }
    kind.kind = OutputKind::DeviceCode;
    kind.device = device;
    kind.extension = ("." + device->name).str();
    return kind;
  }
  // The names, as the message lists them.
  SmallVector<std::string> names;
  if (withStages)
    for (const StageInfo &info : getStageTable())
      names.push_back(info.id.str());
  for (const auto &host : kHostKinds)
    if (!textOnly || (host.kind != OutputKind::Object &&
                      host.kind != OutputKind::SharedLibrary))
      names.push_back(host.id.str());
  for (const DeviceCodeKind &device : getDeviceCodeKinds())
    if (!textOnly || device.format == "isa")
      names.push_back(device.name.str());
  std::string list;
  for (auto [i, n] : llvm::enumerate(names))
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + n;
  return makeError("unknown " + what + " '" + name + "' (expected " + list +
                   ")");
}

void configurePipelineFor(const OutputKind &kind, PipelineOptions &options) {
  if (kind.kind == OutputKind::DeviceCode)
    options.gpuBinaryFormat = kind.device->format.str();
}

/// The functions defined in `module`, for messages: "@f, @g".
static std::string listFunctions(ModuleOp module) {
  std::string names;
  for (auto function : module.getOps<FunctionOpInterface>())
    if (!function.isExternal())
      names += (names.empty() ? "@" : ", @") + function.getName().str();
  return names.empty() ? "none" : names;
}

llvm::Error renderOutput(ModuleOp module, const OutputKind &kind,
                         const PipelineOptions &options,
                         SmallVectorImpl<char> &out,
                         std::optional<StringRef> function, TimingScope *timing,
                         bool consumeModule) {
  Operation *symbol = nullptr;
  if (function && kind.kind != OutputKind::DeviceCode) {
    symbol = SymbolTable::lookupSymbolIn(module, *function);
    if (!symbol || !isa<FunctionOpInterface>(symbol))
      return makeError("no function @" + *function + " in the IR after " +
                       getStageInfo(kind.stage).id + " (it has " +
                       listFunctions(module) + ")");
  }
  switch (kind.kind) {
  case OutputKind::StageIR: {
    llvm::raw_svector_ostream os(out);
    if (symbol)
      symbol->print(os);
    else
      module.print(os);
    if (out.empty() || out.back() != '\n')
      os << "\n";
    return llvm::Error::success();
  }
  case OutputKind::DeviceCode: {
    // The whole device module: kernels are not per function.
    llvm::Expected<std::string> image = getEmbeddedDeviceImage(module);
    if (!image)
      return image.takeError();
    // Assembly (PTX) is embedded NUL-terminated, as the driver expects.
    StringRef bytes(*image);
    if (kind.device->format == "isa")
      bytes = bytes.rtrim('\0');
    out.assign(bytes.begin(), bytes.end());
    return llvm::Error::success();
  }
  case OutputKind::LLVMIR:
  case OutputKind::Assembly:
  case OutputKind::Object:
  case OutputKind::SharedLibrary:
    break;
  }
  auto tm = createCPUTargetMachine(options.getCPUTarget());
  if (!tm)
    return tm.takeError();
  // The function, the parallel regions outlined from it (named
  // `<function>.parallel<n>`, or `<function>..omp_par...` by OpenMP) and the
  // helpers they call (`__pb_...`: the work claims, the thread pool).
  std::string prefix = function ? function->str() + "." : "";
  auto keep = [&](StringRef name) {
    return name == *function || name.starts_with(prefix) ||
           name.starts_with("__pb_");
  };
  CodeKind code = kind.kind == OutputKind::LLVMIR     ? CodeKind::LLVMIR
                  : kind.kind == OutputKind::Assembly ? CodeKind::Assembly
                                                      : CodeKind::Object;
  auto release = [&] {
    module.getBody()->clear();
    releaseUnreferencedResources(module);
  };
  llvm::function_ref<void()> translated =
      consumeModule ? llvm::function_ref<void()>(release) : nullptr;
  std::vector<llvm::SmallVector<char, 0>> objects;
  if (code == CodeKind::Object && !function) {
    // A large program in parts, on several threads.
    CodegenSplit split = chooseCodegenSplit(options.codegenThreads);
    if (llvm::Error err =
            emitObjects(module, **tm, split.parts, split.minInstructions,
                        objects, timing, translated))
      return err;
  } else {
    objects.emplace_back();
    if (llvm::Error err = emitCode(
            module, **tm, code, objects.front(),
            function ? llvm::function_ref<bool(StringRef)>(keep) : nullptr,
            timing, translated))
      return err;
  }
  if (objects.size() == 1 && kind.kind != OutputKind::SharedLibrary) {
    out = std::move(objects.front());
    return llvm::Error::success();
  }
  // The objects are freed once the linker has them in files.
  SmallVector<ArrayRef<char>> parts(objects.begin(), objects.end());
  auto written = [&] {
    objects.clear();
    objects.shrink_to_fit();
  };
  if (kind.kind != OutputKind::SharedLibrary) {
    TimingScope linking = nestTiming(timing, "link the parts (ld -r)");
    return linkRelocatableObject(parts, out, written);
  }
  bool gpu = isGPUTarget(options.target) && !options.emulateGPU;
  SharedLibraryOptions link;
  link.openmp = options.parallelize && !gpu;
  link.gpuRuntime = gpu;
  TimingScope linking = nestTiming(timing, "link the shared library");
  return linkSharedLibrary(parts, link, out, written);
}

/// `name` with the characters that are not safe in file names as '_'.
static std::string sanitize(StringRef name) {
  std::string safe;
  for (char c : name)
    safe += llvm::isAlnum(c) || c == '_' || c == '-' || c == '.' ? c : '_';
  return safe;
}

std::string getOutputFileName(StringRef sourcePath, const OutputKind &kind,
                              std::optional<StringRef> function) {
  StringRef stem = llvm::sys::path::stem(sourcePath);
  std::string name = sanitize(stem.empty() || stem == "-" ? "kernel" : stem);
  if (function)
    name += "." + sanitize(*function);
  if (kind.kind == OutputKind::StageIR)
    name += "." + std::to_string(static_cast<int>(kind.stage)) + "." +
            getStageInfo(kind.stage).name.str();
  return name + kind.extension;
}

} // namespace polyblocks
