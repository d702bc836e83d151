//===- Explain.h - Why each nest got its tiles, fusion and threads -*- C++
//-*-===//
//
// What `pbtool compile --explain` prints and pb-lsp's hover shows: for each
// loop nest of each public function after S3, the decisions the passes
// recorded on it (IR/Decisions.h), located at the source op the nest came
// from.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_EXPLAIN_H
#define POLYBLOCKS_DRIVER_EXPLAIN_H

#include "polyblocks/IR/Decisions.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace polyblocks {

/// One loop nest of a function and what was decided for it.
struct NestExplanation {
  mlir::Operation *root;
  /// "4096 x 1024": the trip counts down the nest's first loops.
  std::string iterations;
  llvm::SmallVector<Decision> decisions;
};

/// The outermost loop nests of `func` (after S3), in order.
std::vector<NestExplanation> explainFunction(mlir::Operation *func);

/// Emits one remark per decision of every nest of every public function of
/// `module`, at the nest's location: "@f, nest 2 (64 x 512): <pass>:
/// <summary>"; a nest without decisions gets one saying so.
void emitExplanationRemarks(mlir::ModuleOp module);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_EXPLAIN_H
