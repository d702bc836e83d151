//===- SharedLibrary.cpp - Kernels as a loadable shared library -----------===//

#include "polyblocks/Driver/SharedLibrary.h"

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

Expected<std::string> linkSharedLibrary(ArrayRef<char> object,
                                        const SharedLibraryOptions &options) {
  Expected<std::string> objectPath =
      writeTemporary("polyblocks-kernel", "o", object);
  if (!objectPath)
    return objectPath.takeError();
  FileRemover removeObject(*objectPath);
  SmallString<128> libraryPath, logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("polyblocks-kernel", "so", libraryPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeLibrary(libraryPath);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("polyblocks-link", "log", logPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeLog(logPath);

  std::string driver = getLinkerDriverPath().str();
  std::vector<std::string> args = {driver, "-shared", "-o",
                                   libraryPath.str().str(), *objectPath};
  // LLVM's linker when installed: a network's object is mostly its weights,
  // which it copies 2-3 times faster than the system's.
  StringRef lld = POLYBLOCKS_LD_LLD;
  if (!lld.empty())
    args.push_back(("--ld-path=" + lld).str());
  if (options.openmp) {
    // The thread pool the object carries starts POSIX threads; loops the
    // pool cannot run fork through OpenMP.
    args.push_back("-pthread");
    StringRef libomp = POLYBLOCKS_LIBOMP_PATH;
    std::string dir = sys::path::parent_path(libomp).str();
    args.push_back(libomp.str());
    args.push_back("-Wl,-rpath," + dir);
  }
  if (options.gpuRuntime) {
    std::string dir = options.runtimeDir.empty() ? getRuntimeLibraryDir()
                                                 : options.runtimeDir;
    args.push_back("-L" + dir);
    args.push_back("-lpolyblocks_runtime");
    args.push_back("-Wl,-rpath," + dir);
  }
  args.push_back("-lm");
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
        "linking the shared library failed (" + driver + "): " +
            (error.empty() ? "exit code " + std::to_string(code) : error) +
            (log.empty() ? "" : "\n" + log));
  }
  auto library = MemoryBuffer::getFile(libraryPath, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  if (!library)
    return createStringError(library.getError(),
                             "cannot read the linked library: " +
                                 library.getError().message());
  return (*library)->getBuffer().str();
}

} // namespace polyblocks
