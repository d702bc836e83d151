//===- MessageInput.h - Reading messages without trusting them --*- C++ -*-===//
//
// LLVM's JSON transport stops serving at the first message that is valid
// JSON but not a JSON-RPC 2.0 message, and only logs one that is not JSON at
// all. This input reads messages the same way (with Content-Length headers,
// or delimited by `// -----` lines for lit tests) and turns each malformed
// one into a call of kInvalidMessageMethod, which the server answers with
// the JSON-RPC error the client is owed (parse error or invalid request).
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_MESSAGEINPUT_H
#define POLYBLOCKS_LSP_MESSAGEINPUT_H

#include "llvm/Support/LSP/Transport.h"

#include <cstdio>
#include <string>

namespace pblsp {

/// The method a malformed message is replaced by. Its params hold the
/// JSON-RPC error: {"code": -32700 or -32600, "message": "..."}.
inline constexpr char kInvalidMessageMethod[] = "$/polyblocks/invalidMessage";

class CheckedMessageInput : public llvm::lsp::JSONTransportInput {
public:
  CheckedMessageInput(std::FILE *in, llvm::lsp::JSONStreamStyle style);

  bool hasError() const override { return in.hasError(); }
  bool isEndOfInput() const override { return in.isEndOfInput(); }
  llvm::LogicalResult readDelimitedMessage(std::string &json) override;
  llvm::LogicalResult readStandardMessage(std::string &json) override;

private:
  /// Replaces `json` by an invalid-message call when it is malformed;
  /// fails for an empty message.
  llvm::LogicalResult check(llvm::LogicalResult read, std::string &json);

  llvm::lsp::JSONTransportInputOverFile in;
};

} // namespace pblsp

#endif // POLYBLOCKS_LSP_MESSAGEINPUT_H
