//===- SplitModuleTest.cpp - A module in parts for parallel code generation
//===//

#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Target/Heuristics.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <string>

using namespace llvm;
using namespace polyblocks;

namespace {

/// LLVM IR of a function `@forward` whose top-level loops have 60, 61, ...
/// chained additions each (no two alike: the split would merge them), and
/// of a constant array of `constantBytes` bytes that the function reads.
std::string makeProgram(int loops, uint64_t constantBytes) {
  std::string ir = "@weights = internal constant [" +
                   std::to_string(constantBytes) + " x i8] zeroinitializer\n" +
                   "define void @forward(ptr %out, i64 %n) {\n"
                   "entry:\n"
                   "  %w = load i8, ptr @weights\n"
                   "  br label %loop0\n";
  for (int l = 0; l < loops; ++l) {
    std::string loop = "loop" + std::to_string(l);
    std::string next =
        l + 1 < loops ? "loop" + std::to_string(l + 1) : std::string("done");
    std::string v = "%v" + std::to_string(l) + ".";
    std::string i = "%i" + std::to_string(l);
    std::string from = l == 0 ? "entry" : "loop" + std::to_string(l - 1);
    ir += loop + ":\n  " + i + " = phi i64 [0, %" + from + "], [" + i +
          ".next, %" + loop + "]\n  " + v + "0 = load float, ptr %out\n";
    int adds = 60 + l;
    for (int a = 1; a <= adds; ++a)
      ir += "  " + v + std::to_string(a) + " = fadd float " + v +
            std::to_string(a - 1) + ", " + std::to_string(l + 1) + ".0\n";
    ir += "  store float " + v + std::to_string(adds) + ", ptr %out\n  " + i +
          ".next = add i64 " + i + ", 1\n  %c" + std::to_string(l) +
          " = icmp ult i64 " + i + ".next, %n\n  br i1 %c" + std::to_string(l) +
          ", label %" + loop + ", label %" + next + "\n";
  }
  ir += "done:\n  store i8 %w, ptr %out\n  ret void\n}\n";
  return ir;
}

/// Functions defined in `module` whose name holds ".nest" (the outlined
/// loops).
unsigned countNests(const Module &module) {
  unsigned count = 0;
  for (const Function &fn : module)
    if (!fn.isDeclaration() && fn.getName().contains(".nest"))
      ++count;
  return count;
}

/// Splits makeProgram(loops, constantBytes) in two as `split` says; returns
/// the loops each part defines (0 and 0 when it does not split).
std::pair<unsigned, unsigned> splitInTwo(int loops, uint64_t constantBytes,
                                         uint64_t bytesPerInstruction) {
  LLVMContext context;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> module = parseAssemblyString(
      makeProgram(loops, constantBytes), diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  if (!module)
    return {0, 0};
  CodegenSplit split{2, 0, bytesPerInstruction};
  std::vector<SmallVector<char, 0>> parts = splitModule(*module, split);
  EXPECT_FALSE(verifyModule(*module, &errs()));
  if (parts.empty())
    return {0, 0};
  EXPECT_EQ(parts.size(), 1u);
  LLVMContext partContext;
  Expected<std::unique_ptr<Module>> part = parseBitcodeFile(
      MemoryBufferRef(StringRef(parts[0].data(), parts[0].size()), "part"),
      partContext);
  if (!part) {
    ADD_FAILURE() << toString(part.takeError());
    return {0, 0};
  }
  EXPECT_FALSE(verifyModule(**part, &errs()));
  return {countNests(*module), countNests(**part)};
}

// Without constant data counted the loops are dealt out by instructions:
// two each.
TEST(SplitModuleTest, DealsLoopsByInstructions) {
  EXPECT_EQ(splitInTwo(4, 1 << 20, 0), std::make_pair(2u, 2u));
  EXPECT_EQ(splitInTwo(4, 16, 1024), std::make_pair(2u, 2u));
}

// Part 0 writes the constant data: counted as instructions, it takes fewer
// loops. 1 MiB at 1 KiB an instruction outweighs the four loops (66 to 69
// instructions each): all go to part 1. At 8 KiB an instruction, 128
// instructions: one loop, the smallest, for part 0.
TEST(SplitModuleTest, CountsConstantDataInPartZero) {
  EXPECT_EQ(splitInTwo(4, 1 << 20, 1024), std::make_pair(0u, 4u));
  EXPECT_EQ(splitInTwo(4, 1 << 20, 8 * 1024), std::make_pair(1u, 3u));
}

// The heuristic counts constant data in both its forms: the host's threads
// and a number of threads asked for.
TEST(SplitModuleTest, HeuristicCountsConstantData) {
  EXPECT_GT(chooseCodegenSplit(0).constantBytesPerInstruction, 0u);
  EXPECT_EQ(chooseCodegenSplit(3).parts, 3u);
  EXPECT_GT(chooseCodegenSplit(3).constantBytesPerInstruction, 0u);
}

} // namespace
