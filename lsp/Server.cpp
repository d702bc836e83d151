//===- Server.cpp - The PolyBlocks language server ------------------------===//

#include "Server.h"

#include "Compilation.h"
#include "CompileDatabase.h"
#include "Document.h"
#include "MessageInput.h"
#include "SourceLocations.h"
#include "WorkQueue.h"

#include "polyblocks/Pipelines/Pipelines.h"
#include "polyblocks/Support/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>

namespace json = llvm::json;
namespace lsp = llvm::lsp;
using namespace polyblocks;
using llvm::StringRef;

namespace pblsp {

//===----------------------------------------------------------------------===//
// Messages that llvm/Support/LSP has no types for
//===----------------------------------------------------------------------===//

namespace {
/// Params taken as they come, for messages the server reads itself.
struct RawParams {
  json::Value value = nullptr;
};

struct CodeLensParams {
  lsp::TextDocumentIdentifier textDocument;
};

/// polyblocks/stageIR: {"textDocument": {"uri": ...}, "stage": "s3",
/// "function": "f"}.
struct StageIRParams {
  lsp::TextDocumentIdentifier textDocument;
  std::string stage;
  std::optional<std::string> function;
};

struct ExecuteCommandParams {
  std::string command;
  json::Array arguments;
};

struct ShowDocumentParams {
  lsp::URIForFile uri;
  bool takeFocus = true;
};

struct ShowDocumentResult {
  bool success = false;
};

bool fromJSON(const json::Value &value, RawParams &result, json::Path) {
  result.value = value;
  return true;
}

bool fromJSON(const json::Value &value, CodeLensParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument);
}

bool fromJSON(const json::Value &value, StageIRParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument) &&
         o.map("stage", result.stage) &&
         o.mapOptional("function", result.function);
}

bool fromJSON(const json::Value &value, ExecuteCommandParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("command", result.command))
    return false;
  const json::Value *arguments = value.getAsObject()->get("arguments");
  if (!arguments || arguments->kind() == json::Value::Null)
    return true;
  if (const json::Array *array = arguments->getAsArray()) {
    result.arguments = *array;
    return true;
  }
  path.field("arguments").report("expected an array");
  return false;
}

json::Value toJSON(const ShowDocumentParams &params) {
  return json::Object{{"uri", params.uri.uri()},
                      {"takeFocus", params.takeFocus}};
}

bool fromJSON(const json::Value &value, ShowDocumentResult &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.mapOptional("success", result.success);
}
} // namespace

static llvm::Error makeError(lsp::ErrorCode code, const llvm::Twine &message) {
  return llvm::make_error<lsp::LSPError>(message.str(), code);
}

/// The previews offered as code lenses, with their titles: every stage of
/// the stage table ("S3 optimize"), then LLVM IR and assembly.
static llvm::SmallVector<std::pair<std::string, std::string>> getLensStages() {
  llvm::SmallVector<std::pair<std::string, std::string>> stages;
  for (const polyblocks::StageInfo &info : polyblocks::getStageTable())
    stages.emplace_back(info.id.str(),
                        (info.id.upper() + " " + info.name).str());
  stages.emplace_back("llvm", "LLVM IR");
  stages.emplace_back("asm", "asm");
  return stages;
}

//===----------------------------------------------------------------------===//
// Server::Impl
//===----------------------------------------------------------------------===//

class Server::Impl {
public:
  Impl(lsp::JSONTransport &transport, const mlir::DialectRegistry &registry,
       ServerOptions options);
  ~Impl();
  int run();

private:
  /// An open document: its latest version, and the flag that cancels the
  /// work started for that version.
  struct OpenDocument {
    std::unique_ptr<Document> document;
    std::shared_ptr<std::atomic<bool>> cancelled;
  };

  // Lifecycle.
  void onInitialize(const RawParams &params, lsp::Callback<json::Value> reply);
  void onInitialized(const lsp::InitializedParams &) {}
  void onShutdown(const lsp::NoParams &, lsp::Callback<std::nullptr_t> reply);
  void onInvalidMessage(const RawParams &params,
                        lsp::Callback<json::Value> reply);

  // Documents.
  void onDidOpen(const lsp::DidOpenTextDocumentParams &params);
  void onDidChange(const lsp::DidChangeTextDocumentParams &params);
  void onDidClose(const lsp::DidCloseTextDocumentParams &params);
  void update(const lsp::URIForFile &uri, std::string text, int64_t version);

