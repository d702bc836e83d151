//===- MessageInput.cpp - Reading messages without trusting them ----------===//

#include "MessageInput.h"

#include "llvm/Support/FormatVariadic.h"

namespace json = llvm::json;
namespace lsp = llvm::lsp;

namespace pblsp {

CheckedMessageInput::CheckedMessageInput(std::FILE *in,
                                         lsp::JSONStreamStyle style)
    : JSONTransportInput(style), in(in, style) {}

llvm::LogicalResult
CheckedMessageInput::readDelimitedMessage(std::string &json) {
  return check(in.readDelimitedMessage(json), json);
}

llvm::LogicalResult
CheckedMessageInput::readStandardMessage(std::string &json) {
  return check(in.readStandardMessage(json), json);
}

/// What is wrong with `message` as a JSON-RPC 2.0 message ("" if nothing);
/// `id` is set to its id when it has a usable one.
static std::string findProblem(const json::Value &message, json::Value &id) {
  const json::Object *object = message.getAsObject();
  if (!object)
    return "a message must be a JSON object";
  if (const json::Value *given = object->get("id")) {
    if (given->kind() != json::Value::String &&
        given->kind() != json::Value::Number &&
        given->kind() != json::Value::Null)
      return "\"id\" must be a number or a string";
    id = *given;
  }
  if (object->getString("jsonrpc") != std::optional<llvm::StringRef>("2.0"))
    return "a message must have \"jsonrpc\": \"2.0\"";
  if (object->get("method") && !object->getString("method"))
    return "\"method\" must be a string";
  if (!object->get("method") && !object->get("id"))
    return "a message must have a \"method\" (request or notification) or an "
           "\"id\" (response)";
  return "";
}

llvm::LogicalResult CheckedMessageInput::check(llvm::LogicalResult read,
                                               std::string &json) {
  if (llvm::failed(read) || llvm::StringRef(json).trim().empty())
    return llvm::failure();
  json::Value id = nullptr;
  std::string problem;
  lsp::ErrorCode code = lsp::ErrorCode::InvalidRequest;
  if (llvm::Expected<json::Value> message = json::parse(json)) {
    problem = findProblem(*message, id);
  } else {
    problem = "invalid JSON: " + llvm::toString(message.takeError());
    code = lsp::ErrorCode::ParseError;
  }
  if (problem.empty())
    return llvm::success();
  json = llvm::formatv(
      "{0}", json::Value(json::Object{
                 {"jsonrpc", "2.0"},
                 {"id", std::move(id)},
                 {"method", kInvalidMessageMethod},
                 {"params", json::Object{{"code", static_cast<int64_t>(code)},
                                         {"message", problem}}}}));
  return llvm::success();
}

} // namespace pblsp
