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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
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

/// Links `objects` (the bytes of ELF relocatable objects) into a shared
/// library whose bytes end in `library`; `written`, if given, is called once
/// the objects are in temporary files (a caller done with them frees them
/// there). Fails with the linker's output when it fails.
llvm::Error linkSharedLibrary(llvm::ArrayRef<llvm::ArrayRef<char>> objects,
                              const SharedLibraryOptions &options,
                              llvm::SmallVectorImpl<char> &library,
                              llvm::function_ref<void()> written = nullptr);

/// Links `objects` into one relocatable object (ld -r) whose bytes end in
/// `object`: the parts of a program compiled on several threads as the one
/// object of the program. `written` is linkSharedLibrary's.
llvm::Error linkRelocatableObject(llvm::ArrayRef<llvm::ArrayRef<char>> objects,
                                  llvm::SmallVectorImpl<char> &object,
                                  llvm::function_ref<void()> written = nullptr);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_SHAREDLIBRARY_H
