//===- ResourceSection.cpp - Weights read without the lexer ---------------===//

#include "polyblocks/Driver/ResourceSection.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using llvm::StringRef;

namespace polyblocks {

namespace {
/// The section's text, read front to back as MLIR's lexer would.
class SectionReader {
public:
  explicit SectionReader(StringRef text) : rest(text) {}

  /// Consumes `token` after any whitespace.
  bool consume(StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }

  /// A bare identifier: (letter|_) (letter|digit|[_$.])*.
  std::optional<StringRef> bareIdentifier() {
    skipSpace();
    if (rest.empty() || !(llvm::isAlpha(rest[0]) || rest[0] == '_'))
      return std::nullopt;
    size_t size = 1;
    while (size < rest.size() &&
           (llvm::isAlnum(rest[size]) || rest[size] == '_' ||
            rest[size] == '$' || rest[size] == '.'))
      ++size;
    StringRef identifier = rest.take_front(size);
    rest = rest.drop_front(size);
    return identifier;
  }

  /// The characters of a string literal ("..."), up to its closing quote;
  /// what they are is left to the caller.
  std::optional<StringRef> stringBody() {
    if (!consume("\""))
      return std::nullopt;
    size_t end = rest.find('"');
    if (end == StringRef::npos)
      return std::nullopt;
    StringRef body = rest.take_front(end);
    rest = rest.drop_front(end + 1);
    return body;
  }

  bool atEnd() {
    skipSpace();
    return rest.empty();
  }

private:
  /// Skips whitespace and comments (// to the end of the line).
  void skipSpace() {
    while (true) {
      rest = rest.ltrim(" \t\r\n");
      if (!rest.starts_with("//"))
        return;
      size_t end = rest.find_first_of("\r\n");
      rest = end == StringRef::npos ? StringRef() : rest.drop_front(end);
    }
  }

  StringRef rest;
};
} // namespace

/// The value of the hex digit `c`, assumed one: its low 4 bits, plus 9 for
/// a letter (bit 6: 'A'-'F' are 0x41-0x46, 'a'-'f' 0x61-0x66).
static inline uint8_t hexValue(uint8_t c) {
  return static_cast<uint8_t>((c & 0xF) + 9 * (c >> 6));
}

/// 1 if `c` is not a hex digit, else 0 (no branch: hex digits and letters
/// come in no predictable order).
static inline uint8_t notHexDigit(uint8_t c) {
  uint8_t digit = static_cast<uint8_t>(c - '0') < 10;
  uint8_t letter = static_cast<uint8_t>((c | 0x20) - 'a') < 6;
  return (digit | letter) ^ 1;
}

/// Decodes the hex digits `hex` (two per byte, an even number) into `out`;
/// false if one is not a hex digit. Branch-free over blocks (the
/// compiler vectorizes it): a network's weights are hundreds of MB of hex.
static bool decodeHex(StringRef hex, char *out) {
  const auto *digits = reinterpret_cast<const uint8_t *>(hex.data());
  size_t size = hex.size() / 2;
  constexpr size_t kBlock = 4096;
  for (size_t begin = 0; begin < size; begin += kBlock) {
    size_t end = std::min(size, begin + kBlock);
    uint8_t invalid = 0;
    for (size_t i = begin; i < end; ++i) {
      uint8_t high = digits[2 * i], low = digits[2 * i + 1];
      invalid |= notHexDigit(high) | notHexDigit(low);
      out[i] = static_cast<char>((hexValue(high) << 4) | hexValue(low));
    }
    if (invalid)
      return false;
  }
  return true;
}

/// The blob a resource's string `body` encodes, as the parser makes it
/// (AsmParsedResourceEntry::parseAsBlob): "0x", then the alignment as 4
/// little-endian bytes, then the data; nothing when it is not that.
static std::optional<AsmResourceBlob> decodeBlob(StringRef body) {
  if (!body.consume_front("0x") || body.size() % 2 != 0 ||
      body.size() < 2 * sizeof(uint32_t))
    return std::nullopt;
  char alignBytes[sizeof(uint32_t)];
  if (!decodeHex(body.take_front(2 * sizeof(uint32_t)), alignBytes))
    return std::nullopt;
  uint32_t align =
      llvm::support::endian::read32le(reinterpret_cast<uint8_t *>(alignBytes));
  if (!llvm::isPowerOf2_32(align))
    return std::nullopt;
  StringRef data = body.drop_front(2 * sizeof(uint32_t));
  if (data.empty())
    return AsmResourceBlob();
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(data.size() / 2, align);
  if (!decodeHex(data, blob.getMutableData().data()))
    return std::nullopt;
  return blob;
}

/// The blob manager of the builtin dialect's resources in `context`.
static DialectResourceBlobManager &getBuiltinBlobManager(MLIRContext &context) {
  return DenseResourceElementsHandle::getManagerInterface(&context)
      .getBlobManager();
}

std::optional<BuiltinResources> decodeBuiltinResources(StringRef text,
                                                       MLIRContext *context) {
  // The first: one in a string of the IR is not followed by a section that
  // ends the text, and leaves the text to the parser.
  size_t start = text.find("{-#");
  if (start == StringRef::npos)
    return std::nullopt;
  SectionReader reader(text.drop_front(start));
  if (!reader.consume("{-#") ||
      reader.bareIdentifier() != "dialect_resources" || !reader.consume(":") ||
      !reader.consume("{") || reader.bareIdentifier() != "builtin" ||
      !reader.consume(":") || !reader.consume("{"))
    return std::nullopt;
  // The entries' keys and strings first: nothing is decoded for a section
  // left to the parser.
  SmallVector<std::pair<StringRef, StringRef>> entries;
  if (!reader.consume("}")) {
    do {
      std::optional<StringRef> key = reader.bareIdentifier();
      if (!key || !reader.consume(":"))
        return std::nullopt;
      std::optional<StringRef> body = reader.stringBody();
      if (!body)
        return std::nullopt;
      entries.emplace_back(*key, *body);
    } while (reader.consume(","));
    if (!reader.consume("}"))
      return std::nullopt;
  }
  if (!reader.consume("}") || !reader.consume("#-}") || !reader.atEnd())
    return std::nullopt;
  if (context) {
    DialectResourceBlobManager &manager = getBuiltinBlobManager(*context);
    if (llvm::any_of(entries, [&](const auto &entry) {
          return manager.lookup(entry.first) != nullptr;
        }))
      return std::nullopt;
  }
  BuiltinResources resources;
  resources.irSize = start;
  for (auto [key, body] : entries) {
    std::optional<AsmResourceBlob> blob = decodeBlob(body);
    if (!blob)
      return std::nullopt;
    resources.blobs.emplace_back(key.str(), std::move(*blob));
  }
  return resources;
}

void attachBuiltinResources(MLIRContext &context, BuiltinResources &resources) {
  DialectResourceBlobManager &manager = getBuiltinBlobManager(context);
  for (auto &[key, blob] : resources.blobs) {
    if (DialectResourceBlobManager::BlobEntry *entry = manager.lookup(key))
      entry->setBlob(std::move(blob));
    else
      manager.insert(key, std::move(blob));
  }
  resources.blobs.clear();
}

} // namespace polyblocks
