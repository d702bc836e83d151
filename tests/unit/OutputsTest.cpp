//===- OutputsTest.cpp - Output kinds and their file names ----------------===//

#include "polyblocks/Driver/Outputs.h"

#include <gtest/gtest.h>

using namespace polyblocks;

namespace {

std::string parseError(llvm::StringRef name, const PipelineOptions &options,
                       bool withStages, bool textOnly) {
  llvm::Expected<OutputKind> kind =
      parseOutputKind(name, options, "kind", withStages, textOnly);
  if (kind)
    return "";
  return llvm::toString(kind.takeError());
}

// pbtool's --emit kinds and the editor's previews are one list: stages,
// host code, the device code of the target in force.
TEST(OutputsTest, ParsesEveryKindOfTheTarget) {
  PipelineOptions cpu;
  llvm::Expected<OutputKind> s3 =
      parseOutputKind("S3", cpu, "kind", /*withStages=*/true, false);
  ASSERT_TRUE(static_cast<bool>(s3));
  EXPECT_EQ(s3->kind, OutputKind::StageIR);
  EXPECT_EQ(s3->stage, Stage::S3);
  llvm::Expected<OutputKind> shared =
      parseOutputKind("shared", cpu, "kind", false, false);
  ASSERT_TRUE(static_cast<bool>(shared));
  EXPECT_FALSE(shared->isText());
  EXPECT_EQ(parseError("obj", cpu, true, /*textOnly=*/true),
            "unknown kind 'obj' (expected s1, s2, s3, s4, s5, asm, llvm, ptx "
            "or amdgcn)");
  EXPECT_EQ(parseError("s3", cpu, /*withStages=*/false, false),
            "unknown kind 's3' (expected obj, shared, asm, llvm, ptx, cubin, "
            "hsaco or amdgcn)");
  EXPECT_EQ(parseError("ptx", cpu, false, false),
            "kind 'ptx' is NVIDIA PTX, device code of target nvgpu, but the "
            "target is cpu (compile with --target=nvgpu)");
  PipelineOptions nvgpu;
  nvgpu.target = TargetKind::NVGPU;
  llvm::Expected<OutputKind> ptx =
      parseOutputKind("ptx", nvgpu, "kind", false, false);
  ASSERT_TRUE(static_cast<bool>(ptx));
  EXPECT_TRUE(ptx->isText());
  configurePipelineFor(*ptx, nvgpu);
  EXPECT_EQ(nvgpu.gpuBinaryFormat, "isa");
}

TEST(OutputsTest, NamesFilesAfterTheSourceAndStage) {
  EXPECT_EQ(getOutputFileName("dir/mlp.mlir", getStageOutput(Stage::S3)),
            "mlp.3.optimize.mlir");
  EXPECT_EQ(getOutputFileName("mlp.mlir", getStageOutput(Stage::S1), "f g"),
            "mlp.f_g.1.bufferize.mlir");
  PipelineOptions cpu;
  EXPECT_EQ(getOutputFileName(
                "k.mlir", *parseOutputKind("obj", cpu, "kind", false, false)),
            "k.o");
  EXPECT_EQ(getOutputFileName(
                "-", *parseOutputKind("llvm", cpu, "kind", false, false)),
            "kernel.ll");
}

} // namespace
