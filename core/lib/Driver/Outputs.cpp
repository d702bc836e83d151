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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// Looks `function` up in `module` for the outputs of one function: an
/// error naming the functions there when it is not one.
static llvm::Error checkFunction(ModuleOp module, const OutputKind &kind,
                                 std::optional<StringRef> function) {
  if (!function || kind.kind == OutputKind::DeviceCode)
    return llvm::Error::success();
  Operation *symbol = SymbolTable::lookupSymbolIn(module, *function);
  if (symbol && isa<FunctionOpInterface>(symbol))
    return llvm::Error::success();
  return makeError("no function @" + *function + " in the IR after " +
                   getStageInfo(kind.stage).id + " (it has " +
                   listFunctions(module) + ")");
}

/// Writes `bytes` into the file `path`.
static llvm::Error writeFile(StringRef path, ArrayRef<char> bytes) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os.write(bytes.data(), bytes.size());
    return llvm::Error::success();
  });
}

/// Whether `kind` is host code the linker makes or may make: an object
/// (one, or parts linked into one) or a shared library.
static bool isLinkedHostCode(const OutputKind &kind) {
  return kind.kind == OutputKind::Object ||
         kind.kind == OutputKind::SharedLibrary;
}

/// Whether the host code of `function` keeps the LLVM function `name`: the
/// function, the parallel regions outlined from it (named
/// `<function>.parallel<n>`, or `<function>..omp_par...` by OpenMP) and the
/// helpers they call (`__pb_...`: the work claims, the thread pool).
static bool isKeptWith(StringRef function, StringRef name) {
  return name == function ||
         (name.starts_with(function) &&
          name.drop_front(function.size()).starts_with(".")) ||
         name.starts_with("__pb_");
}

/// Empties `module` and releases the storage of its constants (host code
/// made from its LLVM IR alone).
static void releaseModule(ModuleOp module) {
  module.getBody()->clear();
  releaseUnreferencedResources(module);
}

/// Host code (`kind` an object or a shared library) into the file `path`.
/// Every object is written straight into a file (the parts of a program
/// compiled on several threads into temporary ones) and the linker writes
/// `path` itself. A network's weights, most of its object, are written once
/// into an object: by code generation in one piece; in parts, into the
/// object the parts are linked into (appendConstantSection) or, for a
/// shared library, into an object of their own while the parts compile
/// (writeConstantObject), which the linker copies.
static llvm::Error renderLinkedHostCode(ModuleOp module, const OutputKind &kind,
                                        const PipelineOptions &options,
                                        StringRef path,
                                        std::optional<StringRef> function,
                                        TimingScope *timing,
                                        bool consumeModule) {
  auto tm = createCPUTargetMachine(options.getCPUTarget());
  if (!tm)
    return tm.takeError();
  auto release = [&] { releaseModule(module); };
  llvm::function_ref<void()> translated =
      consumeModule ? llvm::function_ref<void()>(release) : nullptr;
  bool shared = kind.kind == OutputKind::SharedLibrary;
  // The objects' temporary files, removed when done.
  std::vector<std::string> objects;
  std::vector<std::unique_ptr<llvm::FileRemover>> removers;
  auto temporary = [&]() -> llvm::Expected<std::string> {
    SmallString<128> object;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "polyblocks-kernel", "o", object))
      return llvm::createStringError(ec, "cannot create a temporary file: " +
                                             ec.message());
    removers.push_back(std::make_unique<llvm::FileRemover>(object));
    return object.str().str();
  };
  auto files = [&](unsigned count) -> llvm::Expected<std::vector<std::string>> {
    // One object is the output itself.
    if (count == 1 && !shared) {
      objects = {path.str()};
      return objects;
    }
    for (unsigned i = 0; i < count; ++i) {
      llvm::Expected<std::string> object = temporary();
      if (!object)
        return object.takeError();
      objects.push_back(*object);
    }
    return objects;
  };
  if (function) {
    auto keep = [&](StringRef name) { return isKeptWith(*function, name); };
    llvm::SmallVector<char, 0> object;
    if (llvm::Error err = emitCode(module, **tm, CodeKind::Object, object, keep,
                                   timing, translated))
      return err;
    llvm::Expected<std::vector<std::string>> paths = files(1);
    if (!paths)
      return paths.takeError();
    if (llvm::Error err = writeFile(paths->front(), object))
      return err;
  } else {
    // A large program in parts, on several threads; for an object, their
    // constant data added to the one they link into.
    CodegenSplit split = chooseCodegenSplit(options.codegenThreads);
    auto link = [&](llvm::ArrayRef<DetachedConstant> constants) -> llvm::Error {
      if (objects.size() == 1)
        return llvm::Error::success();
      TimingScope linking = nestTiming(timing, "link the parts (ld -r)");
      if (constants.empty())
        return linkRelocatableObject(objects, path);
      llvm::Expected<std::string> linked = temporary();
      if (!linked)
        return linked.takeError();
      if (llvm::Error err = linkRelocatableObject(objects, *linked))
        return err;
      linking.stop();
      TimingScope appending = nestTiming(timing, "add the constant data");
      return appendConstantSection(*linked, constants, path);
    };
    using Finish =
        llvm::function_ref<llvm::Error(llvm::ArrayRef<DetachedConstant>)>;
    if (llvm::Error err =
            emitObjects(module, **tm, split, files,
                        shared ? Finish() : Finish(link), timing, translated))
      return err;
  }
  if (!shared)
    return llvm::Error::success();
  bool gpu = isGPUTarget(options.target) && !options.emulateGPU;
  SharedLibraryOptions link;
  link.openmp = options.parallelize && !gpu;
  link.gpuRuntime = gpu;
  TimingScope linking = nestTiming(timing, "link the shared library");
  return linkSharedLibrary(objects, link, path);
}

