//===- LowerCopies.cpp - memref.copy -> linalg.copy -----------------------===//
//
// Rewrites memref.copy as linalg.copy so that copies become loop nests that
// PolyBlocks generates and optimizes itself, instead of calls to the
// `memrefCopy` runtime function.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "pb-lower-copies"

namespace polyblocks {
#define GEN_PASS_DEF_PBLOWERCOPIES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct LowerCopiesPass
    : public polyblocks::impl::PBLowerCopiesBase<LowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target) {
        copy.emitOpError() << "with unranked operands cannot be lowered";
        return signalPassFailure();
      }
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(),
                             ValueRange{copy.getSource()},
                             ValueRange{copy.getTarget()});
      copy.erase();
    }
  }
};
} // namespace
