//===- Decisions.h - What the passes decided, recorded in the IR -*- C++
//-*-===//
//
// A pass that shapes a loop nest (its tiles, its fusion, its threads)
// records what it chose, and why, on the nest's outermost loop as an entry
// of the `pb.decisions` attribute, the way IREE records a
// `lowering_config`. `pbtool --explain` and pb-lsp's hover read them
// instead of re-deriving them from the loops, and lit tests check them.
//
//   affine.for %kt = 0 to 1024 step 256 {...} {pb.decisions = [
//     {pass = "pb-register-tile-contraction",
//      summary = "register tile 14 x 32 of f32, k blocks of 256, ...",
//      rows = 14 : i64, columns = 32 : i64, k_block = 256 : i64}]}
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_IR_DECISIONS_H
#define POLYBLOCKS_IR_DECISIONS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace polyblocks {

inline constexpr llvm::StringLiteral kDecisionsAttrName = "pb.decisions";

/// One recorded decision.
struct Decision {
  /// The pass that made it ("pb-register-tile-contraction").
  std::string pass;
  /// What it chose and why, in a sentence.
  std::string summary;
  /// The chosen parameters (rows = 14, ...), for tests and tools.
  mlir::DictionaryAttr fields;
};

/// Appends a decision of `pass` to `op`'s `pb.decisions`. `fields` are
/// integer or string parameters.
void recordDecision(
    mlir::Operation *op, llvm::StringRef pass, llvm::StringRef summary,
    llvm::ArrayRef<std::pair<llvm::StringRef, mlir::Attribute>> fields = {});

/// The decisions recorded on `op`, in the order they were made.
llvm::SmallVector<Decision> getDecisions(mlir::Operation *op);

/// Appends the decisions recorded on `from` to those of `to` (for a pass
/// that replaces a loop by another, or fuses two).
void appendDecisions(mlir::Operation *from, mlir::Operation *to);

} // namespace polyblocks

#endif // POLYBLOCKS_IR_DECISIONS_H
