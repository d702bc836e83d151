//===- SharedLibrary.cpp - Kernels as a loadable shared library -----------===//

#include "polyblocks/Driver/SharedLibrary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace polyblocks {

StringRef getLinkerDriverPath() { return POLYBLOCKS_LINKER_DRIVER; }

/// Writes `bytes` to a new temporary file named like `model`.
static Expected<std::string> writeTemporary(StringRef model, StringRef suffix,
                                            ArrayRef<char> bytes) {
  SmallString<128> path;
  int fd;
  if (std::error_code ec =
          sys::fs::createTemporaryFile(model, suffix, fd, path))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  os.write(bytes.data(), bytes.size());
  os.close();
  if (os.has_error())
    return createStringError(os.error(), "cannot write '" + path +
                                             "': " + os.error().message());
  return path.str().str();
}

std::string getRuntimeLibraryDir() {
  static int anchor;
  SmallString<256> dir(
      sys::path::parent_path(sys::path::parent_path(sys::fs::getMainExecutable(
          "pbtool", reinterpret_cast<void *>(&anchor)))));
  sys::path::append(dir, "lib");
  return dir.str().str();
}

/// Runs the linker driver with `flags` on `objects` (`written` is called
/// once they are in temporary files), into a temporary file with suffix
/// `suffix` whose bytes end in `output`. Fails with the linker's output,
/// naming `what`.
static Error runLinker(ArrayRef<ArrayRef<char>> objects,
                       ArrayRef<std::string> flags, StringRef suffix,
                       StringRef what, function_ref<void()> written,
                       SmallVectorImpl<char> &output) {
  std::vector<std::string> objectPaths;
  std::vector<std::unique_ptr<FileRemover>> removers;
  for (ArrayRef<char> object : objects) {
    Expected<std::string> objectPath =
        writeTemporary("polyblocks-kernel", "o", object);
    if (!objectPath)
      return objectPath.takeError();
    objectPaths.push_back(*objectPath);
    removers.push_back(std::make_unique<FileRemover>(*objectPath));
  }
  if (written)
    written();
  SmallString<128> outputPath, logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("polyblocks-kernel", suffix, outputPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeOutput(outputPath);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("polyblocks-link", "log", logPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeLog(logPath);

  std::string driver = getLinkerDriverPath().str();
  std::vector<std::string> args = {driver, "-o", outputPath.str().str()};
  llvm::append_range(args, objectPaths);
  llvm::append_range(args, flags);
  // LLVM's linker when installed: a network's object is mostly its weights,
  // which it copies 2-3 times faster than the system's.
  StringRef lld = POLYBLOCKS_LD_LLD;
  if (!lld.empty())
    args.push_back(("--ld-path=" + lld).str());
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  std::string error;
  int code =
      sys::ExecuteAndWait(driver, argRefs, std::nullopt, redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &error);
  if (code != 0) {
    std::string log;
    if (auto buffer = MemoryBuffer::getFile(logPath))
      log = (*buffer)->getBuffer().trim().str();
    return createStringError(
        inconvertibleErrorCode(),
        "linking " + what + " failed (" + driver + "): " +
            (error.empty() ? "exit code " + std::to_string(code) : error) +
            (log.empty() ? "" : "\n" + log));
  }
  auto buffer = MemoryBuffer::getFile(outputPath, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return createStringError(buffer.getError(),
                             "cannot read the linked " + what + ": " +
                                 buffer.getError().message());
  StringRef bytes = (*buffer)->getBuffer();
  output.assign(bytes.begin(), bytes.end());
  return Error::success();
}

Error linkSharedLibrary(ArrayRef<ArrayRef<char>> objects,
                        const SharedLibraryOptions &options,
                        SmallVectorImpl<char> &library,
                        function_ref<void()> written) {
  std::vector<std::string> flags = {"-shared"};
  if (options.openmp) {
    // The thread pool the object carries starts POSIX threads; loops the
    // pool cannot run fork through OpenMP.
    flags.push_back("-pthread");
    StringRef libomp = POLYBLOCKS_LIBOMP_PATH;
    std::string dir = sys::path::parent_path(libomp).str();
    flags.push_back(libomp.str());
    flags.push_back("-Wl,-rpath," + dir);
  }
  if (options.gpuRuntime) {
    std::string dir = options.runtimeDir.empty() ? getRuntimeLibraryDir()
                                                 : options.runtimeDir;
    flags.push_back("-L" + dir);
    flags.push_back("-lpolyblocks_runtime");
    flags.push_back("-Wl,-rpath," + dir);
  }
  flags.push_back("-lm");
  return runLinker(objects, flags, "so", "the shared library", written,
                   library);
}

Error linkRelocatableObject(ArrayRef<ArrayRef<char>> objects,
                            SmallVectorImpl<char> &object,
                            function_ref<void()> written) {
  return runLinker(objects, {"-r", "-nostdlib"}, "o", "the object's parts",
                   written, object);
}

} // namespace polyblocks
