//===- SourceLocations.h - MLIR locations and diagnostics in LSP terms ----===//
//
// Source ranges, MLIR locations and MLIR diagnostics about an open document,
// turned into the protocol's positions, ranges and diagnostics. Used for the
// parser's diagnostics on the main thread and for the pipeline's in the
// worker, each with its own copy of the document's text.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_SOURCELOCATIONS_H
#define POLYBLOCKS_LSP_SOURCELOCATIONS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <vector>

namespace pblsp {

/// The protocol range of `range` in the main buffer of `sourceMgr`, or
/// nullopt when `range` does not lie in it.
std::optional<llvm::lsp::Range> toRange(const llvm::SourceMgr &sourceMgr,
                                        llvm::SMRange range);

/// The source location of `position` in the main buffer, or an invalid one
/// when it lies outside the text.
llvm::SMLoc toSMLoc(llvm::SourceMgr &sourceMgr, llvm::lsp::Position position);

/// The range of the first file location in `loc` (walking fused, call-site
/// and named locations) that lies in the main buffer of `sourceMgr`, whose
/// identifier is `path`: the token at that place, or one character.
std::optional<llvm::lsp::Range> findRange(mlir::Location loc,
                                          llvm::StringRef path,
                                          const llvm::SourceMgr &sourceMgr);

/// Converts `diag`, reported while compiling the document `uri` held by
/// `sourceMgr`, into a protocol diagnostic: located at its first location in
/// the document (else at the start of the document), its notes turned into
/// related information. `source` says what reported it.
llvm::lsp::Diagnostic convertDiagnostic(mlir::Diagnostic &diag,
                                        const llvm::lsp::URIForFile &uri,
                                        const llvm::SourceMgr &sourceMgr,
                                        llvm::StringRef source);

/// A diagnostic for the whole document (at its first character).
llvm::lsp::Diagnostic
makeDocumentDiagnostic(llvm::lsp::DiagnosticSeverity severity,
                       llvm::StringRef source, const llvm::Twine &message);

} // namespace pblsp

#endif // POLYBLOCKS_LSP_SOURCELOCATIONS_H
