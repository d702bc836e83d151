//===- CompileFlags.h - The flags that configure a compilation --*- C++ -*-===//
//
// The pbtool flags that choose the target and configure the pipeline
// (--target, --cpu, --cpu-features, --triple, --no-parallel, ...): their
// names, their values as written, and how they become PipelineOptions.
// pbtool binds them to its command line; pb-lsp reads them from the compile
// database that polyblocks_add_kernel writes, so that the editor compiles a
// file exactly as the build does.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_COMPILEFLAGS_H
#define POLYBLOCKS_DRIVER_COMPILEFLAGS_H

#include "polyblocks/Pipelines/Pipelines.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace polyblocks {

/// The names of the pipeline flags, without leading dashes.
namespace flag {
inline constexpr char kTarget[] = "target";
inline constexpr char kCPU[] = "cpu";
inline constexpr char kChip[] = "chip";
inline constexpr char kCPUFeatures[] = "cpu-features";
inline constexpr char kTriple[] = "triple";
inline constexpr char kNoParallel[] = "no-parallel";
inline constexpr char kDropAssertions[] = "drop-assertions";
inline constexpr char kEmulateGPU[] = "emulate-gpu";
inline constexpr char kFuse[] = "fuse";
inline constexpr char kTileCacheSizeKiB[] = "tile-cache-size-kib";
inline constexpr char kL2CacheKiB[] = "l2-cache-kib";
inline constexpr char kExperimentalS3Passes[] = "experimental-s3-passes";
} // namespace flag

/// The values of the pipeline flags as written, before they are checked.
/// The defaults are pbtool's.
struct CompileFlags {
  std::string target = "cpu";
  std::string cpu = "host";
  /// GPU chip; empty = the target's default (sm_80 for nvgpu).
  std::string chip;
  std::string cpuFeatures;
  std::string triple;
  bool noParallel = false;
  bool dropAssertions = false;
  bool emulateGPU = false;
  bool fuse = false;
  unsigned tileCacheSizeKiB = 0;
  /// One core's L2 cache in KiB for S3's cost models; 0 = the host's (read
  /// from the system for --cpu=host), else 512.
  unsigned l2CacheKiB = 0;
  std::string extraS3Passes;
};

/// Reads the pipeline flags of a pbtool command line into `flags` (which
/// keeps its values for flags not given), e.g. an entry of
/// polyblocks_commands.json: {"compile", "--target=cpu", "--cpu=znver3",
/// "--no-parallel"}. Flags are written as pbtool accepts them: one or two
/// leading dashes, the value after '=' or as the next argument. pbtool's
/// other arguments (the command, the input, -o FILE, --header FILE, ...) are
/// skipped. Fails on an unknown flag or a missing or malformed value.
llvm::Error parseCompileFlags(llvm::ArrayRef<std::string> args,
                              CompileFlags &flags);

/// Checks `flags` and turns them into pipeline options: the target is
/// known, --experimental-s3-passes parses, the triple and CPU exist, a chip
/// is named only for a GPU target and is one it knows; S3's CPU parameters
/// (vector width, registers, L1d) are set from the CPU, and the CUDA
/// toolkit is located for nvgpu. The error messages are pbtool's.
llvm::Expected<PipelineOptions>
resolvePipelineOptions(const CompileFlags &flags);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_COMPILEFLAGS_H
