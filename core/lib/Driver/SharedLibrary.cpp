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

std::string getRuntimeLibraryDir() {
  static int anchor;
  SmallString<256> dir(
      sys::path::parent_path(sys::path::parent_path(sys::fs::getMainExecutable(
          "pbtool", reinterpret_cast<void *>(&anchor)))));
  sys::path::append(dir, "lib");
  return dir.str().str();
}

/// Runs `linker` (the driver, or LLVM's linker itself) with `flags` on
/// `objects`, writing `output`. Fails with the linker's output, naming
/// `what`.
static Error runLinker(StringRef linker, ArrayRef<std::string> objects,
                       ArrayRef<std::string> flags, StringRef output,
                       StringRef what) {
  SmallString<128> logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("polyblocks-link", "log", logPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeLog(logPath);
  std::vector<std::string> args = {linker.str(), "-o", output.str()};
  llvm::append_range(args, objects);
  llvm::append_range(args, flags);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  std::string error;
  int code =
      sys::ExecuteAndWait(linker, argRefs, std::nullopt, redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &error);
  if (code == 0)
    return Error::success();
  std::string log;
  if (auto buffer = MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().trim().str();
  return createStringError(
      inconvertibleErrorCode(),
      "linking " + what + " failed (" + linker + "): " +
          (error.empty() ? "exit code " + std::to_string(code) : error) +
          (log.empty() ? "" : "\n" + log));
}

Error linkSharedLibrary(ArrayRef<std::string> objects,
                        const SharedLibraryOptions &options, StringRef output) {
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
  // LLVM's linker when installed: a network's object is mostly its weights,
  // which it copies 2-3 times faster than the system's.
  StringRef lld = POLYBLOCKS_LD_LLD;
  if (!lld.empty())
    flags.push_back(("--ld-path=" + lld).str());
  return runLinker(getLinkerDriverPath(), objects, flags, output,
                   "the shared library");
}

Error linkRelocatableObject(ArrayRef<std::string> objects, StringRef output) {
  // LLVM's linker itself when installed (a relocatable link needs none of
  // the driver's start files or libraries); else through the driver.
  StringRef lld = POLYBLOCKS_LD_LLD;
  if (!lld.empty())
    return runLinker(lld, objects, {"-r"}, output, "the object's parts");
  return runLinker(getLinkerDriverPath(), objects, {"-r", "-nostdlib"}, output,
                   "the object's parts");
}

} // namespace polyblocks