  // Source questions.
  void onHover(const lsp::TextDocumentPositionParams &params,
               lsp::Callback<json::Value> reply);
  void onDefinition(const lsp::TextDocumentPositionParams &params,
                    lsp::Callback<std::vector<lsp::Location>> reply);
  void onReferences(const lsp::ReferenceParams &params,
                    lsp::Callback<std::vector<lsp::Location>> reply);
  void onDocumentSymbol(const lsp::DocumentSymbolParams &params,
                        lsp::Callback<json::Value> reply);
  void onCodeLens(const CodeLensParams &params,
                  lsp::Callback<json::Value> reply);

  // Stage previews.
  void onStageIR(const StageIRParams &params, lsp::Callback<json::Value> reply);
  void onExecuteCommand(const ExecuteCommandParams &params,
                        lsp::Callback<json::Value> reply);
  /// Renders a stage on the worker and gives the IR to `done`, or an error.
  void renderOnWorker(const lsp::URIForFile &uri, StringRef stage,
                      std::optional<std::string> function,
                      llvm::unique_function<void(llvm::Expected<std::string>,
                                                 const PreviewKind &)>
                          done);
  /// Writes a preview into `dir`; returns its path.
  static llvm::Expected<std::string>
  writePreview(StringRef dir, const lsp::URIForFile &uri,
               const PreviewKind &kind,
               const std::optional<std::string> &function, StringRef ir);

  // Helpers.
  /// The error of a request whose work was cancelled: the document changed
  /// (ask again), or the server is exiting.
  llvm::Error makeCancelledError() const;
  OpenDocument *lookup(const lsp::URIForFile &uri);
  /// A copy of `document` with the flags in force for it; problems with
  /// compile databases are added to `notes` when given.
  Snapshot makeSnapshot(const Document &document,
                        std::vector<lsp::Diagnostic> *notes = nullptr);
  /// The flags in force for `document` (compile database, initialization
  /// options or pbtool's defaults) into `snapshot`'s flag fields.
  void readFlags(const Document &document, Snapshot &snapshot,
                 std::vector<lsp::Diagnostic> *notes);
  bool isTooLargeForPipeline(const Document &document) const {
    return document.getText().size() > options.maxPipelineBytes;
  }
  /// True for the stage previews pb-lsp writes: they are IR of later stages,
  /// not programs to compile.
  bool isPreview(const Document &document) const;
  /// Sets stageDirectory from the options.
  void resolveStageDirectory();
  void publish(const lsp::URIForFile &uri, int64_t version,
               std::vector<lsp::Diagnostic> diagnostics);
  void applyInitializationOptions(const json::Value &value,
                                  std::vector<std::string> &problems);
  /// What S3 made of the snapshot's program: cached per document version,
  /// computed when missing. Worker thread only.
  std::shared_ptr<const ProgramDecisions>
  getDecisions(const Snapshot &snapshot, const std::atomic<bool> &cancelled);

  lsp::JSONTransport &transport;
  const mlir::DialectRegistry &registry;
  ServerOptions options;
  lsp::MessageHandler messages;
  lsp::OutgoingNotification<lsp::PublishDiagnosticsParams> publishDiagnostics;
  lsp::OutgoingNotification<lsp::ShowMessageParams> showMessage;
  lsp::OutgoingRequest<ShowDocumentParams> showDocument;
  std::atomic<int64_t> nextRequestId{1};
  bool clientShowsDocuments = false;
  bool shutdownRequested = false;
  /// Set once the message loop has ended.
  std::atomic<bool> exiting{false};
  /// Where previews go: an absolute path.
  std::string stageDirectory;
  CompileDatabase compileDatabase;

  /// Open documents by URI (main thread only).
  llvm::StringMap<OpenDocument> documents;
  /// Held while publishing diagnostics and while replacing a document, so
  /// that a finished run of an older version never publishes after a newer
  /// version's diagnostics.
  std::mutex publishMutex;

  /// What S3 made of each document, for its latest compiled version (worker
  /// thread only).
  struct CachedDecisions {
    int64_t version = 0;
    std::shared_ptr<const ProgramDecisions> decisions;
  };
  llvm::StringMap<CachedDecisions> decisionsCache;

  /// Destroyed first: its jobs use everything above.
  WorkQueue worker;
};

