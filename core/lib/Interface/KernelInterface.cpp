//===- KernelInterface.cpp - The C interface of compiled kernels ----------===//
//
// Checks that a tensor program can be given the PolyBlocks C interface,
// collects the signatures of its entry points and renders the C header.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Interface/KernelInterface.h"

#include "polyblocks/Analysis/IndexBounds.h"
#include "polyblocks/Support/Version.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace polyblocks {

/// What an input program may hold, as diagnostics say it (the table is
/// kInputDialects below).
static constexpr llvm::StringLiteral kAcceptedOps =
    "PolyBlocks accepts ops from the builtin, func, linalg, tensor, arith, "
    "math, scf, tosa and tm_tensor dialects, and cf.assert";

// The header templates, embedded from templates/ at build time.
#include "polyblocks/Interface/HeaderTemplates.inc"

static const ElementTypeInfo kElementTypes[] = {
    {"f32", "float", "<f4", 4},    {"f64", "double", "<f8", 8},
    {"f16", "uint16_t", "<f2", 2}, {"bf16", "uint16_t", "<u2", 2},
    {"i1", "uint8_t", "|b1", 1},   {"i8", "int8_t", "|i1", 1},
    {"i16", "int16_t", "<i2", 2},  {"i32", "int32_t", "<i4", 4},
    {"i64", "int64_t", "<i8", 8}};

ArrayRef<ElementTypeInfo> getSupportedElementTypes() { return kElementTypes; }

std::optional<ElementTypeInfo> lookupElementType(StringRef mlirName) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (info.mlirName == mlirName)
      return info;
  return std::nullopt;
}

std::optional<ElementTypeInfo> getElementTypeInfo(Type type) {
  std::string name;
  if (type.isF32() || type.isF64() || type.isF16() || type.isBF16() ||
      type.isSignlessInteger()) {
    llvm::raw_string_ostream os(name);
    type.print(os);
  }
  return lookupElementType(name);
}

StringRef getSupportedElementTypesList() {
  return "f32, f64, f16, bf16, i8, i16, i32, i64, i1";
}

int64_t TensorParam::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string TensorParam::getTypeString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (int64_t d : shape)
    os << d << 'x';
  os << elementType;
  return s;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// The position of the quote closing the string that starts at `begin`
/// (escapes skipped), or of the end of its line if it has none. A network's
/// weights come as strings of hex digits: they are scanned for the three
/// characters that matter with memchr, not one byte at a time.
static size_t skipString(StringRef text, size_t begin) {
  size_t i = begin;
  while (i < text.size()) {
    StringRef rest = text.drop_front(i);
    size_t quote = rest.find('"');
    size_t end = std::min(quote, rest.take_front(quote).find('\n'));
    size_t escape = rest.take_front(end).find('\\');
    if (escape == StringRef::npos)
      return end == StringRef::npos ? text.size() : i + end;
    i += escape + 2;
  }
  return text.size();
}

std::optional<size_t> findExcessiveNesting(StringRef text, unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return std::nullopt;
    } else if (c == '"') {
      i = skipString(text, i + 1);
    } else if (c == '(' || c == '[' || c == '{' || (c == '<' && next != '=')) {
      if (++depth > limit)
        return i;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && next != '=' && (i == 0 || text[i - 1] != '-'))) {
      depth = depth ? depth - 1 : 0;
    }
  }
  return std::nullopt;
}

OwningOpRef<ModuleOp> parseKernelSource(const llvm::SourceMgr &sourceMgr,
                                        MLIRContext &context,
                                        AsmParserState *asmState) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getNumBuffers());
  if (std::optional<size_t> offset =
          findExcessiveNesting(buffer->getBuffer(), kMaxBracketNesting)) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        SMLoc::getFromPointer(buffer->getBufferStart() + *offset),
        sourceMgr.getNumBuffers());
    emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(), line,
                                  column))
        << "brackets nest more than " << kMaxBracketNesting
        << " deep here: not parsed (the parser would overflow its stack)";
    return nullptr;
  }
  Block block;
  ParserConfig config(&context);
  {
    // The parser's advice to pass -allow-unregistered-dialect does not apply
    // to a compiler: say what is accepted instead.
    ScopedDiagnosticHandler unregistered(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          !StringRef(diag.str()).contains("-allow-unregistered-dialect"))
        return failure();
      emitError(diag.getLocation())
          << "operation from an unregistered dialect: " << kAcceptedOps;
      return success();
    });
    if (failed(parseAsmSourceFile(sourceMgr, &block, config, asmState)))
      return nullptr;
  }
  if (llvm::hasSingleElement(block) && isa<ModuleOp>(block.front())) {
    auto module = cast<ModuleOp>(block.front());
    module->remove();
    return module;
  }
  StringRef name = sourceMgr.getMemoryBuffer(sourceMgr.getNumBuffers())
                       ->getBufferIdentifier();
  auto module = ModuleOp::create(FileLineColLoc::get(&context, name, 1, 1));
  module.getBody()->getOperations().splice(module.getBody()->begin(),
                                           block.getOperations());
  return module;
}

