//===- ResourceSection.h - Weights read without the lexer -------*- C++ -*-===//
//
// torch-mlir and jaxlib write a network's weights as the builtin dialect's
// resources, hex strings in the section that ends the text:
//
//   {-#
//     dialect_resources: {
//       builtin: {
//         torch_tensor_64_torch.float32: "0x04000000...",
//         ...
//       }
//     }
//   #-}
//
// Twice the weights' size in characters, most of the text. The MLIR parser
// lexes each string character by character, then decodes it into a copy,
// then copies it into its blob (bench/RESULTS.md, compile time, ninth
// step: most of the parse of a network). This reads that section alone and
// decodes each string straight into its blob; the parser reads the IR before
// it. A section in any other form is left to the parser, which also reports
// what is wrong with it.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_RESOURCESECTION_H
#define POLYBLOCKS_DRIVER_RESOURCESECTION_H

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace polyblocks {

/// The builtin dialect's resources of a text, decoded.
struct BuiltinResources {
  /// The size of the text before the section (the IR).
  size_t irSize = 0;
  /// Each resource's key and blob, in the section's order.
  std::vector<std::pair<std::string, mlir::AsmResourceBlob>> blobs;
};

/// Decodes the section of `text` that holds the builtin dialect's resources
/// and nothing else, when the text ends with one. Nothing when it has none,
/// or the section is in a form this does not read (other dialects' or
/// external resources, quoted keys, a string that is not a blob's hex with
/// a power-of-2 alignment first): the parser reads those. Nothing too, and
/// no string decoded, when `context` already holds a builtin resource of
/// one of the section's keys (a text parsed before into it): the parser
/// then gives the IR's resources new keys, which only it knows.
std::optional<BuiltinResources>
decodeBuiltinResources(llvm::StringRef text,
                       mlir::MLIRContext *context = nullptr);

/// Gives `resources`' blobs to the builtin dialect of `context` once the IR
/// before the section is parsed, as the parser would have had it read the
/// section: each to the resource of its key, made if the IR does not name
/// it. `resources` is left without blobs.
void attachBuiltinResources(mlir::MLIRContext &context,
                            BuiltinResources &resources);

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_RESOURCESECTION_H
