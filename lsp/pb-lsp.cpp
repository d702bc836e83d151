//===- pb-lsp.cpp - The PolyBlocks language server ------------------------===//
//
// A language server for tensor programs over stdio, for any editor that
// speaks LSP. It understands exactly what pbtool understands (the same
// dialect registry, program checks and stages) and shows what the compiler
// makes of a file: parse, verification and pipeline diagnostics, the IR of
// any stage (the `polyblocks/stageIR` request and the `polyblocks.showStage`
// command), what S3 decided for a function on hover, plus definitions,
// references and document symbols.
//
// Exit codes: 0 after shutdown and exit; 1 when the client exits without
// shutting down or the input ends first.
//
//===----------------------------------------------------------------------===//

#include "MessageInput.h"
#include "Server.h"

#include "polyblocks/InitAll.h"
#include "polyblocks/Support/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Transport.h"

#include <cstdio>

namespace cl = llvm::cl;
namespace lsp = llvm::lsp;

static cl::OptionCategory lspCategory("pb-lsp options");

static cl::opt<bool> litTest(
    "lit-test",
    cl::desc("test mode: messages are separated by '// -----' lines instead "
             "of Content-Length headers, replies are pretty-printed and "
             "test:// URIs are accepted"),
    cl::cat(lspCategory));
static cl::opt<bool> pretty("pretty", cl::desc("pretty-print replies"),
                            cl::cat(lspCategory));
static cl::opt<lsp::Logger::Level> logLevel(
    "log", cl::desc("what to log on standard error (default: error)"),
    cl::values(clEnumValN(lsp::Logger::Level::Error, "error", "errors only"),
               clEnumValN(lsp::Logger::Level::Info, "info",
                          "every message received and sent"),
               clEnumValN(lsp::Logger::Level::Debug, "verbose",
                          "also their contents")),
    cl::init(lsp::Logger::Level::Error), cl::cat(lspCategory));
static cl::list<std::string> compileDatabases(
    "compile-database",
    cl::desc("a polyblocks_commands.json, or a folder holding one, searched "
             "before those found near each file (may be repeated)"),
    cl::value_desc("path"), cl::cat(lspCategory));
static cl::opt<std::string> stageDirectory(
    "stage-dir",
    cl::desc("where polyblocks.showStage writes previews (default: "
             "pb-lsp-<pid> in the temporary directory)"),
    cl::value_desc("dir"), cl::cat(lspCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "pb-lsp (PolyBlocks) " << polyblocks::getPolyBlocksVersion() << "\n";
  });
  cl::HideUnrelatedOptions(lspCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "PolyBlocks language server (LSP over standard input and output)\n\n"
      "Exit codes: 0 after shutdown and exit; 1 otherwise.\n");

  if (litTest)
    lsp::URIForFile::registerSupportedScheme("test");
  lsp::Logger::setLogLevel(logLevel);
  // A crash inside the compiler ends one run, not the server.
  llvm::CrashRecoveryContext::Enable();

  mlir::DialectRegistry registry;
  polyblocks::registerAllDialects(registry);

  pblsp::ServerOptions options;
  options.compileDatabases = compileDatabases;
  options.stageDirectory = stageDirectory;
  lsp::JSONTransport transport(
      std::make_unique<pblsp::CheckedMessageInput>(
          stdin, litTest ? lsp::JSONStreamStyle::Delimited
                         : lsp::JSONStreamStyle::Standard),
      llvm::outs(), /*PrettyOutput=*/litTest || pretty);
  pblsp::Server server(transport, registry, std::move(options));
  return server.run();
}
