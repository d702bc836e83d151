//===- ResourceSectionTest.cpp - Weights read without the lexer -----------===//
//
// decodeBuiltinResources against MLIR's parser: the blobs a program's
// weights become are the same bytes with the same alignment either way, the
// forms it does not read go to the parser (and its diagnostics), and the
// IR's diagnostics point at the same lines.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Driver/ResourceSection.h"
#include "polyblocks/Driver/Program.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace mlir;
using namespace polyblocks;

namespace {

/// `bytes` as a resource's hex string body: "0x", the alignment (4 bytes,
/// little-endian), the data; upper case when `upper`.
std::string encodeBlob(uint32_t align, const std::vector<uint8_t> &bytes,
                       bool upper = true) {
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string text = "0x";
  auto put = [&](uint8_t byte) {
    text += digits[byte >> 4];
    text += digits[byte & 15];
  };
  for (int i = 0; i < 4; ++i)
    put(static_cast<uint8_t>(align >> (8 * i)));
  for (uint8_t byte : bytes)
    put(byte);
  return text;
}

std::vector<uint8_t> randomBytes(size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(size);
  for (uint8_t &byte : bytes)
    byte = static_cast<uint8_t>(random());
  return bytes;
}

/// A program whose constants are resources `weights` and `bias.1$`, with
/// `section` (the text from "{-#") after it.
std::string makeProgram(StringRef section) {
  return R"mlir(func.func @f(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<3xi8>) {
  %w = arith.constant dense_resource<weights> : tensor<16xf32>
  %b = arith.constant dense_resource<bias.1$> : tensor<3xi8>
  %y = arith.addf %x, %w : tensor<16xf32>
  return %y, %b : tensor<16xf32>, tensor<3xi8>
}
)mlir" + section.str();
}

/// A resource's bytes and alignment as the program holds them.
struct BlobContents {
  std::vector<uint8_t> bytes;
  size_t align = 0;
  bool operator==(const BlobContents &other) const {
    return bytes == other.bytes && align == other.align;
  }
};

class ResourceSectionTest : public ::testing::Test {
protected:
  ResourceSectionTest() { registerAllDialects(registry); }

  /// Parses `text` with parseProgram in `context`; the diagnostics into
  /// `diagnostics` (message and line).
  std::unique_ptr<Program> parseProgramText(MLIRContext &context,
                                            StringRef text) {
    context.appendDialectRegistry(registry);
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      unsigned line = 0;
      if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
        line = loc.getLine();
      diagnostics.push_back({diag.str(), line});
      return success();
    });
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "program.mlir"), SMLoc());
    return parseProgram(sourceMgr, context);
  }

  /// The resources of the constants of `module`, by key.
  static std::map<std::string, BlobContents> getBlobs(ModuleOp module) {
    std::map<std::string, BlobContents> blobs;
    module.walk([&](arith::ConstantOp constant) {
      auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue());
      if (!resource)
        return;
      DenseResourceElementsHandle handle = resource.getRawHandle();
      BlobContents contents;
      if (AsmResourceBlob *blob = handle.getBlob()) {
        ArrayRef<char> data = blob->getData();
        contents.bytes.assign(data.begin(), data.end());
        contents.align = blob->getDataAlignment();
      }
      blobs[handle.getKey().str()] = contents;
    });
    return blobs;
  }

  /// Checks that parseProgram and MLIR's parser, each in a context of its
  /// own, give the constants of `text` the same blobs; returns them.
  std::map<std::string, BlobContents> expectSameAsParser(StringRef text) {
    MLIRContext ours;
    std::unique_ptr<Program> program = parseProgramText(ours, text);
    EXPECT_TRUE(program);
    MLIRContext reference;
    reference.appendDialectRegistry(registry);
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(text, &reference);
    EXPECT_TRUE(parsed);
    if (!program || !parsed)
      return {};
    std::map<std::string, BlobContents> blobs = getBlobs(*program->module);
    EXPECT_EQ(blobs, getBlobs(*parsed));
    return blobs;
  }

  DialectRegistry registry;
  std::vector<std::pair<std::string, unsigned>> diagnostics;
};