//===----------------------------------------------------------------------===//
// Input checks
//===----------------------------------------------------------------------===//

static bool isCKeyword(StringRef name) {
  static const llvm::StringSet<> keywords = {
      "auto",      "break",    "case",     "char",    "const",     "continue",
      "default",   "do",       "double",   "else",    "enum",      "extern",
      "float",     "for",      "goto",     "if",      "inline",    "int",
      "long",      "register", "restrict", "return",  "short",     "signed",
      "sizeof",    "static",   "struct",   "switch",  "typedef",   "union",
      "unsigned",  "void",     "volatile", "while",   "bool",      "class",
      "delete",    "new",      "operator", "private", "protected", "public",
      "template",  "this",     "throw",    "try",     "typename",  "virtual",
      "namespace", "using",    "true",     "false",   "nullptr"};
  return keywords.contains(name);
}

/// True if `name` can be a C function name.
static bool isCIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()) || isCKeyword(name))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

static constexpr llvm::StringLiteral kInputDialects[] = {
    "builtin", "func", "linalg", "tensor", "arith", "math", "scf", "tosa",
    // torch-mlir's sort, topk, scan and scatter.
    "tm_tensor"};

/// Of the cf dialect, an input program may only hold run-time checks:
/// cf.assert becomes a checked status (pb-lower-assertions); branches
/// would make functions unstructured.
static bool isAcceptedInputOp(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  return llvm::is_contained(kInputDialects, dialect) || isa<cf::AssertOp>(op);
}

static bool hasDynamicShape(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return !shaped.hasRank() || !shaped.hasStaticShape();
  return false;
}

/// Checks one argument or result type of a public function. `what` is e.g.
/// "argument #0 of @f".
static LogicalResult checkBoundaryType(Type type, Location loc,
                                       const Twine &what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    std::string spelling;
    llvm::raw_string_ostream os(spelling);
    type.print(os);
    return emitError(loc) << what << " has type " << type
                          << ": kernel arguments and results must be ranked "
                             "tensors (use tensor<"
                          << spelling << "> for a scalar)";
  }
  if (!tensor.hasStaticShape()) {
    return emitError(loc) << "dynamic dimension in " << what << ": " << type
                          << " (only static shapes are supported)";
  }
  if (tensor.getEncoding()) {
    return emitError(loc) << what << " has type " << type
                          << ": tensors with an encoding are not supported";
  }
  if (!getElementTypeInfo(tensor.getElementType())) {
    return emitError(loc) << what << " has unsupported element type "
                          << tensor.getElementType()
                          << " (supported: " << getSupportedElementTypesList()
                          << ")";
  }
  return success();
}

static LogicalResult checkFunctionBoundary(func::FuncOp func) {
  bool ok = true;
  if (!isCIdentifier(func.getSymName())) {
    func.emitError() << "public function @" << func.getSymName()
                     << " cannot be a C entry point: its name must be a C "
                        "identifier (letters, digits and '_', not starting "
                        "with a digit) and not a C or C++ keyword";
    ok = false;
  }
  FunctionType type = func.getFunctionType();
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    Location loc =
        func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc();
    ok &= succeeded(checkBoundaryType(
        argType, loc, "argument #" + Twine(i) + " of @" + func.getSymName()));
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults()))
    ok &= succeeded(
        checkBoundaryType(resultType, func.getLoc(),
                          "result #" + Twine(i) + " of @" + func.getSymName()));
  return success(ok);
}

LogicalResult checkInputProgram(ModuleOp module) {
  bool ok = true;
  unsigned numPublic = 0;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    if (isa<ModuleOp>(op)) {
      op->emitError() << "nested modules are not supported: define every "
                         "function in the top-level module";
      ok = false;
      return WalkResult::skip();
    }
    if (!isAcceptedInputOp(op)) {
      op->emitError() << "'" << op->getName()
                      << "' is not supported in an input program: "
                      << kAcceptedOps;
      ok = false;
      return WalkResult::skip();
    }
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (func.isExternal()) {
        func.emitError() << "function @" << func.getSymName()
                         << " has no body: every function of a kernel "
                            "module must be defined in it";
        ok = false;
        return WalkResult::skip();
      }
      if (func.isPublic()) {
        ++numPublic;
        ok &= succeeded(checkFunctionBoundary(func));
      }
    }
    // Dynamic shapes anywhere inside a function.
    for (Value result : op->getResults()) {
      if (hasDynamicShape(result.getType())) {
        op->emitError() << "dynamic dimension in result of '" << op->getName()
                        << "': " << result.getType()
                        << " (only static shapes are supported)";
        ok = false;
        break;
      }
    }
    // Function arguments were checked above, with their names.
    if (isa<func::FuncOp>(op))
      return WalkResult::advance();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (hasDynamicShape(arg.getType())) {
            emitError(arg.getLoc())
                << "dynamic dimension in block argument: " << arg.getType()
                << " (only static shapes are supported)";
            ok = false;
          }
    return WalkResult::advance();
  });
  if (ok && numPublic == 0) {
    emitError(module.getLoc())
        << "the module has no public function: nothing to compile";
    return failure();
  }
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

