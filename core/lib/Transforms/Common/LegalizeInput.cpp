//===- LegalizeInput.cpp - Reject programs the pipeline cannot compile ----===//
//
// Runs the input-program checks of KernelInterface as the first pass of S1,
// so that pb-opt, pbtool and the language server report the same located
// errors before any transformation runs.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Interface/KernelInterface.h"
#include "polyblocks/Transforms/Passes.h"

#define DEBUG_TYPE "pb-legalize-input"

namespace polyblocks {
#define GEN_PASS_DEF_PBLEGALIZEINPUT
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct LegalizeInputPass
    : public polyblocks::impl::PBLegalizeInputBase<LegalizeInputPass> {
  void runOnOperation() override {
    if (failed(polyblocks::checkInputProgram(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
