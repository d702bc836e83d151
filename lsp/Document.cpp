//===- Document.cpp - One version of an open .mlir document ---------------===//

#include "Document.h"

#include "SourceLocations.h"

#include "polyblocks/Interface/KernelInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace polyblocks;
namespace lsp = llvm::lsp;

namespace pblsp {

/// True if `loc` lies in `range`, its end included (the cursor right after
/// a name still names it).
static bool contains(SMRange range, SMLoc loc) {
  return range.isValid() && range.Start.getPointer() <= loc.getPointer() &&
         loc.getPointer() <= range.End.getPointer();
}

/// True if `loc` lies in the definition or a use of `def`; `hit` is set to
/// the range it lies in.
static bool isDefOrUse(const AsmParserState::SMDefinition &def, SMLoc loc,
                       SMRange *hit = nullptr) {
  if (contains(def.loc, loc)) {
    if (hit)
      *hit = def.loc;
    return true;
  }
  for (SMRange use : def.uses) {
    if (contains(use, loc)) {
      if (hit)
        *hit = use;
      return true;
    }
  }
  return false;
}

static unsigned getBlockNumber(Block *block) {
  return std::distance(block->getParent()->begin(), block->getIterator());
}

Document::Document(const DialectRegistry &registry, lsp::URIForFile uri,
                   std::string text, int64_t version, size_t maxBytes)
    : uri(std::move(uri)), text(std::move(text)), version(version) {
  if (this->text.size() > maxBytes) {
    diagnostics.push_back(makeDocumentDiagnostic(
        lsp::DiagnosticSeverity::Information, "pb-lsp",
        "document too large for pb-lsp (" + llvm::Twine(this->text.size()) +
            " bytes; the limit is " + llvm::Twine(maxBytes) + "): not parsed"));
    return;
  }
  context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(this->text, this->uri.file()),
      SMLoc());
  if (std::optional<size_t> offset =
          findExcessiveNesting(this->text, kMaxBracketNesting)) {
    SMLoc loc = SMLoc::getFromPointer(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferStart() +
        *offset);
    lsp::Diagnostic diag = makeDocumentDiagnostic(
        lsp::DiagnosticSeverity::Error, "pb-lsp",
        "brackets nest more than " + llvm::Twine(kMaxBracketNesting) +
            " deep here: pb-lsp does not parse this document");
    if (std::optional<lsp::Range> range = toRange(SMRange(loc, loc)))
      diag.range =
          lsp::Range(range->start, lsp::Position(range->start.line,
                                                 range->start.character + 1));
    diagnostics.push_back(std::move(diag));
    return;
  }
  ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
    diagnostics.push_back(
        convertDiagnostic(diag, this->uri, sourceMgr, "mlir"));
  });
  module = parseKernelSource(sourceMgr, *context, &asmState);
  if (!module) {
    // The state refers to operations that no longer exist.
    asmState = AsmParserState();
    return;
  }
  valid = succeeded(verify(*module));
}

Document::~Document() = default;