Server::Impl::Impl(lsp::JSONTransport &transport,
                   const mlir::DialectRegistry &registry, ServerOptions options)
    : transport(transport), registry(registry), options(std::move(options)),
      messages(transport) {
  messages.method("initialize", this, &Impl::onInitialize);
  messages.notification("initialized", this, &Impl::onInitialized);
  messages.method("shutdown", this, &Impl::onShutdown);
  messages.method(kInvalidMessageMethod, this, &Impl::onInvalidMessage);
  messages.notification("textDocument/didOpen", this, &Impl::onDidOpen);
  messages.notification("textDocument/didChange", this, &Impl::onDidChange);
  messages.notification("textDocument/didClose", this, &Impl::onDidClose);
  messages.method("textDocument/hover", this, &Impl::onHover);
  messages.method("textDocument/definition", this, &Impl::onDefinition);
  messages.method("textDocument/references", this, &Impl::onReferences);
  messages.method("textDocument/documentSymbol", this, &Impl::onDocumentSymbol);
  messages.method("textDocument/codeLens", this, &Impl::onCodeLens);
  messages.method("workspace/executeCommand", this, &Impl::onExecuteCommand);
  messages.method("polyblocks/stageIR", this, &Impl::onStageIR);
  publishDiagnostics =
      messages.outgoingNotification<lsp::PublishDiagnosticsParams>(
          "textDocument/publishDiagnostics");
  showMessage = messages.outgoingNotification<lsp::ShowMessageParams>(
      "window/showMessage");
  showDocument =
      messages.outgoingRequest<ShowDocumentParams, ShowDocumentResult>(
          "window/showDocument",
          [](json::Value id, llvm::Expected<ShowDocumentResult> result) {
            if (!result)
              lsp::Logger::error("window/showDocument failed: {0}",
                                 llvm::toString(result.takeError()));
            else if (!result->success)
              lsp::Logger::error("the editor did not show the document");
          });
  compileDatabase.setExplicitPaths(this->options.compileDatabases);
  resolveStageDirectory();
}

void Server::Impl::resolveStageDirectory() {
  llvm::SmallString<256> dir(options.stageDirectory);
  if (dir.empty()) {
    llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, dir);
    llvm::sys::path::append(
        dir, "pb-lsp-" + llvm::Twine(llvm::sys::Process::getProcessId()));
  }
  llvm::sys::fs::make_absolute(dir);
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  stageDirectory = std::string(dir);
}

bool Server::Impl::isPreview(const Document &document) const {
  StringRef file = document.getURI().file();
  if (!file.consume_front(stageDirectory) || file.empty())
    return false;
  return llvm::sys::path::is_separator(file.front());
}

Server::Impl::~Impl() {
  for (auto &entry : documents)
    *entry.second.cancelled = true;
  worker.stop();
}

int Server::Impl::run() {
  llvm::Error error = transport.run(messages);
  exiting = true;
  // Work still queued sees that it is no longer wanted.
  for (auto &entry : documents)
    *entry.second.cancelled = true;
  worker.stop();
  if (error) {
    lsp::Logger::error(
        "pb-lsp: the input ended before an exit notification: {0}",
        llvm::toString(std::move(error)));
    return 1;
  }
  return shutdownRequested ? 0 : 1;
}

