//===- SharedLibrary.h - Kernels as a loadable shared library ----*- C++
//-*-===//
//
// `pbtool compile --emit=shared` links the object of a program into a shared
// library that a process loads at run time (the Python package's JIT loads
// it with ctypes): the same entry points as the object, with the libraries
// generated code needs (OpenMP, libm, the GPU runtime) as dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_SHAREDLIBRARY_H
#define POLYBLOCKS_DRIVER_SHAREDLIBRARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace polyblocks {

/// What a shared library of kernels links against.
struct SharedLibraryOptions {
  /// Generated code calls the OpenMP runtime (libomp).
  bool openmp = true;
  /// A GPU target: the kernels call the PolyBlocks runtime, found in
  /// `runtimeDir` (libpolyblocks_runtime.so; empty: getRuntimeLibraryDir).
  bool gpuRuntime = false;
  std::string runtimeDir;
};

/// Where libpolyblocks_runtime.so is: lib/ beside the running tool's bin/,
/// in the build tree and in an installation alike.
std::string getRuntimeLibraryDir();

/// The compiler driver that links shared libraries: LLVM's clang of the
/// toolchain PolyBlocks was built with.
llvm::StringRef getLinkerDriverPath();

/// Links the ELF relocatable objects in the files `objects` into a shared
/// library written to `output`. Fails with the linker's output when it fails.
llvm::Error linkSharedLibrary(llvm::ArrayRef<std::string> objects,
                              const SharedLibraryOptions &options,
                              llvm::StringRef output);

/// Links the objects in the files `objects` into one relocatable object
/// (ld -r) written to `output`: the parts of a program compiled on several
/// threads as the one object of the program.
llvm::Error linkRelocatableObject(llvm::ArrayRef<std::string> objects,
                                  llvm::StringRef output);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_SHAREDLIBRARY_H
