//===- Pipelines.h - The five PolyBlocks stages -----------------*- C++ -*-===//
//
// The one place that names, describes and orders the compilation stages.
// Each stage is a pass pipeline built by one function, and is also registered
// as a textual pipeline (`pb-s1-pipeline` ... `pb-s5-pipeline`) so that pbtool,
// lit tests and the language server share one definition.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_PIPELINES_PIPELINES_H
#define POLYBLOCKS_PIPELINES_PIPELINES_H

#include "polyblocks/Target/CPUTarget.h"
#include "polyblocks/Target/MachineModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace polyblocks {

/// The compilation stages, in order.
enum class Stage { S1 = 1, S2, S3, S4, S5 };

/// One row of the stage table.
struct StageInfo {
  Stage stage;
  llvm::StringLiteral id;           ///< "s1": --compile-to value
  llvm::StringLiteral name;         ///< "bufferize": used in dump file names
  llvm::StringLiteral pipelineName; ///< "pb-s1-pipeline"
  llvm::StringLiteral description;
};

/// The stage table, in pipeline order.
llvm::ArrayRef<StageInfo> getStageTable();
const StageInfo &getStageInfo(Stage stage);
/// Parses "s1".."s5" (case-insensitive).
std::optional<Stage> parseStage(llvm::StringRef id);

/// Everything that configures the pipeline, bound once to pbtool flags and
/// to the textual pipelines' options.
struct PipelineOptions {
  TargetKind target = TargetKind::CPU;
  /// GPU targets: the chip ("sm_80", "gfx90a", ...), the device binary S5
  /// embeds and the toolkit that makes it. nvgpu: "fatbin" (the chip's
  /// cubin from ptxas plus the PTX, which the driver compiles for newer
  /// chips), "bin" (the cubin alone) or "isa" (the PTX alone), with the CUDA
  /// toolkit holding ptxas and fatbinary (empty: found on PATH). amdgpu:
  /// "bin" (the HSACO code object) or "isa" (its assembly), with a ROCm
  /// folder whose llvm/bin/ld.lld links the code object.
  std::string chip = "sm_80";
  std::string gpuBinaryFormat = "fatbin";
  std::string gpuToolkitPath;
  /// GPU targets, for testing without a GPU: run each launch's blocks and
  /// threads as loops on the CPU (pb-emulate-gpu-launches) instead of
  /// producing device code; entry points keep the CPU interface.
  bool emulateGPU = false;
  /// CPU name for LLVM ("host" = the machine running the compiler).
  std::string cpu = "host";
  /// LLVM feature string, e.g. "+avx2,+fma"; empty = the CPU's own features.
  std::string cpuFeatures;
  /// Target triple; empty = the host's.
  std::string triple;
  /// Run the outermost parallel loops on all cores (OpenMP).
  bool parallelize = true;
  /// The CPU the models of S3 plan for (from the CPU by getCPUModel: its
  /// vectors and registers, and for --cpu=host its caches and threads).
  CPUModel cpuModel;
  /// Erase the input's run-time checks (cf.assert) instead of guarding the
  /// work they protect and returning PB_STATUS_CHECK_FAILED when one fails.
  bool dropAssertions = false;
  /// CPU: compute 3x3 stride-1 convolutions by constant filters with
  /// Winograd's F(m x m, 3 x 3) where the machine model finds it pays
  /// (pb-winograd-convolutions).
  bool winograd = true;
  /// Verify the IR after every pass, as pb-opt does, instead of once after
  /// each stage: a pass that breaks the IR is then named, at about a sixth
  /// more compile time on a network (the verifier walks the whole module).
  bool verifyEachPass = false;
  /// Threads that optimize and compile the host code of an object or a
  /// shared library, each a part of it (chooseCodegenSplit): 0, the host's
  /// for a large program; 1, one piece.
  unsigned codegenThreads = 0;

  // Experimental switches (upstream passes with known miscompiles or poor
  // choices, see buildS3Pipeline).
  /// Cache size that upstream affine-loop-tile tiles for, in KiB (0: none).
  unsigned tileCacheSizeKiB = 0;
  /// Upstream sibling fusion of loop nests.
  bool fuse = false;
  /// A textual pass pipeline on func.func appended to S3, for trying out
  /// transformations (e.g. "affine-loop-unroll-jam{unroll-jam-factor=4}").
  std::string extraS3Passes;

  /// The machine the passes read (attached to the module as `pb.machine`).
  MachineModel getMachineModel() const;
  /// The CPU that S5 generates the host code for.
  CPUTargetSpec getCPUTarget() const { return {cpu, cpuFeatures, triple}; }
};

/// Appends the passes of one stage to `pm` (a pass manager on builtin.module).
void buildS1Pipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
void buildS2Pipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
void buildS3Pipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
void buildS4Pipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
void buildS5Pipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
void buildStagePipeline(mlir::OpPassManager &pm, Stage stage,
                        const PipelineOptions &options);

/// The part of S1 that works on tensors, before bufferization: input
/// checks, TOSA to linalg, inlining, aggregate ops decomposed, and the
/// rewrites of the tensor program (channels-last convolutions, transposes
/// propagated and folded). What a network is made of once S1 has chosen its
/// layouts: per-op timing splits the program after it.
void buildTensorPipeline(mlir::OpPassManager &pm,
                         const PipelineOptions &options);

/// The unoptimized reference lowering that optimized code is checked against:
/// S1, then linalg straight to scf loops, then the plain LLVM lowering, with
/// none of S2-S4's transformations.
void buildReferencePipeline(mlir::OpPassManager &pm,
                            const PipelineOptions &options);

/// Called after each stage with the module as that stage left it.
using StageCallback =
    llvm::function_ref<mlir::LogicalResult(const StageInfo &, mlir::ModuleOp)>;

/// Runs `pm` on `module`. The IR is verified after every pass with
/// `verifyEachPass`, else once at the end; a run that fails without saying
/// why, or leaves IR that does not verify, gets a located error naming
/// `what`.
mlir::LogicalResult runPipeline(mlir::PassManager &pm, mlir::ModuleOp module,
                                const llvm::Twine &what, bool verifyEachPass);

/// Runs S1 up to and including `last` on `module`, one pass manager per
/// stage, each through runPipeline. With `timing`, each stage's passes are
/// timed in a scope nested in it.
mlir::LogicalResult runStages(mlir::ModuleOp module, Stage last,
                              const PipelineOptions &options,
                              StageCallback afterStage = nullptr,
                              mlir::TimingScope *timing = nullptr);

/// Runs the tensor part of S1 on `module`.
mlir::LogicalResult runTensorPipeline(mlir::ModuleOp module,
                                      const PipelineOptions &options);

/// Runs the reference pipeline on `module`.
mlir::LogicalResult runReferencePipeline(mlir::ModuleOp module,
                                         const PipelineOptions &options);

} // namespace polyblocks

#endif // POLYBLOCKS_PIPELINES_PIPELINES_H
