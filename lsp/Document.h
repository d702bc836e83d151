//===- Document.h - One version of an open .mlir document -------*- C++ -*-===//
//
// The text of one version of a document, parsed and verified in its own
// MLIRContext with the parser state (AsmParserState) kept, which answers
// what the editor asks about the source: hover, definitions, references,
// document symbols and the functions to put code lenses on. Lives on the
// server's main thread; the pipeline runs on a copy of the text elsewhere.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_DOCUMENT_H
#define POLYBLOCKS_LSP_DOCUMENT_H

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pblsp {

/// A public function of the document, where code lenses go.
struct FunctionSite {
  std::string name;
  /// The `@name` of its definition.
  llvm::lsp::Range nameRange;
};

class Document {
public:
  /// Parses and verifies `text`, unless it is longer than `maxBytes` (then
  /// it is only held, with a diagnostic saying so).
  Document(const mlir::DialectRegistry &registry, llvm::lsp::URIForFile uri,
           std::string text, int64_t version, size_t maxBytes);
  ~Document();
  Document(const Document &) = delete;
  Document &operator=(const Document &) = delete;

  const llvm::lsp::URIForFile &getURI() const { return uri; }
  int64_t getVersion() const { return version; }
  const std::string &getText() const { return text; }

  /// Diagnostics from parsing and verification.
  const std::vector<llvm::lsp::Diagnostic> &getDiagnostics() const {
    return diagnostics;
  }
  /// True if the text parsed and verified: only then may the pipeline run.
  bool isValid() const { return valid; }

  /// Hover over an operation, a value, a block or a symbol.
  std::optional<llvm::lsp::Hover> findHover(llvm::lsp::Position position);
  /// The name of the func.func whose definition or symbol use is at
  /// `position` (its `func.func` keyword, its `@name` or a reference to it).
  std::optional<std::string> findFunctionAt(llvm::lsp::Position position);
  /// Definitions of the value, block or symbol at `position`.
  std::vector<llvm::lsp::Location>
  findDefinitions(llvm::lsp::Position position);
  /// The definition and every use of the value, block or symbol at
  /// `position`.
  std::vector<llvm::lsp::Location> findReferences(llvm::lsp::Position position);
  /// Symbols (functions, modules) as a tree.
  std::vector<llvm::lsp::DocumentSymbol> getSymbols();
  /// The public functions, in source order.
  std::vector<FunctionSite> getPublicFunctions();

private:
  const mlir::AsmParserState::OperationDefinition *
  findSymbolDefinition(llvm::SMLoc loc, llvm::SMRange *hit = nullptr);
  llvm::SMRange getSymbolNameRange(
      const mlir::AsmParserState::OperationDefinition &def) const;
  void collectSymbols(mlir::Operation *op,
                      std::vector<llvm::lsp::DocumentSymbol> &symbols);
  llvm::lsp::Hover
  buildOperationHover(llvm::SMRange range,
                      const mlir::AsmParserState::OperationDefinition &def);
  std::optional<llvm::lsp::Range> toRange(llvm::SMRange range) const;

  llvm::lsp::URIForFile uri;
  std::string text;
  int64_t version;
  bool valid = false;
  std::vector<llvm::lsp::Diagnostic> diagnostics;

  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace pblsp

#endif // POLYBLOCKS_LSP_DOCUMENT_H