llvm::Error renderOutputFile(ModuleOp module, const OutputKind &kind,
                             const PipelineOptions &options, StringRef path,
                             std::optional<StringRef> function,
                             TimingScope *timing, bool consumeModule) {
  if (llvm::Error err = checkFunction(module, kind, function))
    return err;
  if (isLinkedHostCode(kind))
    return renderLinkedHostCode(module, kind, options, path, function, timing,
                                consumeModule);
  llvm::SmallVector<char, 0> bytes;
  if (llvm::Error err = renderOutput(module, kind, options, bytes, function,
                                     timing, consumeModule))
    return err;
  return writeFile(path, bytes);
}

llvm::Error renderOutput(ModuleOp module, const OutputKind &kind,
                         const PipelineOptions &options,
                         SmallVectorImpl<char> &out,
                         std::optional<StringRef> function, TimingScope *timing,
                         bool consumeModule) {
  if (llvm::Error err = checkFunction(module, kind, function))
    return err;
  switch (kind.kind) {
  case OutputKind::StageIR: {
    llvm::raw_svector_ostream os(out);
    if (function)
      SymbolTable::lookupSymbolIn(module, *function)->print(os);
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
  case OutputKind::Object:
  case OutputKind::SharedLibrary: {
    // Linked by a linker, which writes files: through a temporary one.
    SmallString<128> path;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("polyblocks-output", "", path))
      return llvm::createStringError(ec, "cannot create a temporary file: " +
                                             ec.message());
    llvm::FileRemover remover(path);
    if (llvm::Error err = renderLinkedHostCode(module, kind, options, path,
                                               function, timing, consumeModule))
      return err;
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return llvm::createStringError(buffer.getError(),
                                     "cannot read '" + path +
                                         "': " + buffer.getError().message());
    StringRef bytes = (*buffer)->getBuffer();
    out.assign(bytes.begin(), bytes.end());
    return llvm::Error::success();
  }
  case OutputKind::LLVMIR:
  case OutputKind::Assembly:
    break;
  }
  auto tm = createCPUTargetMachine(options.getCPUTarget());
  if (!tm)
    return tm.takeError();
  auto keep = [&](StringRef name) { return isKeptWith(*function, name); };
  auto release = [&] { releaseModule(module); };
  llvm::function_ref<void()> translated =
      consumeModule ? llvm::function_ref<void()>(release) : nullptr;
  return emitCode(
      module, **tm,
      kind.kind == OutputKind::LLVMIR ? CodeKind::LLVMIR : CodeKind::Assembly,
      out, function ? llvm::function_ref<bool(StringRef)>(keep) : nullptr,
      timing, translated);
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
