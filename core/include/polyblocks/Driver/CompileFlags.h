//===- CompileFlags.h - The flags that configure a compilation --*- C++ -*-===//
//
// The flags that choose the target and configure the pipeline (--target,
// --cpu, --no-parallel, --l2-cache-kib, ...), each declared once, in one
// table (getCompileFlagTable): its name, its kind, its help text and where
// its value lives. The table is bound to pbtool's command line, to the
// options of the textual stage pipelines (pb-s3-pipeline{cpu=... no-parallel})
// and to the compile database that polyblocks_add_kernel writes and pb-lsp
// reads; resolvePipelineOptions is the one place that turns the values into
// PipelineOptions.
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
  bool noWinograd = false;
  bool verifyEach = false;
  bool emulateGPU = false;
  /// Overrides of the machine model (0 = from the CPU: its vectors and
  /// registers; for --cpu=host its caches and threads, else the model's
  /// defaults).
  unsigned vectorBits = 0;
  unsigned vectorRegisters = 0;
  unsigned l1CacheKiB = 0;
  unsigned l2CacheKiB = 0;
  unsigned l3CacheKiB = 0;
  unsigned threads = 0;
  unsigned codegenThreads = 0;
  // Experimental switches.
  bool fuse = false;
  unsigned tileCacheSizeKiB = 0;
  std::string extraS3Passes;
};

/// One flag of the table.
struct FlagInfo {
  enum class Kind { Bool, Unsigned, String };
  llvm::StringLiteral name; ///< without dashes: "l2-cache-kib"
  Kind kind;
  llvm::StringLiteral help;
  /// Where the value lives (one of them, as `kind` says).
  bool CompileFlags::*boolField = nullptr;
  unsigned CompileFlags::*unsignedField = nullptr;
  std::string CompileFlags::*stringField = nullptr;
  /// Only for commands that emit code, not for those that run it in
  /// process (pbtool run, crosscheck, bench).
  bool emitOnly = false;
  /// Left out of --help (experimental).
  bool hidden = false;
};

/// Every pipeline flag, once.
llvm::ArrayRef<FlagInfo> getCompileFlagTable();

/// Sets flag `info` of `flags` from `value` as written ("true", "256",
/// "skylake-avx512"; a boolean flag given alone is `true`). Fails with a
/// message for a malformed value.
llvm::Error setFlag(const FlagInfo &info, llvm::StringRef value,
                    CompileFlags &flags);

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
/// is named only for a GPU target and is one it knows; the machine model
/// is set from the CPU (vector width, registers; caches and threads of the
/// host) and the overrides, and the GPU toolkit is located. The error
/// messages are pbtool's.
///
/// With `forTextualPipeline`, an empty `cpu` means the machine model's
/// defaults (no CPU is looked up: lit tests stay independent of the host),
/// and a missing GPU toolkit is not an error until S5 needs it.
llvm::Expected<PipelineOptions>
resolvePipelineOptions(const CompileFlags &flags,
                       bool forTextualPipeline = false);

/// Registers the stage pipelines (pb-s1-pipeline ... pb-s5-pipeline,
/// pb-reference-pipeline) as textual pipelines whose options are the flags
/// of the table: pb-s3-pipeline{cpu=skylake-avx512 no-parallel}. Their
/// `cpu` defaults to the machine model's defaults, not to the host.
void registerStagePipelines();

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_COMPILEFLAGS_H