llvm::Error Server::Impl::makeCancelledError() const {
  if (exiting)
    return makeError(lsp::ErrorCode::RequestCancelled, "pb-lsp is exiting");
  return makeError(lsp::ErrorCode::ContentModified,
                   "the document changed while this was being computed; ask "
                   "again");
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

/// Reads a list of strings; fails with `problem` set.
static bool readStrings(const json::Value &value, StringRef name,
                        std::vector<std::string> &out,
                        std::vector<std::string> &problems) {
  const json::Array *array = value.getAsArray();
  std::vector<std::string> strings;
  for (const json::Value &item : array ? *array : json::Array()) {
    if (std::optional<StringRef> s = item.getAsString())
      strings.push_back(s->str());
    else
      array = nullptr;
  }
  if (!array) {
    problems.push_back(("initializationOptions." + name +
                        " must be a list of strings; ignored")
                           .str());
    return false;
  }
  out = std::move(strings);
  return true;
}

void Server::Impl::applyInitializationOptions(
    const json::Value &value, std::vector<std::string> &problems) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    // Some clients (Neovim) send an empty table as [].
    const json::Array *array = value.getAsArray();
    if (value.kind() != json::Value::Null && !(array && array->empty()))
      problems.push_back("initializationOptions must be an object; ignored");
    return;
  }
  // In a fixed order, so that the problems are reported in one.
  std::vector<StringRef> keys;
  for (const auto &entry : *object)
    keys.push_back(entry.first);
  llvm::sort(keys);
  for (StringRef key : keys) {
    const json::Value &item = *object->get(key);
    if (key == "compileDatabase") {
      if (std::optional<StringRef> path = item.getAsString())
        options.compileDatabases = {path->str()};
      else
        readStrings(item, key, options.compileDatabases, problems);
    } else if (key == "flags") {
      std::vector<std::string> flags;
      if (!readStrings(item, key, flags, problems))
        continue;
      CompileFlags probe;
      if (llvm::Error err = parseCompileFlags(flags, probe)) {
        problems.push_back("initializationOptions.flags: " +
                           llvm::toString(std::move(err)) + "; ignored");
        continue;
      }
      options.defaultFlags = std::move(flags);
    } else if (key == "stageDirectory") {
      if (std::optional<StringRef> dir = item.getAsString())
        options.stageDirectory = dir->str();
      else
        problems.push_back(
            "initializationOptions.stageDirectory must be a string; ignored");
    } else if (key == "maxDocumentBytes" || key == "maxPipelineBytes") {
      std::optional<int64_t> bytes = item.getAsInteger();
      if (!bytes || *bytes < 0) {
        problems.push_back(("initializationOptions." + key.str() +
                            " must be a number of bytes; ignored"));
        continue;
      }
      (key == "maxDocumentBytes" ? options.maxDocumentBytes
                                 : options.maxPipelineBytes) = *bytes;
    } else {
      problems.push_back(("unknown initializationOptions." + key.str() +
                          " (pb-lsp knows compileDatabase, flags, "
                          "stageDirectory, maxDocumentBytes and "
                          "maxPipelineBytes); ignored"));
    }
  }
  compileDatabase.setExplicitPaths(options.compileDatabases);
  resolveStageDirectory();
}