/// Turns an SSA name (without '%') into a C identifier.
static std::string toCIdentifier(StringRef name, StringRef fallback) {
  std::string id;
  for (char c : name)
    id.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (id.empty() || llvm::isDigit(id.front()))
    return fallback.str();
  if (isCKeyword(id))
    id += '_';
  return id;
}

static TensorParam makeParam(std::string name, Type type, Location loc) {
  auto tensor = cast<RankedTensorType>(type);
  return TensorParam{std::move(name), tensor.getElementType(),
                     llvm::to_vector(tensor.getShape()), loc};
}

std::vector<KernelSignature>
collectKernelSignatures(ModuleOp module, const AsmParserState *asmState) {
  std::vector<KernelSignature> signatures;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    KernelSignature sig{func.getSymName().str(), {}, {}, func.getLoc()};
    const AsmParserState::BlockDefinition *blockDef =
        asmState ? asmState->getBlockDef(&func.getBody().front()) : nullptr;
    llvm::StringSet<> used;
    auto unique = [&](std::string name) {
      std::string candidate = name;
      for (unsigned n = 1; !used.insert(candidate).second; ++n)
        candidate = name + "_" + std::to_string(n);
      return candidate;
    };
    for (BlockArgument arg : func.getArguments()) {
      std::string fallback = "arg" + std::to_string(arg.getArgNumber());
      std::string name = fallback;
      if (blockDef && arg.getArgNumber() < blockDef->arguments.size()) {
        llvm::SMRange range = blockDef->arguments[arg.getArgNumber()].loc;
        StringRef text(range.Start.getPointer(),
                       range.End.getPointer() - range.Start.getPointer());
        name = toCIdentifier(text.ltrim('%'), fallback);
      }
      sig.inputs.push_back(
          makeParam(unique(name), arg.getType(), arg.getLoc()));
      sig.inputs.back().indexBound = inferIndexBound(arg);
    }
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      sig.results.push_back(
          makeParam(unique("result" + std::to_string(i)), type, func.getLoc()));
    signatures.push_back(std::move(sig));
  }
  return signatures;
}

//===----------------------------------------------------------------------===//
// Header rendering
//===----------------------------------------------------------------------===//

/// Replaces every `{{KEY}}` in `tmpl` by its value.
static std::string
fillTemplate(StringRef tmpl,
             ArrayRef<std::pair<StringRef, std::string>> values) {
  std::string out;
  while (!tmpl.empty()) {
    size_t open = tmpl.find("{{");
    if (open == StringRef::npos) {
      out += tmpl.str();
      break;
    }
    out += tmpl.substr(0, open).str();
    size_t close = tmpl.find("}}", open);
    StringRef key = tmpl.slice(open + 2, close);
    const auto *it =
        llvm::find_if(values, [&](auto &kv) { return kv.first == key; });
    assert(it != values.end() && "template placeholder without a value");
    out += it->second;
    tmpl = tmpl.substr(close + 2);
  }
  return out;
}

/// The prefix of the shape macros of `param` of `sig`, e.g. "MLP_X".
static std::string getMacroBase(const KernelSignature &sig,
                                const TensorParam &param) {
  return StringRef(sig.name).upper() + "_" + StringRef(param.name).upper();
}

