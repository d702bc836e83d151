//===- CompileFlagsTest.cpp - pbtool flags read from a command line -------===//

#include "polyblocks/Driver/CompileFlags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace polyblocks;

namespace {

/// Parses `args` from pbtool's defaults; returns the error text, if any.
static std::string parse(std::vector<std::string> args, CompileFlags &flags) {
  if (llvm::Error err = parseCompileFlags(args, flags))
    return llvm::toString(std::move(err));
  return "";
}

// An entry of polyblocks_commands.json, as polyblocks_add_kernel writes it.
TEST(CompileFlagsTest, ReadsACompileDatabaseEntry) {
  CompileFlags flags;
  EXPECT_EQ(parse({"compile", "--target=cpu", "--cpu=x86-64-v3",
                   "--no-parallel", "--tile-cache-size-kib", "64",
                   "--l2-cache-kib=256", "--drop-assertions"},
                  flags),
            "");
  EXPECT_TRUE(flags.dropAssertions);
  EXPECT_EQ(flags.target, "cpu");
  EXPECT_EQ(flags.cpu, "x86-64-v3");
  EXPECT_TRUE(flags.noParallel);
  EXPECT_FALSE(flags.fuse);
  EXPECT_EQ(flags.tileCacheSizeKiB, 64u);
  EXPECT_EQ(flags.l2CacheKiB, 256u);
  EXPECT_EQ(flags.cpuFeatures, "");
}

// Both spellings of a value, one or two dashes, and pbtool's other flags
// (with their values) skipped.
TEST(CompileFlagsTest, AcceptsWhatPbtoolAccepts) {
  CompileFlags flags;
  EXPECT_EQ(parse({"compile", "k.mlir", "-o", "k.o", "--header", "k.h",
                   "-cpu-features", "+avx2,+fma", "--triple=x86_64-linux-gnu",
                   "--fuse=false", "-fuse", "--experimental-s3-passes=cse",
                   "--", "--cpu=ignored"},
                  flags),
            "");
  EXPECT_EQ(flags.cpu, "host");
  EXPECT_EQ(flags.cpuFeatures, "+avx2,+fma");
  EXPECT_EQ(flags.triple, "x86_64-linux-gnu");
  EXPECT_TRUE(flags.fuse);
  EXPECT_EQ(flags.extraS3Passes, "cse");
}

TEST(CompileFlagsTest, RejectsWhatPbtoolRejects) {
  CompileFlags flags;
  EXPECT_EQ(parse({"--cpu"}, flags), "missing value for --cpu");
  EXPECT_EQ(parse({"--no-parallel=maybe"}, flags),
            "bad value 'maybe' for --no-parallel (expected true or false)");
  EXPECT_EQ(parse({"--tile-cache-size-kib=lots"}, flags),
            "bad value 'lots' for --tile-cache-size-kib (expected a size in "
            "KiB)");
  EXPECT_EQ(parse({"--l2-cache-kib=-1"}, flags),
            "bad value '-1' for --l2-cache-kib (expected a size in KiB)");
  EXPECT_EQ(parse({"--cpus=4"}, flags), "unknown pbtool flag '--cpus=4'");
}

// Every flag of the one table is read from a command line into the field
// the table names, as pbtool, the compile database and the textual
// pipelines read it.
TEST(CompileFlagsTest, EveryFlagOfTheTableParses) {
  for (const FlagInfo &info : getCompileFlagTable()) {
    CompileFlags flags;
    std::string value = info.kind == FlagInfo::Kind::Bool       ? "true"
                        : info.kind == FlagInfo::Kind::Unsigned ? "123"
                                                                : "xyz";
    EXPECT_EQ(parse({"--" + info.name.str() + "=" + value}, flags), "")
        << info.name.str();
    switch (info.kind) {
    case FlagInfo::Kind::Bool:
      EXPECT_TRUE(flags.*info.boolField) << info.name.str();
      break;
    case FlagInfo::Kind::Unsigned:
      EXPECT_EQ(flags.*info.unsignedField, 123u) << info.name.str();
      break;
    case FlagInfo::Kind::String:
      EXPECT_EQ(flags.*info.stringField, "xyz") << info.name.str();
      break;
    }
    EXPECT_FALSE(info.help.empty()) << info.name.str();
  }
}

// The machine model's parameters can be overridden one by one.
TEST(CompileFlagsTest, OverridesTheMachineModel) {
  CompileFlags flags;
  flags.cpu = "x86-64-v3";
  flags.vectorRegisters = 32;
  flags.l1CacheKiB = 48;
  flags.threads = 3;
  llvm::Expected<PipelineOptions> options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->cpuModel.vectorBits, 256u);
  EXPECT_EQ(options->cpuModel.numVectorRegisters, 32u);
  EXPECT_EQ(options->cpuModel.l1CacheKiB, 48u);
  EXPECT_EQ(options->cpuModel.numThreads, 3u);
}