void Server::Impl::onInitialize(const RawParams &params,
                                lsp::Callback<json::Value> reply) {
  std::vector<std::string> problems;
  // Columns are counted in bytes. A client that can count them so gets
  // incremental changes; others send the whole text on each change, so that
  // a line with non-ASCII text cannot corrupt the server's copy.
  bool utf8 = false;
  if (const json::Object *object = params.value.getAsObject()) {
    if (const json::Value *init = object->get("initializationOptions"))
      applyInitializationOptions(*init, problems);
    if (const json::Object *caps = object->getObject("capabilities")) {
      if (const json::Object *window = caps->getObject("window"))
        if (const json::Object *show = window->getObject("showDocument"))
          clientShowsDocuments = show->getBoolean("support").value_or(false);
      if (const json::Object *general = caps->getObject("general"))
        if (const json::Array *encodings =
                general->getArray("positionEncodings"))
          for (const json::Value &encoding : *encodings)
            utf8 |= encoding.getAsString() == std::optional<StringRef>("utf-8");
    }
  }
  lsp::TextDocumentSyncKind sync = utf8 ? lsp::TextDocumentSyncKind::Incremental
                                        : lsp::TextDocumentSyncKind::Full;
  json::Object capabilities{
      {"textDocumentSync", json::Object{{"openClose", true},
                                        {"change", static_cast<int64_t>(sync)},
                                        {"save", false}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentSymbolProvider", true},
      {"codeLensProvider", json::Object{{"resolveProvider", false}}},
      {"executeCommandProvider",
       json::Object{{"commands", json::Array{kShowStageCommand}}}},
  };
  if (utf8)
    capabilities["positionEncoding"] = "utf-8";
  reply(json::Object{
      {"capabilities", std::move(capabilities)},
      {"serverInfo",
       json::Object{{"name", "pb-lsp"}, {"version", getPolyBlocksVersion()}}}});
  for (const std::string &problem : problems)
    showMessage(lsp::ShowMessageParams(lsp::MessageType::Warning,
                                       "pb-lsp: " + problem));
}

void Server::Impl::onShutdown(const lsp::NoParams &,
                              lsp::Callback<std::nullptr_t> reply) {
  shutdownRequested = true;
  reply(nullptr);
}

void Server::Impl::onInvalidMessage(const RawParams &params,
                                    lsp::Callback<json::Value> reply) {
  const json::Object *object = params.value.getAsObject();
  std::optional<int64_t> code =
      object ? object->getInteger("code") : std::nullopt;
  std::optional<StringRef> message =
      object ? object->getString("message") : std::nullopt;
  reply(makeError(static_cast<lsp::ErrorCode>(code.value_or(
                      static_cast<int64_t>(lsp::ErrorCode::InvalidRequest))),
                  message.value_or("invalid message")));
}

//===----------------------------------------------------------------------===//
// Documents and diagnostics
//===----------------------------------------------------------------------===//

Server::Impl::OpenDocument *Server::Impl::lookup(const lsp::URIForFile &uri) {
  auto it = documents.find(uri.uri());
  if (it != documents.end())
    return &it->second;
  // The same file under another spelling of its URI.
  for (auto &entry : documents)
    if (entry.second.document && entry.second.document->getURI() == uri)
      return &entry.second;
  return nullptr;
}

void Server::Impl::publish(const lsp::URIForFile &uri, int64_t version,
                           std::vector<lsp::Diagnostic> diagnostics) {
  lsp::PublishDiagnosticsParams params(uri, version);
  params.diagnostics = std::move(diagnostics);
  publishDiagnostics(params);
}

Snapshot Server::Impl::makeSnapshot(const Document &document,
                                    std::vector<lsp::Diagnostic> *notes) {
  Snapshot snapshot;
  snapshot.uri = document.getURI();
  snapshot.version = document.getVersion();
  snapshot.text = document.getText();
  readFlags(document, snapshot, notes);
  return snapshot;
}

void Server::Impl::readFlags(const Document &document, Snapshot &snapshot,
                             std::vector<lsp::Diagnostic> *notes) {
  CompileDatabase::LookupResult found =
      compileDatabase.lookup(document.getURI().file());
  if (notes)
    for (const std::string &problem : found.problems)
      notes->push_back(
          makeDocumentDiagnostic(lsp::DiagnosticSeverity::Warning, "pb-lsp",
                                 "cannot read compile database " + problem));

  llvm::ArrayRef<std::string> args = options.defaultFlags;
  std::string origin;
  if (found.command) {
    args = found.command->arguments;
    origin = "`" + found.command->database + "`";
    if (!found.command->kernel.empty())
      origin += " (kernel `" + found.command->kernel + "`)";
  } else {
    origin = args.empty() ? "pbtool's defaults" : "initializationOptions.flags";
    origin += " (no compile database lists this file)";
  }
  std::string shown;
  for (const std::string &arg : args)
    if (StringRef(arg).starts_with("-"))
      shown += (shown.empty() ? "" : " ") + arg;
  snapshot.flagsOrigin = origin + (shown.empty() ? "" : ": `" + shown + "`");
  if (llvm::Error err = parseCompileFlags(args, snapshot.flags))
    snapshot.flagsError = llvm::toString(std::move(err));
}

void Server::Impl::onDidOpen(const lsp::DidOpenTextDocumentParams &params) {
  update(params.textDocument.uri, params.textDocument.text,
         params.textDocument.version);
}

void Server::Impl::onDidChange(const lsp::DidChangeTextDocumentParams &params) {
  OpenDocument *open = lookup(params.textDocument.uri);
  if (!open) {
    lsp::Logger::error("didChange for {0}, which is not open",
                       params.textDocument.uri.uri());
    return;
  }
  std::string text = open->document->getText();
  if (llvm::failed(lsp::TextDocumentContentChangeEvent::applyTo(
          params.contentChanges, text))) {
    // Keep the last text that was known to be right, and say so.
    showMessage(lsp::ShowMessageParams(
        lsp::MessageType::Error,
        "pb-lsp: a change to " + params.textDocument.uri.uri().str() +
            " does not fit the document; close and reopen it"));
    return;
  }
  update(params.textDocument.uri, std::move(text), params.textDocument.version);
}

void Server::Impl::onDidClose(const lsp::DidCloseTextDocumentParams &params) {
  const lsp::URIForFile &uri = params.textDocument.uri;
  {
    std::lock_guard<std::mutex> lock(publishMutex);
    auto it = documents.find(uri.uri());
    if (it == documents.end())
      return;
    *it->second.cancelled = true;
    int64_t version = it->second.document->getVersion();
    documents.erase(it);
    publish(uri, version, {});
  }
  worker.post([this, key = uri.uri().str()] { decisionsCache.erase(key); });
}

/// `first` followed by those of `second` that it does not already hold.
static std::vector<lsp::Diagnostic>
mergeDiagnostics(std::vector<lsp::Diagnostic> first,
                 const std::vector<lsp::Diagnostic> &second) {
  for (const lsp::Diagnostic &diag : second) {
    bool seen = llvm::any_of(first, [&](const lsp::Diagnostic &d) {
      return d.range == diag.range && d.message == diag.message &&
             d.severity == diag.severity;
    });
    if (!seen)
      first.push_back(diag);
  }
  return first;
}

void Server::Impl::update(const lsp::URIForFile &uri, std::string text,
                          int64_t version) {
  auto document = std::make_unique<Document>(registry, uri, std::move(text),
                                             version, options.maxDocumentBytes);
  std::vector<lsp::Diagnostic> diagnostics = document->getDiagnostics();
  std::optional<Snapshot> snapshot;
  if (document->isValid() && !isPreview(*document)) {
    if (isTooLargeForPipeline(*document))
      diagnostics.push_back(makeDocumentDiagnostic(
          lsp::DiagnosticSeverity::Information, "pb-lsp",
          "document too large to compile in the editor (" +
              llvm::Twine(document->getText().size()) +
              " bytes; the limit is " + llvm::Twine(options.maxPipelineBytes) +
              ", see maxPipelineBytes): only parse and verification "
              "diagnostics are shown"));
    else
      snapshot = makeSnapshot(*document, &diagnostics);
  }

  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> lock(publishMutex);
    OpenDocument &open = documents[uri.uri()];
    if (open.cancelled)
      *open.cancelled = true;
    open.document = std::move(document);
    open.cancelled = cancelled;
    publish(uri, version, diagnostics);
  }
  if (!snapshot)
    return;

  // The pipeline's diagnostics follow when it is done, unless a newer
  // version came in meanwhile.
  worker.post([this, snapshot = std::move(*snapshot), cancelled,
               diagnostics = std::move(diagnostics)] {
    if (*cancelled)
      return;
    DiagnosticsRun run =
        runForDiagnostics(snapshot, registry, Stage::S5, *cancelled);
    if (run.cancelled)
      return;
    decisionsCache[snapshot.uri.uri()] = {snapshot.version, run.decisions};
    std::lock_guard<std::mutex> lock(publishMutex);
    if (*cancelled)
      return;
    publish(snapshot.uri, snapshot.version,
            mergeDiagnostics(diagnostics, run.diagnostics));
  });
}

std::shared_ptr<const ProgramDecisions>
Server::Impl::getDecisions(const Snapshot &snapshot,
                           const std::atomic<bool> &cancelled) {
  auto it = decisionsCache.find(snapshot.uri.uri());
  if (it != decisionsCache.end() && it->second.version == snapshot.version)
    return it->second.decisions;
  DiagnosticsRun run =
      runForDiagnostics(snapshot, registry, Stage::S3, cancelled);
  if (run.cancelled)
    return nullptr;
  decisionsCache[snapshot.uri.uri()] = {snapshot.version, run.decisions};
  return run.decisions;
}

//===----------------------------------------------------------------------===//
// Source questions
//===----------------------------------------------------------------------===//

void Server::Impl::onHover(const lsp::TextDocumentPositionParams &params,
                           lsp::Callback<json::Value> reply) {
  OpenDocument *open = lookup(params.textDocument.uri);
  if (!open)
    return reply(nullptr);
  Document &document = *open->document;
  std::optional<lsp::Hover> hover = document.findHover(params.position);
  std::optional<std::string> function =
      document.findFunctionAt(params.position);
  if (!hover || !function || !document.isValid() ||
      isTooLargeForPipeline(document) || isPreview(document))
    return reply(hover ? json::Value(*hover) : json::Value(nullptr));

  // What the compiler decided for the function comes from the worker.
  worker.post([this, snapshot = makeSnapshot(document),
               hover = std::move(*hover), function = std::move(*function),
               cancelled = open->cancelled,
               reply = std::move(reply)]() mutable {
    if (*cancelled)
      return reply(makeCancelledError());
    std::shared_ptr<const ProgramDecisions> decisions =
        getDecisions(snapshot, *cancelled);
    if (!decisions)
      return reply(makeCancelledError());
    hover.contents.value += "\n---\n\n" + renderDecisions(*decisions, function);
    reply(json::Value(hover));
  });
}

void Server::Impl::onDefinition(
    const lsp::TextDocumentPositionParams &params,
    lsp::Callback<std::vector<lsp::Location>> reply) {
  OpenDocument *open = lookup(params.textDocument.uri);
  reply(open ? open->document->findDefinitions(params.position)
             : std::vector<lsp::Location>());
}

void Server::Impl::onReferences(
    const lsp::ReferenceParams &params,
    lsp::Callback<std::vector<lsp::Location>> reply) {
  OpenDocument *open = lookup(params.textDocument.uri);
  if (!open)
    return reply(std::vector<lsp::Location>());
  std::vector<lsp::Location> references =
      open->document->findReferences(params.position);
  // The first location is the definition.
  if (!params.context.includeDeclaration && !references.empty())
    references.erase(references.begin());
  reply(std::move(references));
}

void Server::Impl::onDocumentSymbol(const lsp::DocumentSymbolParams &params,
                                    lsp::Callback<json::Value> reply) {
  OpenDocument *open = lookup(params.textDocument.uri);
  json::Array symbols;
  if (open)
    for (const lsp::DocumentSymbol &symbol : open->document->getSymbols())
      symbols.push_back(symbol);
  reply(std::move(symbols));
}

void Server::Impl::onCodeLens(const CodeLensParams &params,
                              lsp::Callback<json::Value> reply) {
  OpenDocument *open = lookup(params.textDocument.uri);
  json::Array lenses;
  if (open && !isPreview(*open->document)) {
    static const auto lensStages = getLensStages();
    // Plus the device code of the GPU target in force.
    auto stages = lensStages;
    Snapshot flags; // (the flags alone, not the text)
    readFlags(*open->document, flags, /*notes=*/nullptr);
    for (const polyblocks::DeviceCodeKind *device : getDeviceAssemblyPreviews())
      if (polyblocks::getTargetKindName(device->target) == flags.flags.target)
        stages.emplace_back(device->name.str(), device->title.str());
    for (const FunctionSite &function : open->document->getPublicFunctions()) {
      for (const auto &[stage, title] : stages) {
        lenses.push_back(json::Object{
            {"range", function.nameRange},
            {"command", json::Object{{"title", title},
                                     {"command", kShowStageCommand},
                                     {"arguments",
                                      json::Array{params.textDocument.uri.uri(),
                                                  stage, function.name}}}}});
      }
    }
  }
  reply(std::move(lenses));
}

//===----------------------------------------------------------------------===//
// Stage previews
//===----------------------------------------------------------------------===//

void Server::Impl::renderOnWorker(
    const lsp::URIForFile &uri, StringRef stage,
    std::optional<std::string> function,
    llvm::unique_function<void(llvm::Expected<std::string>,
                               const PreviewKind &)>
        done) {
  OpenDocument *open = lookup(uri);
  if (!open)
    return done(makeError(lsp::ErrorCode::InvalidParams,
                          "pb-lsp has no open document " + uri.uri() +
                              " (open it with textDocument/didOpen first)"),
                PreviewKind());
  Document &document = *open->document;
  Snapshot snapshot = makeSnapshot(document);
  llvm::Expected<PreviewKind> kind = parsePreviewKind(stage, snapshot.flags);
  if (!kind)
    return done(kind.takeError(), PreviewKind());
  if (!document.isValid())
    return done(makeError(lsp::ErrorCode::RequestFailed,
                          "the document does not parse or verify, so there is "
                          "no " +
                              kind->id + " IR (see its diagnostics)"),
                *kind);
  if (isPreview(document))
    return done(makeError(lsp::ErrorCode::RequestFailed,
                          "this is a stage preview written by pb-lsp, not a "
                          "program to compile"),
                *kind);
  if (isTooLargeForPipeline(document))
    return done(makeError(lsp::ErrorCode::RequestFailed,
                          "the document is too large to compile in the editor "
                          "(" +
                              llvm::Twine(document.getText().size()) +
                              " bytes; the limit is " +
                              llvm::Twine(options.maxPipelineBytes) +
                              ", see maxPipelineBytes)"),
                *kind);
  worker.post([this, snapshot = std::move(snapshot), kind = std::move(*kind),
               function = std::move(function), cancelled = open->cancelled,
               done = std::move(done)]() mutable {
    if (*cancelled)
      return done(makeCancelledError(), kind);
    llvm::Expected<std::string> ir =
        renderStage(snapshot, registry, kind, function, *cancelled);
    if (*cancelled) {
      if (!ir)
        llvm::consumeError(ir.takeError());
      return done(makeCancelledError(), kind);
    }
    done(std::move(ir), kind);
  });
}

void Server::Impl::onStageIR(const StageIRParams &params,
                             lsp::Callback<json::Value> reply) {
  renderOnWorker(params.textDocument.uri, params.stage, params.function,
                 [reply = std::move(reply)](llvm::Expected<std::string> ir,
                                            const PreviewKind &) mutable {
                   if (!ir)
                     return reply(ir.takeError());
                   reply(json::Object{{"ir", std::move(*ir)}});
                 });
}

llvm::Expected<std::string> Server::Impl::writePreview(
    StringRef dir, const lsp::URIForFile &uri, const PreviewKind &kind,
    const std::optional<std::string> &function, StringRef ir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError(lsp::ErrorCode::RequestFailed,
                     "cannot create the stage directory '" + dir +
                         "': " + ec.message());
  std::optional<StringRef> only;
  if (function)
    only = *function;
  std::string name = getOutputFileName(uri.file(), kind, only);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  if (llvm::Error err = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << ir;
        return llvm::Error::success();
      }))
    return makeError(lsp::ErrorCode::RequestFailed,
                     "cannot write '" + path +
                         "': " + llvm::toString(std::move(err)));
  return std::string(path);
}

