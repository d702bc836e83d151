//===- Rewrites.h - Patterns applied to the ops they rewrite ----*- C++ -*-===//
//
// Passes whose patterns rewrite a few kinds of op (bf16 conversions, math
// functions) in a program of hundreds of thousands of other ops apply them
// to those ops alone, not by a greedy rewrite of the whole program.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_UTILS_REWRITES_H
#define POLYBLOCKS_TRANSFORMS_UTILS_REWRITES_H

#include "mlir/IR/Operation.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace polyblocks {

/// Applies `patterns` greedily to the ops under `root` that are the root
/// of one of them, and to the ops those rewrites create; no other op is
/// folded or simplified. A set with a pattern that matches any op is
/// applied to every op under `root`.
mlir::LogicalResult
applyPatternsToRootOps(mlir::Operation *root,
                       const mlir::FrozenRewritePatternSet &patterns);

} // namespace polyblocks

#endif // POLYBLOCKS_TRANSFORMS_UTILS_REWRITES_H
