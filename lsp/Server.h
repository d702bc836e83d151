//===- Server.h - The PolyBlocks language server ----------------*- C++ -*-===//
//
// The protocol side of pb-lsp: what it answers to each LSP message, built on
// LLVM's LSP support library (llvm/Support/LSP). Source questions (hover,
// definitions, references, symbols, code lenses) are answered on the
// message loop from the parsed document; everything that runs the pipeline
// (pipeline diagnostics, what the compiler decided for a function, stage
// previews) goes to the worker thread and answers when it is done. A newer
// version of a document cancels the work on older ones.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_SERVER_H
#define POLYBLOCKS_LSP_SERVER_H

#include "llvm/Support/LSP/Transport.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pblsp {

/// The settings of the server; `initializationOptions` may change them.
struct ServerOptions {
  /// Compile databases (files, or folders holding polyblocks_commands.json)
  /// searched before those found near each file.
  std::vector<std::string> compileDatabases;
  /// pbtool flags for files that no compile database lists.
  std::vector<std::string> defaultFlags;
  /// Where polyblocks.showStage writes previews (default: a pb-lsp-<pid>
  /// folder in the system's temporary directory).
  std::string stageDirectory;
  /// Documents longer than this are not parsed.
  size_t maxDocumentBytes = 16 << 20;
  /// Documents longer than this are parsed but not compiled.
  size_t maxPipelineBytes = 1 << 20;
};

/// The name of the stage preview command.
inline constexpr char kShowStageCommand[] = "polyblocks.showStage";

class Server {
public:
  Server(llvm::lsp::JSONTransport &transport,
         const mlir::DialectRegistry &registry, ServerOptions options);
  ~Server();

  /// Serves until the client says `exit` or the input ends. Returns the exit
  /// code: 0 after shutdown and exit, 1 otherwise.
  int run();

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace pblsp

#endif // POLYBLOCKS_LSP_SERVER_H
