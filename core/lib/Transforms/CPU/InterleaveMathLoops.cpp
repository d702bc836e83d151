//===- InterleaveMathLoops.cpp - Side-by-side vectors for exp, log, ... ---===//
//
// LLVM's loop vectorizer gives a loop of approximated transcendental
// functions (pb-approximate-math's exp, log, erf, ...: 15 to 35 operations
// per element with a dozen or more polynomial coefficients) an interleave
// count of 1, as its register-pressure estimate counts every coefficient,
// and the loop unroller then repeats the vector body in sequence. Each
// vector's dependence chain is long, and one after the other they do not
// fit in the out-of-order window together: the core waits on latencies.
// This pass asks LLVM to interleave such loops (llvm.loop.interleave.count
// on the scf.for, which the lowering to LLVM carries to the loop's latch),
// so that the instructions of several vectors alternate.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "pb-interleave-math-loops"

namespace polyblocks {
#define GEN_PASS_DEF_PBINTERLEAVEMATHLOOPS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The interleave count that suits a loop computing `op`, or 0 for an op
/// that does not call for one: 4 for the f32 functions pb-approximate-math
/// expands, 2 for tanh, whose expansion spills at 4 (measured per function:
/// the pass's description in Passes.td).
unsigned getPreferredInterleave(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32() ||
      !polyblocks::isApproximatedMathOp(name))
    return 0;
  return name == "math.tanh" ? 2 : 4;
}

struct InterleaveMathLoopsPass
    : public polyblocks::impl::PBInterleaveMathLoopsBase<
          InterleaveMathLoopsPass> {
  using PBInterleaveMathLoopsBase::PBInterleaveMathLoopsBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](scf::ForOp loop) {
      // Innermost loops on scalars only: those LLVM vectorizes. A loop
      // PolyBlocks vectorized itself, or one with a region inside, is left
      // as it is.
      unsigned count = 0;
      for (Operation &op : *loop.getBody()) {
        if (op.getNumRegions() != 0 ||
            llvm::any_of(op.getResultTypes(), llvm::IsaPred<VectorType>))
          return;
        if (unsigned preferred = getPreferredInterleave(&op))
          count = count == 0 ? preferred : std::min(count, preferred);
      }
      if (count == 0 || loop->hasAttr(kAnnotationName))
        return;
      // With fewer iterations, the interleaved vector loop (4 x 8 elements
      // per iteration on AVX2) would run once or not at all, the rest
      // falling to its scalar remainder.
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (trips && trips->getZExtValue() < minTripCount)
        return;
      auto interleave = LLVM::LoopInterleaveAttr::get(
          context, IntegerAttr::get(IntegerType::get(context, 32), count));
      loop->setAttr(kAnnotationName,
                    LLVM::LoopAnnotationAttr::get(context, {}, {}, interleave,
                                                  {}, {}, {}, {}, {}, {}, {},
                                                  {}, {}, {}, {}, {}));
      LLVM_DEBUG(llvm::dbgs() << "interleave count " << count << " for "
                              << loop.getLoc() << "\n");
    });
  }

  /// The attribute of scf.for that SCF-to-ControlFlow moves to the loop's
  /// latch branch, where it becomes !llvm.loop.
  static constexpr StringLiteral kAnnotationName = "loop_annotation";
};

} // namespace