void Server::Impl::onExecuteCommand(const ExecuteCommandParams &params,
                                    lsp::Callback<json::Value> reply) {
  if (params.command != kShowStageCommand)
    return reply(makeError(lsp::ErrorCode::InvalidParams,
                           "unknown command '" + params.command +
                               "' (pb-lsp has " + kShowStageCommand + ")"));
  const json::Array &args = params.arguments;
  std::optional<StringRef> uriString =
      args.size() >= 1 ? args[0].getAsString() : std::nullopt;
  std::optional<StringRef> stage =
      args.size() >= 2 ? args[1].getAsString() : std::nullopt;
  std::optional<StringRef> function =
      args.size() == 3 ? args[2].getAsString() : std::nullopt;
  if (!uriString || !stage || args.size() > 3 ||
      (args.size() == 3 && !function))
    return reply(makeError(
        lsp::ErrorCode::InvalidParams,
        llvm::Twine(kShowStageCommand) +
            " takes [uri, stage] or [uri, stage, function] (strings; an "
            "absolute path may stand for the uri)"));
  // An absolute path may stand for the document's URI (for editors whose
  // commands can name the current file but not its URI).
  llvm::Expected<lsp::URIForFile> uri =
      llvm::sys::path::is_absolute(*uriString)
          ? lsp::URIForFile::fromFile(*uriString)
          : lsp::URIForFile::fromURI(*uriString);
  if (!uri)
    return reply(makeError(lsp::ErrorCode::InvalidParams,
                           "bad document URI '" + *uriString +
                               "': " + llvm::toString(uri.takeError())));
  std::optional<std::string> functionName;
  if (function)
    functionName = function->str();
  renderOnWorker(
      *uri, *stage, functionName,
      // The settings are copied: this runs on the worker.
      [this, uri = *uri, functionName, dir = stageDirectory,
       showsDocuments = clientShowsDocuments, reply = std::move(reply)](
          llvm::Expected<std::string> ir, const PreviewKind &kind) mutable {
        if (!ir)
          return reply(ir.takeError());
        llvm::Expected<std::string> path =
            writePreview(dir, uri, kind, functionName, *ir);
        if (!path)
          return reply(path.takeError());
        llvm::Expected<lsp::URIForFile> fileURI =
            lsp::URIForFile::fromFile(*path);
        if (!fileURI)
          return reply(makeError(lsp::ErrorCode::RequestFailed,
                                 "cannot name '" + *path + "' as a URI: " +
                                     llvm::toString(fileURI.takeError())));
        reply(json::Object{{"uri", fileURI->uri()}, {"path", *path}});
        if (showsDocuments)
          showDocument(
              ShowDocumentParams{*fileURI, true},
              json::Value("pb-lsp-" + std::to_string(nextRequestId++)));
        else
          showMessage(lsp::ShowMessageParams(lsp::MessageType::Info,
                                             "pb-lsp: " + kind.id + " of " +
                                                 uri.file().str() +
                                                 " written to " + *path));
      });
}

//===----------------------------------------------------------------------===//
// Server
//===----------------------------------------------------------------------===//

Server::Server(lsp::JSONTransport &transport,
               const mlir::DialectRegistry &registry, ServerOptions options)
    : impl(std::make_unique<Impl>(transport, registry, std::move(options))) {}

Server::~Server() = default;

int Server::run() { return impl->run(); }

} // namespace pblsp