static std::string renderFunction(const KernelSignature &sig, bool gpu) {
  std::string signature, macros, params;
  llvm::raw_string_ostream sigOs(signature), macroOs(macros), paramOs(params);

  sigOs << "@" << sig.name << "(";
  llvm::interleaveComma(sig.inputs, sigOs, [&](const TensorParam &p) {
    sigOs << "%" << p.name << ": tensor<" << p.getTypeString() << ">";
  });
  sigOs << ") -> (";
  llvm::interleaveComma(sig.results, sigOs, [&](const TensorParam &p) {
    sigOs << "tensor<" << p.getTypeString() << ">";
  });
  sigOs << ")";

  auto addMacros = [&](const TensorParam &p) {
    std::string base = getMacroBase(sig, p);
    macroOs << "#define " << base << "_RANK " << p.shape.size() << "\n";
    for (auto [i, d] : llvm::enumerate(p.shape))
      macroOs << "#define " << base << "_DIM" << i << " " << d << "\n";
    macroOs << "#define " << base << "_SIZE " << p.getNumElements() << "\n";
  };
  for (const TensorParam &p : sig.inputs)
    addMacros(p);
  for (const TensorParam &p : sig.results)
    addMacros(p);

  bool first = true;
  for (const TensorParam &p : sig.inputs) {
    paramOs << (first ? "" : ", ") << "const " << p.getInfo().cName << "* "
            << p.name;
    first = false;
  }
  for (const TensorParam &p : sig.results) {
    paramOs << (first ? "" : ", ") << p.getInfo().cName << "* " << p.name;
    first = false;
  }
  if (gpu) {
    paramOs << (first ? "" : ", ") << "void* stream";
    first = false;
  }
  if (first)
    paramOs << "void";

  return fillTemplate(kKernelFunctionTemplate, {{"SIGNATURE", signature},
                                                {"SHAPE_MACROS", macros},
                                                {"NAME", sig.name},
                                                {"PARAMETERS", params}});
}

LogicalResult checkHeaderNames(ArrayRef<KernelSignature> signatures) {
  llvm::StringMap<std::pair<const KernelSignature *, const TensorParam *>> seen;
  bool ok = true;
  for (const KernelSignature &sig : signatures) {
    for (const auto *params : {&sig.inputs, &sig.results}) {
      for (const TensorParam &param : *params) {
        auto [it, inserted] =
            seen.try_emplace(getMacroBase(sig, param), &sig, &param);
        if (inserted)
          continue;
        auto [otherSig, otherParam] = it->second;
        emitError(param.loc)
            << "the shape macros of %" << param.name << " of @" << sig.name
            << " and of %" << otherParam->name << " of @" << otherSig->name
            << " would both be named " << it->first()
            << "_*: rename one of them";
        ok = false;
      }
    }
  }
  return success(ok);
}

LogicalResult checkLinkableNames(ArrayRef<KernelSignature> signatures) {
  bool ok = true;
  for (const KernelSignature &sig : signatures) {
    if (sig.name != "main")
      continue;
    emitError(sig.loc)
        << "public function @main would be the C symbol 'main', the entry "
           "point of the program that links it: rename the function (from "
           "Python: export(..., function=\"name\"))";
    ok = false;
  }
  return success(ok);
}

std::string renderKernelHeader(ArrayRef<KernelSignature> signatures,
                               StringRef sourceName, StringRef guard,
                               StringRef headerName, StringRef target,
                               bool gpu) {
  std::string functions;
  for (const KernelSignature &sig : signatures)
    functions += renderFunction(sig, gpu);
  std::string targetNotes = gpu ? kKernelHeaderGPUNotesTemplate : "";
  return fillTemplate(kKernelHeaderTemplate,
                      {{"HEADER_NAME", headerName.str()},
                       {"SOURCE", sourceName.str()},
                       {"VERSION", getPolyBlocksVersion()},
                       {"TARGET", target.str()},
                       {"GUARD", guard.str()},
                       {"TARGET_NOTES", targetNotes},
                       {"FUNCTIONS", functions}});
}

std::string renderKernelInterfaceJSON(ArrayRef<KernelSignature> signatures,
                                      StringRef target, bool gpu) {
  auto params = [](ArrayRef<TensorParam> list) {
    llvm::json::Array array;
    for (const TensorParam &p : list) {
      llvm::json::Object param{{"name", p.name},
                               {"dtype", p.getInfo().mlirName},
                               {"shape", llvm::json::Array(p.shape)}};
      if (p.indexBound)
        param["index_bound"] = *p.indexBound;
      array.push_back(std::move(param));
    }
    return array;
  };
  llvm::json::Array functions;
  for (const KernelSignature &sig : signatures)
    functions.push_back(llvm::json::Object{{"name", sig.name},
                                           {"inputs", params(sig.inputs)},
                                           {"results", params(sig.results)}});
  llvm::json::Object root{{"format", 1},
                          {"version", getPolyBlocksVersion()},
                          {"target", target},
                          {"gpu", gpu},
                          {"functions", std::move(functions)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return out;
}

std::string makeIncludeGuard(StringRef headerFileName) {
  std::string guard = "POLYBLOCKS_";
  for (char c : headerFileName)
    guard.push_back(llvm::isAlnum(c) ? llvm::toUpper(c) : '_');
  return guard;
}

} // namespace polyblocks