TEST(CompileFlagsTest, ResolvesTheTargetMachine) {
  CompileFlags flags;
  flags.cpu = "x86-64-v3";
  llvm::Expected<PipelineOptions> options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->cpu, "x86-64-v3");
  EXPECT_EQ(options->cpuModel.vectorBits, 256u); // AVX2
  EXPECT_TRUE(options->parallelize);
  EXPECT_EQ(options->cpuModel.l2CacheKiB, 512u); // not the host: the default

  flags.l2CacheKiB = 2048;
  options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->cpuModel.l2CacheKiB, 2048u);
  flags.l2CacheKiB = 0;

  flags.cpu = "x86-64-v4";
  flags.noParallel = true;
  options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->cpuModel.vectorBits, 512u); // AVX-512
  EXPECT_FALSE(options->parallelize);
}

TEST(CompileFlagsTest, ResolvesGPUChips) {
  CompileFlags flags;
  ASSERT_FALSE(static_cast<bool>(parseCompileFlags(
      {"compile", "--target=nvgpu", "--chip", "sm_90a", "--emulate-gpu"},
      flags)));
  EXPECT_EQ(flags.target, "nvgpu");
  EXPECT_EQ(flags.chip, "sm_90a");
  llvm::Expected<PipelineOptions> options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->target, TargetKind::NVGPU);
  EXPECT_EQ(options->chip, "sm_90a");
  EXPECT_TRUE(options->emulateGPU);

  flags = CompileFlags();
  flags.target = "nvgpu";
  options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->chip, "sm_80"); // the default
  EXPECT_FALSE(options->emulateGPU);

  for (const char *bad : {"sm_50", "sm_8", "gfx90a", "sm_90b"}) {
    flags.chip = bad;
    options = resolvePipelineOptions(flags);
    ASSERT_FALSE(static_cast<bool>(options)) << bad;
    EXPECT_NE(llvm::toString(options.takeError()).find("unknown chip"),
              std::string::npos);
  }
}

TEST(CompileFlagsTest, ResolvesAMDChips) {
  CompileFlags flags;
  flags.target = "amdgpu";
  llvm::Expected<PipelineOptions> options = resolvePipelineOptions(flags);
  ASSERT_TRUE(static_cast<bool>(options))
      << llvm::toString(options.takeError());
  EXPECT_EQ(options->target, TargetKind::AMDGPU);
  EXPECT_EQ(options->chip, "gfx90a");         // the default
  EXPECT_EQ(options->gpuBinaryFormat, "bin"); // an HSACO code object
  // The folder whose llvm/bin/ld.lld links it (the one beside the tools).
  EXPECT_FALSE(options->gpuToolkitPath.empty());

  for (const char *chip : {"gfx942", "gfx1100"}) {
    flags.chip = chip;
    options = resolvePipelineOptions(flags);
    ASSERT_TRUE(static_cast<bool>(options)) << chip;
    EXPECT_EQ(options->chip, chip);
  }
  for (const char *bad : {"sm_80", "gfx906", "gfx90", "gfx1100a"}) {
    flags.chip = bad;
    options = resolvePipelineOptions(flags);
    ASSERT_FALSE(static_cast<bool>(options)) << bad;
    EXPECT_NE(llvm::toString(options.takeError()).find("unknown chip"),
              std::string::npos);
  }
}

TEST(CompileFlagsTest, ReportsBadValuesAsPbtoolDoes) {
  CompileFlags flags;
  flags.target = "tpu";
  llvm::Expected<PipelineOptions> options = resolvePipelineOptions(flags);
  ASSERT_FALSE(static_cast<bool>(options));
  EXPECT_EQ(llvm::toString(options.takeError()),
            "unknown target 'tpu' (known targets: cpu, nvgpu, amdgpu)");

  flags = CompileFlags();
  flags.cpu = "pentium-9000";
  options = resolvePipelineOptions(flags);
  ASSERT_FALSE(static_cast<bool>(options));
  EXPECT_NE(
      llvm::toString(options.takeError()).find("unknown CPU 'pentium-9000'"),
      std::string::npos);

  flags = CompileFlags();
  flags.extraS3Passes = "no-such-pass";
  options = resolvePipelineOptions(flags);
  ASSERT_FALSE(static_cast<bool>(options));
  EXPECT_NE(
      llvm::toString(options.takeError()).find("bad --experimental-s3-passes"),
      std::string::npos);
}

} // namespace