TEST_F(ResourceSectionTest, DecodesWhatTheParserWouldRead) {
  std::vector<uint8_t> weights = randomBytes(64, 1);
  std::vector<uint8_t> bias = {1, 2, 3};
  std::string section = "{-#\n  dialect_resources: {\n    builtin: {\n"
                        "      weights: \"" +
                        encodeBlob(16, weights, /*upper=*/false) +
                        "\",\n      bias.1$: \"" + encodeBlob(1, bias) +
                        "\",\n      unused: \"0x04000000\"\n    }\n  }\n#-}\n";
  std::string text = makeProgram(section);
  std::optional<BuiltinResources> decoded = decodeBuiltinResources(text);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->irSize, text.find("{-#"));
  ASSERT_EQ(decoded->blobs.size(), 3u);
  EXPECT_EQ(decoded->blobs[0].first, "weights");
  EXPECT_EQ(decoded->blobs[1].first, "bias.1$");
  EXPECT_EQ(decoded->blobs[2].first, "unused");
  EXPECT_TRUE(decoded->blobs[2].second.getData().empty());

  std::map<std::string, BlobContents> blobs = expectSameAsParser(text);
  EXPECT_EQ(blobs["weights"].bytes, weights);
  EXPECT_EQ(blobs["weights"].align, 16u);
  EXPECT_EQ(blobs["bias.1$"].bytes, bias);
}

TEST_F(ResourceSectionTest, EveryByteValueInBothCases) {
  std::vector<uint8_t> all(256);
  for (int i = 0; i < 256; ++i)
    all[i] = static_cast<uint8_t>(i);
  for (bool upper : {false, true}) {
    std::string body = encodeBlob(4, all, upper);
    std::optional<BuiltinResources> decoded = decodeBuiltinResources(
        "{-# dialect_resources: { builtin: { k: \"" + body + "\" } } #-}");
    ASSERT_TRUE(decoded);
    ArrayRef<char> data = decoded->blobs.front().second.getData();
    EXPECT_EQ(std::vector<uint8_t>(data.begin(), data.end()), all);
    EXPECT_EQ(decoded->blobs.front().second.getDataAlignment(), 4u);
  }
}

TEST_F(ResourceSectionTest, OtherFormsGoToTheParser) {
  std::string blob = encodeBlob(4, randomBytes(64, 2));
  std::string bias = encodeBlob(1, {7, 8, 9});
  auto builtin = [&](StringRef entries) {
    return "{-#\n dialect_resources: {\n builtin: {\n" + entries.str() +
           "\n }\n }\n#-}\n";
  };
  std::string entries = "weights: \"" + blob + "\", bias.1$: \"" + bias + "\"";
  // Forms the parser reads and decodeBuiltinResources leaves to it.
  std::vector<std::string> sections = {
      // quoted keys
      builtin("\"weights\": \"" + blob + "\", \"bias.1$\": \"" + bias + "\""),
      // external resources beside the dialect's
      "{-#\n dialect_resources: { builtin: { " + entries +
          " } },\n external_resources: { }\n#-}\n",
  };
  for (const std::string &section : sections) {
    SCOPED_TRACE(section);
    std::string text = makeProgram(section);
    EXPECT_FALSE(decodeBuiltinResources(text));
    std::map<std::string, BlobContents> blobs = expectSameAsParser(text);
    EXPECT_EQ(blobs["bias.1$"].bytes, (std::vector<uint8_t>{7, 8, 9}));
  }
  // Comments, which the lexer skips as it does whitespace.
  std::string commented = makeProgram(
      "// the weights\n{-# // of the layer\n dialect_resources: {\n builtin: "
      "{\n// first\n" +
      entries + " // last\n }\n }\n#-}\n// the end");
  std::optional<BuiltinResources> decoded = decodeBuiltinResources(commented);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->blobs.size(), 2u);
  EXPECT_EQ(expectSameAsParser(commented)["bias.1$"].bytes,
            (std::vector<uint8_t>{7, 8, 9}));
  // No section; an empty one.
  EXPECT_FALSE(decodeBuiltinResources(makeProgram("")));
  std::optional<BuiltinResources> empty =
      decodeBuiltinResources(makeProgram(builtin("")));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->blobs.empty());
}