std::optional<lsp::Range> Document::toRange(SMRange range) const {
  return pblsp::toRange(sourceMgr, range);
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

SMRange Document::getSymbolNameRange(
    const AsmParserState::OperationDefinition &def) const {
  auto symbol = dyn_cast<SymbolOpInterface>(def.op);
  if (!symbol || !def.scopeLoc.isValid() || !def.loc.isValid())
    return SMRange();
  // The name follows the operation name: `func.func private @name(...)`.
  StringRef rest(def.loc.End.getPointer(),
                 def.scopeLoc.End.getPointer() - def.loc.End.getPointer());
  std::string name = ("@" + symbol.getName()).str();
  for (size_t pos = rest.find(name); pos != StringRef::npos;
       pos = rest.find(name, pos + 1)) {
    StringRef after = rest.drop_front(pos + name.size());
    if (!after.empty() && (llvm::isAlnum(after.front()) ||
                           StringRef("_$.-").contains(after.front())))
      continue;
    const char *start = rest.data() + pos;
    return SMRange(SMLoc::getFromPointer(start),
                   SMLoc::getFromPointer(start + name.size()));
  }
  return SMRange();
}

const AsmParserState::OperationDefinition *
Document::findSymbolDefinition(SMLoc loc, SMRange *hit) {
  for (const AsmParserState::OperationDefinition &def : asmState.getOpDefs()) {
    SMRange nameRange = getSymbolNameRange(def);
    if (contains(nameRange, loc)) {
      if (hit)
        *hit = nameRange;
      return &def;
    }
    for (SMRange use : def.symbolUses) {
      if (contains(use, loc)) {
        if (hit)
          *hit = use;
        return &def;
      }
    }
  }
  return nullptr;
}

std::optional<std::string> Document::findFunctionAt(lsp::Position position) {
  SMLoc loc = toSMLoc(sourceMgr, position);
  if (!module || !loc.isValid())
    return std::nullopt;
  const AsmParserState::OperationDefinition *def = findSymbolDefinition(loc);
  if (!def) {
    for (const AsmParserState::OperationDefinition &op : asmState.getOpDefs())
      if (contains(op.loc, loc))
        def = &op;
  }
  if (auto func = def ? dyn_cast<func::FuncOp>(def->op) : nullptr)
    return func.getSymName().str();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Hover
//===----------------------------------------------------------------------===//

lsp::Hover
Document::buildOperationHover(SMRange range,
                              const AsmParserState::OperationDefinition &def) {
  lsp::Hover hover(toRange(range).value_or(lsp::Range()));
  llvm::raw_string_ostream os(hover.contents.value);
  Operation *op = def.op;
  os << "\"" << op->getName() << "\"";
  if (auto symbol = dyn_cast<SymbolOpInterface>(op))
    os << " : " << symbol.getVisibility() << " @" << symbol.getName();
  os << "\n\n";
  if (auto function = dyn_cast<FunctionOpInterface>(op)) {
    os << "Type: `" << function.getFunctionType() << "`\n\n";
    return hover;
  }
  os << "Generic form:\n\n```mlir\n";
  // Print without the regions, which can be as long as the whole file.
  SmallVector<std::unique_ptr<Region>> regions;
  for (Region &region : op->getRegions()) {
    regions.push_back(std::make_unique<Region>());
    regions.back()->takeBody(region);
  }
  std::string generic;
  llvm::raw_string_ostream genericStream(generic);
  op->print(genericStream, OpPrintingFlags()
                               .printGenericOpForm()
                               .elideLargeElementsAttrs()
                               .assumeVerified());
  for (auto [region, body] : llvm::zip(op->getRegions(), regions))
    region.takeBody(*body);
  os << StringRef(generic).rtrim() << "\n```\n";
  return hover;
}

/// The result number that the use at `hit` names with `%name#N`, if any.
static std::optional<unsigned> getResultNumber(SMRange hit) {
  // The buffer is null-terminated: the scan stops at its end.
  const char *p = hit.Start.getPointer();
  while (llvm::isAlnum(*p) || StringRef("%$._-").contains(*p))
    ++p;
  if (*p != '#')
    return std::nullopt;
  const char *digits = ++p;
  while (llvm::isDigit(*p))
    ++p;
  unsigned number;
  if (StringRef(digits, p - digits).getAsInteger(10, number))
    return std::nullopt;
  return number;
}

std::optional<lsp::Hover> Document::findHover(lsp::Position position) {
  SMLoc loc = toSMLoc(sourceMgr, position);
  if (!module || !loc.isValid())
    return std::nullopt;
  SMRange hit;
  for (const AsmParserState::OperationDefinition &def : asmState.getOpDefs()) {
    if (contains(def.loc, loc))
      return buildOperationHover(def.loc, def);
  }
  if (const AsmParserState::OperationDefinition *def =
          findSymbolDefinition(loc, &hit))
    return buildOperationHover(hit, *def);

  for (const AsmParserState::OperationDefinition &def : asmState.getOpDefs()) {
    for (auto [i, group] : llvm::enumerate(def.resultGroups)) {
      if (!isDefOrUse(group.definition, loc, &hit))
        continue;
      Operation *op = def.op;
      unsigned begin = group.startIndex;
      unsigned end = i + 1 < def.resultGroups.size()
                         ? def.resultGroups[i + 1].startIndex
                         : op->getNumResults();
      if (std::optional<unsigned> number = getResultNumber(hit))
        if (begin + *number < end) {
          begin += *number;
          end = begin + 1;
        }
      lsp::Hover hover(toRange(hit).value_or(lsp::Range()));
      llvm::raw_string_ostream os(hover.contents.value);
      os << "Operation: \"" << op->getName() << "\"\n\n";
      if (begin + 1 == end) {
        os << "Result #" << begin << "\n\nType: `"
           << op->getResult(begin).getType() << "`\n";
      } else {
        os << "Results #" << begin << " to #" << (end - 1) << "\n\nTypes: ";
        llvm::interleaveComma(
            op->getResults().slice(begin, end - begin), os,
            [&](Value v) { os << "`" << v.getType() << "`"; });
        os << "\n";
      }
      return hover;
    }
  }

  for (const AsmParserState::BlockDefinition &block : asmState.getBlockDefs()) {
    Operation *parent = block.block->getParentOp();
    if (isDefOrUse(block.definition, loc, &hit)) {
      lsp::Hover hover(toRange(hit).value_or(lsp::Range()));
      llvm::raw_string_ostream os(hover.contents.value);
      os << "Operation: \"" << parent->getName() << "\"\n\nBlock #"
         << getBlockNumber(block.block) << "\n";
      return hover;
    }
    for (auto [i, arg] : llvm::enumerate(block.arguments)) {
      if (!isDefOrUse(arg, loc, &hit))
        continue;
      lsp::Hover hover(toRange(hit).value_or(lsp::Range()));
      llvm::raw_string_ostream os(hover.contents.value);
      os << "Operation: \"" << parent->getName() << "\"\n\nBlock #"
         << getBlockNumber(block.block) << ", argument #" << i << "\n\nType: `"
         << block.block->getArgument(i).getType() << "`\n";
      return hover;
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Definitions and references
//===----------------------------------------------------------------------===//

std::vector<lsp::Location> Document::findDefinitions(lsp::Position position) {
  std::vector<lsp::Location> locations;
  SMLoc loc = toSMLoc(sourceMgr, position);
  if (!module || !loc.isValid())
    return locations;
  auto add = [&](SMRange range) {
    if (std::optional<lsp::Range> r = toRange(range))
      locations.emplace_back(uri, *r);
  };
  if (const AsmParserState::OperationDefinition *def =
          findSymbolDefinition(loc)) {
    SMRange name = getSymbolNameRange(*def);
    add(name.isValid() ? name : def->loc);
    return locations;
  }
  for (const AsmParserState::OperationDefinition &def : asmState.getOpDefs())
    for (const auto &group : def.resultGroups)
      if (isDefOrUse(group.definition, loc)) {
        add(group.definition.loc);
        return locations;
      }
  for (const AsmParserState::BlockDefinition &block : asmState.getBlockDefs()) {
    if (isDefOrUse(block.definition, loc)) {
      add(block.definition.loc);
      return locations;
    }
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (isDefOrUse(arg, loc)) {
        add(arg.loc);
        return locations;
      }
  }
  return locations;
}

std::vector<lsp::Location> Document::findReferences(lsp::Position position) {
  std::vector<lsp::Location> locations;
  SMLoc loc = toSMLoc(sourceMgr, position);
  if (!module || !loc.isValid())
    return locations;
  auto add = [&](SMRange range) {
    if (std::optional<lsp::Range> r = toRange(range))
      locations.emplace_back(uri, *r);
  };
  auto addAll = [&](const AsmParserState::SMDefinition &def) {
    add(def.loc);
    for (SMRange use : def.uses)
      add(use);
  };
  if (const AsmParserState::OperationDefinition *def =
          findSymbolDefinition(loc)) {
    // The parser counts the name of the definition among the uses.
    SMRange name = getSymbolNameRange(*def);
    add(name.isValid() ? name : def->loc);
    for (SMRange use : def->symbolUses)
      if (use.Start != name.Start || use.End != name.End)
        add(use);
    return locations;
  }
  for (const AsmParserState::OperationDefinition &def : asmState.getOpDefs())
    for (const auto &group : def.resultGroups)
      if (isDefOrUse(group.definition, loc)) {
        addAll(group.definition);
        return locations;
      }
  for (const AsmParserState::BlockDefinition &block : asmState.getBlockDefs()) {
    if (isDefOrUse(block.definition, loc)) {
      addAll(block.definition);
      return locations;
    }
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (isDefOrUse(arg, loc)) {
        addAll(arg);
        return locations;
      }
  }
  return locations;
}

//===----------------------------------------------------------------------===//
// Document symbols and functions
//===----------------------------------------------------------------------===//

void Document::collectSymbols(Operation *op,
                              std::vector<lsp::DocumentSymbol> &symbols) {
  std::vector<lsp::DocumentSymbol> *children = &symbols;
  if (const AsmParserState::OperationDefinition *def = asmState.getOpDef(op)) {
    std::optional<lsp::Range> range = toRange(def->scopeLoc);
    SMRange nameRange = getSymbolNameRange(*def);
    std::optional<lsp::Range> selection =
        toRange(nameRange.isValid() ? nameRange : def->loc);
    if (range && selection) {
      if (auto symbol = dyn_cast<SymbolOpInterface>(op)) {
        symbols.emplace_back(symbol.getName(),
                             isa<FunctionOpInterface>(op)
                                 ? lsp::SymbolKind::Function
                                 : lsp::SymbolKind::Class,
                             *range, *selection);
        if (auto function = dyn_cast<FunctionOpInterface>(op))
          llvm::raw_string_ostream(symbols.back().detail)
              << function.getFunctionType();
        children = &symbols.back().children;
      } else if (op->hasTrait<OpTrait::SymbolTable>()) {
        symbols.emplace_back("<" + op->getName().getStringRef() + ">",
                             lsp::SymbolKind::Namespace, *range, *selection);
        children = &symbols.back().children;
      }
    }
  }
  for (Region &region : op->getRegions())
    for (Operation &child : region.getOps())
      collectSymbols(&child, *children);
}

std::vector<lsp::DocumentSymbol> Document::getSymbols() {
  std::vector<lsp::DocumentSymbol> symbols;
  if (!module)
    return symbols;
  // A module written in the file is a symbol; one wrapped around loose ops
  // is not.
  if (asmState.getOpDef(*module))
    collectSymbols(*module, symbols);
  else
    for (Operation &op : module->getBody()->getOperations())
      collectSymbols(&op, symbols);
  return symbols;
}

std::vector<FunctionSite> Document::getPublicFunctions() {
  std::vector<FunctionSite> functions;
  if (!module)
    return functions;
  module->walk([&](func::FuncOp func) {
    if (!func.isPublic() || func.isExternal())
      return;
    const AsmParserState::OperationDefinition *def = asmState.getOpDef(func);
    if (!def)
      return;
    SMRange name = getSymbolNameRange(*def);
    if (std::optional<lsp::Range> range =
            toRange(name.isValid() ? name : def->loc))
      functions.push_back({func.getSymName().str(), *range});
  });
  return functions;
}

} // namespace pblsp
