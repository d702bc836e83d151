//===- KernelInterfaceTest.cpp - Signatures, checks and headers -----------===//

#include "polyblocks/Interface/KernelInterface.h"
#include "polyblocks/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace polyblocks;

namespace {

class KernelInterfaceTest : public ::testing::Test {
protected:
  KernelInterfaceTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &diag) {
          diagnostics.push_back(diag.str());
          return success();
        });
  }

  /// Parses `source` keeping the parser state (for SSA names).
  ModuleOp parse(StringRef source) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, "test.mlir"), SMLoc());
    owned = parseKernelSource(sourceMgr, context, &asmState);
    return owned ? *owned : nullptr;
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  AsmParserState asmState;
  OwningOpRef<ModuleOp> owned;
  std::vector<std::string> diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

TEST_F(KernelInterfaceTest, NamesComeFromSSANames) {
  ModuleOp module = parse(R"mlir(
    module {
      func.func @mlp(%x: tensor<8x64xf32>, %int: tensor<64xi8>, %0: tensor<2xf16>)
          -> (tensor<8x32xf32>, tensor<3xi1>) {
        %a = tensor.empty() : tensor<8x32xf32>
        %b = tensor.empty() : tensor<3xi1>
        return %a, %b : tensor<8x32xf32>, tensor<3xi1>
      }
      func.func private @helper() { return }
    })mlir");
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(checkInputProgram(module)));
  std::vector<KernelSignature> sigs =
      collectKernelSignatures(module, &asmState);
  ASSERT_EQ(sigs.size(), 1u);
  const KernelSignature &sig = sigs[0];
  EXPECT_EQ(sig.name, "mlp");
  ASSERT_EQ(sig.inputs.size(), 3u);
  EXPECT_EQ(sig.inputs[0].name, "x");
  EXPECT_EQ(sig.inputs[1].name, "int_"); // C keyword
  EXPECT_EQ(sig.inputs[2].name, "arg2"); // numeric SSA name
  ASSERT_EQ(sig.results.size(), 2u);
  EXPECT_EQ(sig.results[0].name, "result0");
  EXPECT_EQ(sig.results[1].getTypeString(), "3xi1");
  EXPECT_EQ(sig.inputs[0].getNumElements(), 512);

  // Without the parser state, arguments are arg0, arg1, ...
  std::vector<KernelSignature> plain = collectKernelSignatures(module);
  EXPECT_EQ(plain[0].inputs[0].name, "arg0");
}

TEST_F(KernelInterfaceTest, HeaderDeclaresEntryPointsAndShapes) {
  ModuleOp module = parse(R"mlir(
    func.func @add(%a: tensor<4x3xf32>, %b: tensor<4x3xbf16>) -> tensor<4x3xf32> {
      return %a : tensor<4x3xf32>
    })mlir");
  ASSERT_TRUE(module);
  std::string header =
      renderKernelHeader(collectKernelSignatures(module, &asmState), "add.mlir",
                         makeIncludeGuard("add.h"), "add.h", "cpu");
  EXPECT_NE(header.find("#ifndef POLYBLOCKS_ADD_H"), std::string::npos);
  EXPECT_NE(header.find(
                "int add(const float* a, const uint16_t* b, float* result0);"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("#define ADD_A_DIM1 3"), std::string::npos);
  EXPECT_NE(header.find("#define ADD_RESULT0_SIZE 12"), std::string::npos);
  EXPECT_NE(header.find("extern \"C\""), std::string::npos);
  EXPECT_EQ(header.find("{{"), std::string::npos) << "unfilled placeholder";
}

// Brackets count outside strings and comments only; a string ends at its
// closing quote (escaped quotes skipped) or, unterminated, at its line's end.
TEST(FindExcessiveNesting, CountsBracketsOutsideStrings) {
  EXPECT_EQ(findExcessiveNesting("((()))", 2), std::optional<size_t>(2));
  EXPECT_EQ(findExcessiveNesting("((()))", 3), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("(\"(((\")", 1), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("(\"a\\\"((\" ((", 2),
            std::optional<size_t>(10));
  EXPECT_EQ(findExcessiveNesting("(\"0x(((\n((", 2), std::optional<size_t>(9));
  EXPECT_EQ(findExcessiveNesting("(\"\\", 1), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("// (((\n((", 1), std::optional<size_t>(8));
  std::string blob = "{ \"0x" + std::string(1 << 20, 'A') + "\" } {{";
  EXPECT_EQ(findExcessiveNesting(blob, 1),
            std::optional<size_t>(blob.size() - 1));
}

struct BadProgram {
  const char *name;
  const char *source;
  const char *expected;
};

void PrintTo(const BadProgram &program, std::ostream *os) {
  *os << program.name;
}

class KernelInterfaceBadProgramTest
    : public KernelInterfaceTest,
      public ::testing::WithParamInterface<BadProgram> {};

TEST_P(KernelInterfaceBadProgramTest, IsRejectedWithAMessage) {
  ModuleOp module = parse(GetParam().source);
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(checkInputProgram(module)));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics.front().find(GetParam().expected), std::string::npos)
      << diagnostics.front();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, KernelInterfaceBadProgramTest,
    ::testing::Values(
        BadProgram{"dynamic",
                   "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> { return "
                   "%a : tensor<?xf32> }",
                   "dynamic dimension in argument #0 of @f"},
        BadProgram{"element_type",
                   "func.func @f(%a: tensor<4xui8>) -> tensor<4xui8> { return "
                   "%a : tensor<4xui8> }",
                   "unsupported element type 'ui8'"},
        BadProgram{"scalar", "func.func @f(%a: f32) -> f32 { return %a : f32 }",
                   "must be ranked tensors"},
        BadProgram{"dialect",
                   "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { "
                   "%m = memref.alloca() : memref<4xf32> return %a : "
                   "tensor<4xf32> }",
                   "'memref.alloca' is not supported"},
        BadProgram{"no_public", "func.func private @f() { return }",
                   "no public function"},
        BadProgram{"declaration",
                   "func.func private @g(tensor<4xf32>) func.func @f() { "
                   "return }",
                   "has no body"}),
    [](const auto &info) { return std::string(info.param.name); });

} // namespace
