//===- PipelinesTest.cpp - The stage table and pipeline builders ----------===//

#include "polyblocks/Pipelines/Pipelines.h"
#include "polyblocks/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir;
using namespace polyblocks;

namespace {

TEST(StageTableTest, StagesAreOrderedAndNamedConsistently) {
  ArrayRef<StageInfo> stages = getStageTable();
  ASSERT_EQ(stages.size(), 5u);
  std::set<std::string> names;
  for (auto [i, info] : llvm::enumerate(stages)) {
    EXPECT_EQ(static_cast<size_t>(info.stage), i + 1);
    EXPECT_EQ(info.id.str(), "s" + std::to_string(i + 1));
    EXPECT_EQ(info.pipelineName.str(),
              "pb-s" + std::to_string(i + 1) + "-pipeline");
    EXPECT_TRUE(names.insert(info.name.str()).second) << "duplicate stage name";
    EXPECT_FALSE(info.description.empty());
    EXPECT_EQ(parseStage(info.id), info.stage);
    EXPECT_EQ(&getStageInfo(info.stage), &info);
  }
  EXPECT_EQ(parseStage("S3"), Stage::S3);
  EXPECT_FALSE(parseStage("s6").has_value());
  EXPECT_EQ(parseTargetKind("cpu"), TargetKind::CPU);
  EXPECT_FALSE(parseTargetKind("tpu").has_value());
}

class StagePipelineTest : public ::testing::TestWithParam<Stage> {};

// Each stage is registered under its textual name, so that pb-opt, pbtool
// and the language server share one definition.
TEST_P(StagePipelineTest, IsRegisteredAsATextualPipeline) {
  static bool registered = (registerAllPasses(), true);
  (void)registered;
  const StageInfo &info = getStageInfo(GetParam());
  OpPassManager pm("builtin.module");
  std::string error;
  llvm::raw_string_ostream errs(error);
  EXPECT_TRUE(succeeded(parsePassPipeline(
      ("builtin.module(" + info.pipelineName + ")").str(), pm, errs)))
      << error;
  OpPassManager direct("builtin.module");
  buildStagePipeline(direct, GetParam(), PipelineOptions());
  EXPECT_GT(direct.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllStages, StagePipelineTest,
                         ::testing::Values(Stage::S1, Stage::S2, Stage::S3,
                                           Stage::S4, Stage::S5),
                         [](const auto &info) {
                           return getStageInfo(info.param).id.str();
                         });

TEST(RunStagesTest, StopsAfterTheRequestedStage) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
                      outs(%e : tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  std::vector<Stage> seen;
  ASSERT_TRUE(succeeded(runStages(*module, Stage::S2, PipelineOptions(),
                                  [&](const StageInfo &info, ModuleOp) {
                                    seen.push_back(info.stage);
                                    return success();
                                  })));
  EXPECT_EQ(seen, (std::vector<Stage>{Stage::S1, Stage::S2}));
  std::string ir;
  llvm::raw_string_ostream os(ir);
  module->print(os);
  EXPECT_NE(ir.find("affine.for"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("linalg."), std::string::npos) << ir;
}

/// Erases every function's return: the blocks lose their terminators.
struct DropReturnsPass
    : public PassWrapper<DropReturnsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropReturnsPass)
  void runOnOperation() override {
    SmallVector<func::ReturnOp> returns;
    getOperation().walk([&](func::ReturnOp op) { returns.push_back(op); });
    for (func::ReturnOp op : returns)
      op.erase();
  }
};

/// Runs `pass` through runPipeline; returns whether it succeeded and the
/// errors reported.
std::pair<bool, std::string> runOnePass(std::unique_ptr<Pass> pass,
                                        bool verifyEachPass) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @id(%a: f32) -> f32 {
      return %a : f32
    })mlir",
                                                             &context);
  if (!module)
    return {false, "<unparsed>"};
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errors += diag.str() + "\n";
    return success();
  });
  PassManager pm(&context);
  pm.addPass(std::move(pass));
  bool ok = succeeded(runPipeline(pm, *module, "stage sX", verifyEachPass));
  return {ok, errors};
}

// Per-pass verification is off by default (it dominated S5); the IR is
// still verified before it leaves the run, and --verify-each restores the
// per-pass check.
TEST(RunPipelineTest, InvalidIRIsCaughtAtTheEndOfTheRun) {
  auto [ok, errors] = runOnePass(std::make_unique<DropReturnsPass>(),
                                 /*verifyEachPass=*/false);
  EXPECT_FALSE(ok);
  EXPECT_NE(errors.find("stage sX produced IR that does not verify"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("terminator"), std::string::npos) << errors;
}

TEST(RunPipelineTest, InvalidIRIsCaughtAfterThePassWithVerifyEach) {
  auto [ok, errors] = runOnePass(std::make_unique<DropReturnsPass>(),
                                 /*verifyEachPass=*/true);
  EXPECT_FALSE(ok);
  EXPECT_NE(errors.find("terminator"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("produced IR that does not verify"), std::string::npos)
      << errors;
}

TEST(RunPipelineTest, ValidIRPasses) {
  for (bool verifyEachPass : {false, true}) {
    auto [ok, errors] = runOnePass(createCanonicalizerPass(), verifyEachPass);
    EXPECT_TRUE(ok) << errors;
    EXPECT_TRUE(errors.empty()) << errors;
  }
}

} // namespace
