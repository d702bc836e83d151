//===- SourceLocations.cpp - MLIR locations and diagnostics in LSP terms --===//

#include "SourceLocations.h"

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
namespace lsp = llvm::lsp;

namespace pblsp {

/// True if `loc` points into the main buffer of `sourceMgr` (its end
/// included).
static bool isInMainBuffer(const llvm::SourceMgr &sourceMgr, SMLoc loc) {
  if (!loc.isValid() || sourceMgr.getNumBuffers() == 0)
    return false;
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return loc.getPointer() >= buffer->getBufferStart() &&
         loc.getPointer() <= buffer->getBufferEnd();
}

static lsp::Position toPosition(const llvm::SourceMgr &sourceMgr, SMLoc loc) {
  auto [line, column] =
      sourceMgr.getLineAndColumn(loc, sourceMgr.getMainFileID());
  return lsp::Position(line - 1, column - 1);
}

std::optional<lsp::Range> toRange(const llvm::SourceMgr &sourceMgr,
                                  SMRange range) {
  if (!isInMainBuffer(sourceMgr, range.Start) ||
      !isInMainBuffer(sourceMgr, range.End) ||
      range.End.getPointer() < range.Start.getPointer())
    return std::nullopt;
  return lsp::Range(toPosition(sourceMgr, range.Start),
                    toPosition(sourceMgr, range.End));
}

SMLoc toSMLoc(llvm::SourceMgr &sourceMgr, lsp::Position position) {
  if (position.line < 0 || position.character < 0 ||
      sourceMgr.getNumBuffers() == 0)
    return SMLoc();
  return sourceMgr.FindLocForLineAndColumn(
      sourceMgr.getMainFileID(), position.line + 1, position.character + 1);
}

/// The range of the token starting at line `line`, column `column` (both
/// from 1) of the main buffer, or of one character when there is no token.
static std::optional<lsp::Range> getTokenRange(const llvm::SourceMgr &sourceMgr,
                                               unsigned line, unsigned column) {
  if (line == 0)
    return std::nullopt;
  lsp::Position start(line - 1, column ? column - 1 : 0);
  lsp::Range range(start, lsp::Position(start.line, start.character + 1));
  // FindLocForLineAndColumn only caches line offsets: it does not change the
  // buffers.
  SMLoc loc = const_cast<llvm::SourceMgr &>(sourceMgr).FindLocForLineAndColumn(
      sourceMgr.getMainFileID(), line, column ? column : 1);
  if (!isInMainBuffer(sourceMgr, loc))
    return range;
  SMRange token = AsmParserState::convertIdLocToRange(loc);
  if (std::optional<lsp::Range> tokenRange = toRange(sourceMgr, token))
    if (tokenRange->end.line == start.line &&
        tokenRange->end.character > start.character)
      range.end = tokenRange->end;
  return range;
}

std::optional<lsp::Range> findRange(Location loc, StringRef path,
                                    const llvm::SourceMgr &sourceMgr) {
  std::optional<lsp::Range> range;
  loc->walk([&](Location nested) {
    auto fileLoc = dyn_cast<FileLineColLoc>(nested);
    if (!fileLoc || fileLoc.getFilename().getValue() != path)
      return WalkResult::advance();
    range = getTokenRange(sourceMgr, fileLoc.getLine(), fileLoc.getColumn());
    return range ? WalkResult::interrupt() : WalkResult::advance();
  });
  return range;
}

/// Longest message passed on: a note that prints a whole failing function
/// can be as long as the file.
static constexpr size_t kMaxMessageLength = 8192;

static std::string limitLength(std::string message) {
  if (message.size() <= kMaxMessageLength)
    return message;
  size_t dropped = message.size() - kMaxMessageLength;
  message.resize(kMaxMessageLength);
  return message + " ... (" + std::to_string(dropped) + " more characters)";
}

static lsp::DiagnosticSeverity convertSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return lsp::DiagnosticSeverity::Error;
  case DiagnosticSeverity::Warning:
    return lsp::DiagnosticSeverity::Warning;
  case DiagnosticSeverity::Remark:
    return lsp::DiagnosticSeverity::Information;
  case DiagnosticSeverity::Note:
    return lsp::DiagnosticSeverity::Hint;
  }
  return lsp::DiagnosticSeverity::Error;
}

lsp::Diagnostic convertDiagnostic(Diagnostic &diag, const lsp::URIForFile &uri,
                                  const llvm::SourceMgr &sourceMgr,
                                  StringRef source) {
  lsp::Diagnostic result;
  result.source = source.str();
  result.severity = convertSeverity(diag.getSeverity());
  result.message = limitLength(diag.str());
  if (std::optional<lsp::Range> range =
          findRange(diag.getLocation(), uri.file(), sourceMgr))
    result.range = *range;

  std::vector<lsp::DiagnosticRelatedInformation> related;
  for (Diagnostic &note : diag.getNotes()) {
    std::optional<lsp::Range> range =
        findRange(note.getLocation(), uri.file(), sourceMgr);
    related.emplace_back(lsp::Location(uri, range.value_or(result.range)),
                         limitLength(note.str()));
  }
  if (!related.empty())
    result.relatedInformation = std::move(related);
  return result;
}

lsp::Diagnostic makeDocumentDiagnostic(lsp::DiagnosticSeverity severity,
                                       StringRef source,
                                       const llvm::Twine &message) {
  lsp::Diagnostic result;
  result.severity = severity;
  result.source = source.str();
  result.message = message.str();
  result.range = lsp::Range(lsp::Position(0, 0), lsp::Position(0, 1));
  return result;
}

} // namespace pblsp
