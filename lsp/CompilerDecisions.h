//===- CompilerDecisions.h - What S3 made of each function ------*- C++ -*-===//
//
// Read off the IR that S3 (optimize) leaves for a function: its loop nests,
// each nest's loops with their trip counts and steps (the tile sizes of
// tiled loops), which loops run in parallel and the widest vector type. All
// of it comes from the IR; nothing is estimated. Shown when hovering over a
// function.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_COMPILERDECISIONS_H
#define POLYBLOCKS_LSP_COMPILERDECISIONS_H

#include "polyblocks/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace pblsp {

/// One loop of a nest.
struct LoopSummary {
  std::string opName; ///< "affine.for", "affine.parallel", ...
  unsigned depth = 0; ///< 0 for the outermost loop of the nest
  bool parallel = false;
  /// Trip count per dimension, e.g. "64" or "8x4"; "?" when not constant.
  std::string iterations;
  /// Step per dimension when some step is not 1, e.g. "32".
  std::string steps;
};

/// One loop nest of a function.
struct NestSummary {
  /// The source line the outermost loop comes from (0 if none) and the
  /// operation written there.
  unsigned line = 0;
  std::string sourceOp;
  /// The loops in pre-order.
  std::vector<LoopSummary> loops;
  unsigned depth = 0;
  unsigned numParallel = 0;
  /// What the passes decided for the nest, as they recorded it
  /// (IR/Decisions.h): "<pass>: <summary>".
  std::vector<std::string> decisions;
  /// The widest vector type used in the nest ("" when none) and its bits.
  std::string widestVector;
  uint64_t widestVectorBits = 0;
};

/// What the pipeline made of one function.
struct FunctionDecisions {
  /// Loop nests after S2 (one per linalg op, roughly) and after S3.
  unsigned nestsAfterS2 = 0;
  bool presentAfterS3 = false;
  std::vector<NestSummary> nests;
};

/// What the pipeline made of a whole program, with the options it ran with.
struct ProgramDecisions {
  polyblocks::PipelineOptions options;
  /// Where the flags came from ("defaults", or a compile database).
  std::string flagsOrigin;
  /// Set when the flags could not be turned into options: why.
  std::string flagsError;
  /// Set when the pipeline stopped before the end of S3: the first error.
  std::string failure;
  llvm::StringMap<FunctionDecisions> functions;
};

/// The operation written on each line of the source (the first one on a
/// line), for naming where a loop nest comes from.
using SourceOps = llvm::DenseMap<unsigned, std::string>;
SourceOps collectSourceOps(mlir::ModuleOp module, llvm::StringRef path);

/// Records the loop-nest count of every function after S2.
void recordAfterS2(mlir::ModuleOp module, ProgramDecisions &decisions);
/// Records the loop nests of every function after S3.
void recordAfterS3(mlir::ModuleOp module, llvm::StringRef path,
                   const SourceOps &sourceOps, ProgramDecisions &decisions);

/// Renders what the pipeline made of `function` as Markdown, for a hover.
std::string renderDecisions(const ProgramDecisions &decisions,
                            llvm::StringRef function);

} // namespace pblsp

#endif // POLYBLOCKS_LSP_COMPILERDECISIONS_H