TEST_F(ResourceSectionTest, MalformedSectionsGetTheParsersDiagnostics) {
  auto section = [](StringRef body) {
    return "{-#\n  dialect_resources: {\n    builtin: {\n      weights: \"" +
           body.str() + "\"\n    }\n  }\n#-}\n";
  };
  // The resource's entry is line 10 of the text.
  std::vector<std::string> malformed = {
      section("0x04000000ABC"),  // an odd number of digits
      section("0x0400000012G4"), // not a hex digit
      section("0x030000001234"), // alignment 3
      section("04000000"),       // no 0x
      section("0x0400"),         // shorter than the alignment
  };
  for (const std::string &bad : malformed) {
    SCOPED_TRACE(bad);
    std::string text = makeProgram(bad);
    EXPECT_FALSE(decodeBuiltinResources(text));
    diagnostics.clear();
    MLIRContext context;
    EXPECT_FALSE(parseProgramText(context, text));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_EQ(diagnostics.front().second, 10u) << diagnostics.front().first;
  }
  // Alignment 0 of no data, which the parser takes: left to it.
  std::string unaligned = makeProgram(section("0x00000000"));
  EXPECT_FALSE(decodeBuiltinResources(unaligned));
  expectSameAsParser(unaligned);
  // Text after the section.
  std::string trailing = makeProgram(section("0x04000000") + "func.func");
  EXPECT_FALSE(decodeBuiltinResources(trailing));
  MLIRContext context;
  EXPECT_FALSE(parseProgramText(context, trailing));
}

TEST_F(ResourceSectionTest, ErrorsInTheIRPointAtTheirLine) {
  std::string text = makeProgram(
      "{-# dialect_resources: { builtin: { weights: \"0x04000000\" } } #-}");
  // Line 4: an undefined value.
  size_t addf = text.find("%x, %w");
  text.replace(addf, 2, "%z");
  ASSERT_TRUE(decodeBuiltinResources(text));
  MLIRContext context;
  EXPECT_FALSE(parseProgramText(context, text));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics.front().second, 4u) << diagnostics.front().first;
}

TEST_F(ResourceSectionTest, ASecondProgramInTheSameContext) {
  // The parser gives the second program's resources new keys; its blobs
  // must still be its own.
  std::vector<uint8_t> first = randomBytes(64, 3);
  std::vector<uint8_t> second = randomBytes(64, 4);
  auto program = [](const std::vector<uint8_t> &weights) {
    return makeProgram("{-# dialect_resources: { builtin: { weights: \"" +
                       encodeBlob(4, weights) + "\", bias.1$: \"" +
                       encodeBlob(1, {5, 6, 7}) + "\" } } #-}");
  };
  MLIRContext context;
  std::unique_ptr<Program> a = parseProgramText(context, program(first));
  std::unique_ptr<Program> b = parseProgramText(context, program(second));
  ASSERT_TRUE(a && b);
  std::map<std::string, BlobContents> blobsA = getBlobs(*a->module);
  std::map<std::string, BlobContents> blobsB = getBlobs(*b->module);
  EXPECT_EQ(blobsA["weights"].bytes, first);
  ASSERT_EQ(blobsB.size(), 2u);
  EXPECT_EQ(blobsB.count("weights"), 0u);
  std::vector<std::vector<uint8_t>> bytesB;
  for (auto &[key, contents] : blobsB)
    bytesB.push_back(contents.bytes);
  llvm::sort(bytesB,
             [](const auto &x, const auto &y) { return x.size() < y.size(); });
  EXPECT_EQ(bytesB[0], (std::vector<uint8_t>{5, 6, 7}));
  EXPECT_EQ(bytesB[1], second);
}

} // namespace
