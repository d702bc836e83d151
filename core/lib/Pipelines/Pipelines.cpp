//===- Pipelines.cpp - The five PolyBlocks stages -------------------------===//
//
// The one file that orders passes into stages. Every dialect change is
// marked with a one-line comment.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Pipelines/Pipelines.h"

#include "polyblocks/Support/TimingScopes.h"
#include "polyblocks/Target/GPUTarget.h"
#include "polyblocks/Transforms/Passes.h"

#include "mlir/Conversion/GPUToROCDL/Runtimes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace polyblocks {

//===----------------------------------------------------------------------===//
// Stage table
//===----------------------------------------------------------------------===//

static const StageInfo kStages[] = {
    {Stage::S1, "s1", "bufferize", "pb-s1-pipeline",
     "tensor -> memref: input checks, TOSA to linalg, inlining, tensors "
     "carried by loops updated in place, one-shot bufferization with "
     "identity layouts at function boundaries, results "
     "as out-parameters, deallocation, i32 status results"},
    {Stage::S2, "s2", "affine", "pb-s2-pipeline",
     "named ops -> affine: copies and linalg ops on memrefs become affine "
     "loop nests (convolutions through affine index maps, no im2col); "
     "tm_tensor sort, topk, scan and scatter become loops; run-time checks "
     "guard the work they protect and set the status"},
    {Stage::S3, "s3", "optimize", "pb-s3-pipeline",
     "affine, target-aware: full unrolling of short loops, loop order for "
     "unit-stride innermost loops, streamed matmuls with few rows, packed "
     "and register-tiled vector micro-kernels for matmul-like nests (row "
     "factor packed when its k block outgrows L2), scalar "
     "replacement, buffer fills folded into their first reader, "
     "producer-consumer fusion with recomputation into L2-sized tiles, "
     "fusion along outer parallel loops, accumulators in registers, "
     "reciprocals of loop-invariant divisors, "
     "parallelization of the outermost parallel loop of large nests, "
     "prefetches of the next row in multi-pass row kernels, row maxima as "
     "one compare-and-select per vector, stack buffers hoisted out of "
     "sequential loops "
     "(upstream fusion and cache tiling as experimental switches); for GPUs "
     "matrix products on tensor cores (NVIDIA WMMA) or matrix cores (AMD "
     "MFMA / WMMA), then the target-neutral part: fills, fusion, "
     "accumulators, reciprocals"},
    {Stage::S4, "s4", "map", "pb-s4-pipeline",
     "affine -> target dialects: affine to scf, parallel loops to OpenMP "
     "(consecutive ones in one parallel region), math and bf16 expansion for "
     "the host, inline polynomial exp, log, "
     "tanh and erf; for GPUs, loop nests to kernel launches (parallel bands "
     "one thread per iteration) outlined into one GPU module for the chip "
     "(NVVM or ROCDL target)"},
    {Stage::S5, "s5", "llvm", "pb-s5-pipeline",
     "-> LLVM dialect: entry-point buffers marked noalias; memref, arith, "
     "math, func (bare-pointer calling convention), cf and OpenMP to LLVM; "
     "then LLVM IR and object code; for GPUs, kernels to NVVM, PTX, cubin "
     "(ptxas) and fatbin, or to ROCDL, AMDGPU code and HSACO (lld), "
     "embedded in the host object, launches and device buffers through the "
     "PolyBlocks runtime"},
};

ArrayRef<StageInfo> getStageTable() { return kStages; }

const StageInfo &getStageInfo(Stage stage) {
  return kStages[static_cast<int>(stage) - 1];
}

std::optional<Stage> parseStage(StringRef id) {
  for (const StageInfo &info : kStages)
    if (id.equals_insensitive(info.id))
      return info.stage;
  return std::nullopt;
}

MachineModel PipelineOptions::getMachineModel() const {
  MachineModel model;
  model.target = target;
  model.cpu = cpuModel;
  if (isGPUTarget(target))
    model.gpu = lookupGPUChip(target, chip);
  return model;
}

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

/// Rewrites of the tensor program that the reference lowering leaves out:
/// convolutions channels-last on the CPU (grouped ones as a batch over
/// their groups), transposes of activations moved
/// until they cancel, slices of results computed alone, contractions' column
/// factors with their columns innermost (CPU), transposes of weights
/// and elementwise ops on constants evaluated, batch norms folded into the
/// convolutions before them, contractions' loops collapsed into a matmul's,
/// chains of elementwise ops fused, copies that change no value folded,
/// 1x1 convolutions as matmuls (CPU),
/// padded tensors computed in place.
static void addTensorOptimizations(OpPassManager &pm,
                                   const PipelineOptions &options) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  if (!isGPUTarget(options.target))
    fpm.addPass(createPBConvertConvsToChannelsLast());
  fpm.addPass(createPBPropagateTransposes());
  // After the transposes' propagation, which would read the filter's
  // transpose through the generic's map (a filter that is no constant).
  if (!isGPUTarget(options.target))
    fpm.addPass(createPBGroupedConvsAsBatches());
  fpm.addPass(createPBBubbleUpExtractSlices());
  if (!isGPUTarget(options.target))
    fpm.addPass(createPBTransposeColumnFactors());
  fpm.addPass(createPBFoldConstantTransposes());
  fpm.addPass(createPBFoldConstantElementwise());
  fpm.addPass(createPBFoldScaleShift());
  fpm.addPass(createPBCollapseContractionDims());
  fpm.addPass(createPBFuseElementwise());
  fpm.addPass(createPBFoldCopyGenerics());
  if (!isGPUTarget(options.target)) {
    fpm.addPass(createPBFuseAttention());
    fpm.addPass(createPBTileBatch());
    fpm.addPass(createPBPointwiseConvsAsMatmuls());
  }
  fpm.addPass(createPBPadInPlace());
  fpm.addPass(createCanonicalizerPass());
}

/// The part of S1 on tensors; `optimize` false for the reference lowering.
static void buildTensorPart(OpPassManager &pm, const PipelineOptions &options,
                            bool optimize) {
  pm.addPass(createPBLegalizeInput());
  // tosa -> linalg / arith / tensor
  // Validation accepts every data type combination that lowers, e.g.
  // tosa.clamp on i32, beyond the profiles of the TOSA specification.
  tosa::TosaValidationOptions validation;
  validation.allowInvalidOpDatatypeCombinations = true;
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions{},
                              TosaToLinalgNamedOptions{}, validation);
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createPBDecomposeAggregateOps());
  if (optimize)
    addTensorOptimizations(pm, options);
}

void buildTensorPipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildTensorPart(pm, options, /*optimize=*/true);
}

/// S1; `optimize` false for the reference lowering.
static void buildS1(OpPassManager &pm, const PipelineOptions &options,
                    bool optimize) {
  buildTensorPart(pm, options, optimize);
  pm.addPass(createPBPrepareEntryPoints());
  pm.addNestedPass<func::FuncOp>(createPBYieldIntoIterArgs());
  // tensor -> memref
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops of input programs (scf.for / scf.while carrying tensors) may
  // yield a new buffer each iteration; the deallocation pipeline frees the
  // previous one.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // The same program, the same IR: bufferization's constant globals in a
  // fixed order.
  pm.addPass(createPBOrderConstantGlobals());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // Buffers whose owner is known only at run time (those yielded by loops)
  // are freed through a helper function taking dynamic memrefs, which the
  // bare-pointer calling convention cannot pass: it is inlined.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createPBReturnStatus());
  pm.addPass(createCanonicalizerPass());
}

void buildS1Pipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildS1(pm, options, /*optimize=*/true);
}

/// What becomes of the input's run-time checks: guarded work and a status,
/// unless dropped; a GPU's host cannot read the flag in device memory (nor
/// can the emulation, which keeps the GPU's mapping).
static PBLowerAssertionsOptions
getAssertionMode(const PipelineOptions &options) {
  if (options.dropAssertions)
    return {"drop"};
  if (isGPUTarget(options.target))
    return {"reject"};
  return {"guard"};
}

void buildS2Pipeline(OpPassManager &pm, const PipelineOptions &options) {
  OpPassManager &copies = pm.nest<func::FuncOp>();
  copies.addPass(createPBLowerCopies());
  // tm_tensor -> scf
  copies.addPass(createPBLowerTMTensor());
  // 3x3 convolutions -> Winograd transforms and a batch of matmuls (on the
  // module: the transformed filters are its globals)
  if (!isGPUTarget(options.target) && options.winograd)
    pm.addPass(createPBWinogradConvolutions());
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // linalg -> affine
  fpm.addPass(createConvertLinalgToAffineLoopsPass());
  // cf.assert -> scf.if around the work it guards, and a status
  fpm.addPass(createPBLowerAssertions(getAssertionMode(options)));
  fpm.addPass(createCanonicalizerPass());
}

/// S3's experimental switches, off by default: upstream fusion and tiling.
/// Producer-consumer fusion miscompiles nests that reuse a buffer or write
/// it through a subview (tests/e2e/softmax.mlir and others), sibling fusion
/// miscompiles overlapping subviews
/// (tests/Pipelines/s3-fusion-aliasing-subviews.mlir), and the tiling model
/// picks tiny tiles (tests/Pipelines/s3-tile-size-model.mlir).
static void addUpstreamFusion(OpPassManager &pm,
                              const PipelineOptions &options) {
  if (options.fuse)
    pm.addNestedPass<func::FuncOp>(affine::createLoopFusionPass(
        /*fastMemorySpace=*/0, /*localBufSizeThreshold=*/0,
        /*maximalFusion=*/false, affine::FusionMode::Sibling));
}
static void addExperimentalS3Passes(OpPassManager &fpm,
                                    const PipelineOptions &options) {
  if (options.tileCacheSizeKiB != 0)
    fpm.addPass(affine::createLoopTilingPass(
        static_cast<uint64_t>(options.tileCacheSizeKiB) * 1024));
  if (!options.extraS3Passes.empty() &&
      failed(parsePassPipeline(options.extraS3Passes, fpm, llvm::errs())))
    llvm::report_fatal_error("bad extra S3 pass pipeline (callers validate "
                             "it first)");
}

/// CPU loop nests in the shape the micro-kernels want: short loops
/// unrolled, unit-stride innermost loops; matmuls with up to half as many
/// rows as there are vector registers (one accumulator per row, the rest
/// for Y and the broadcasts) stream Y once, the others are packed for the
/// register-tiled micro-kernel; depthwise convolutions keep their output
/// columns in registers across the window; the elementwise nest after
/// either computed on its tiles as they are stored.
/// (The register tiles' pass runs on the module: the panels it packs at
/// compile time become globals of the module.) Returns the function
/// pipeline that the passes after it continue.
static OpPassManager &addCPUMicroKernels(OpPassManager &pm,
                                         OpPassManager &fpm) {
  fpm.addPass(createPBUnrollShortLoops());
  fpm.addPass(createPBPermuteForVectorization());
  // Before the micro-kernels, whose unrolled tiles and transforms hold tens
  // of accesses per buffer (bench/RESULTS.md, notes: compile time and
  // memory).
  fpm.addPass(createPBScalarReplacement());
  fpm.addPass(createPBStreamSkinnyContraction());
  pm.addPass(createPBRegisterTileContraction());
  OpPassManager &after = pm.nest<func::FuncOp>();
  after.addPass(createPBRegisterTileDepthwise());
  after.addPass(createPBFuseEpilogues());
  return after;
}

/// Fusion, target-neutral but for the CPU's producer slices: fills folded
/// into their first reader, producer slices recomputed per tile (CPU),
/// nests fused along their outer loops, then the accumulators fusion
/// brought together kept in registers. (Invariant loads leave the inner
/// loops first, so that those loops can fuse too.)
static void addFusion(OpPassManager &fpm, bool cpu) {
  // (On the CPU, scalar replacement ran before the micro-kernels.)
  if (!cpu)
    fpm.addPass(createPBScalarReplacement());
  fpm.addPass(createPBForwardFills());
  if (cpu)
    fpm.addPass(createPBFuseProducerSlices());
  fpm.addPass(affine::createAffineLoopInvariantCodeMotionPass());
  fpm.addPass(createPBFuseLoopNests());
  fpm.addPass(createPBPromoteAccumulators());
  fpm.addPass(createPBScalarReplacement());
  fpm.addPass(affine::createAffineLoopInvariantCodeMotionPass());
}

/// The CPU's threads and row kernels: the outermost parallel loops on all
/// cores, then one stack buffer per thread; row kernels (softmax,
/// layernorm) fetch the next row while this one computes, and row maxima
/// take one instruction per vector, not five.
static void addCPUThreadsAndRowKernels(OpPassManager &fpm,
                                       const PipelineOptions &options) {
  if (options.parallelize)
    fpm.addPass(createPBParallelizeOuterLoops());
  fpm.addPass(createPBHoistStackBuffers());
  fpm.addPass(createPBPrefetchNextRow());
  fpm.addPass(createPBVectorizeMaxReductions());
}

void buildS3Pipeline(OpPassManager &pm, const PipelineOptions &options) {
  // For GPUs: f16 matrix products on tensor cores, then the target-neutral
  // passes (fusion along parallel loops keeps whole bands parallel for
  // pb-map-to-gpu); the CPU's loop orders, packing, register tiles,
  // producer slices and OpenMP are not for GPUs. (Tensor-core kernels are
  // warp-level: --emulate-gpu leaves them out.)
  bool cpu = !isGPUTarget(options.target);
  if (cpu)
    addUpstreamFusion(pm, options);
  OpPassManager *nested = &pm.nest<func::FuncOp>();
  // Folds the constants S2 leaves in subscripts, so that accesses compare.
  nested->addPass(createCanonicalizerPass());
  if (cpu)
    nested = &addCPUMicroKernels(pm, *nested);
  else if (!options.emulateGPU)
    nested->addPass(createPBMapContractionToTensorCores());
  OpPassManager &fpm = *nested;
  addFusion(fpm, cpu);
  if (cpu)
    addExperimentalS3Passes(fpm, options);
  fpm.addPass(createPBHoistReciprocals());
  if (cpu)
    addCPUThreadsAndRowKernels(fpm, options);
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
  // Last: the passes above look for the buffers' allocations.
  if (cpu) {
    fpm.addPass(createPBShareBuffers());
    pm.addPass(createPBStaticArenas());
  }
  // The constants that packing replaced (a network's weights as they came).
  pm.addPass(createSymbolDCEPass());
}

/// Host-side lowering shared by S4 and the reference pipeline: math on
/// narrow floats is done in f32, bf16 arithmetic is emulated in f32, and
/// what LLVM cannot lower (bf16 conversions, ceil/floor division) is
/// expanded.
static void addHostExpansions(OpPassManager &pm) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  emulate.targetTypeStr = "f32";
  fpm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  fpm.addPass(createPBExpandArith());
}

/// The PTX version the NVVM target asks for: 8.0 covers sm_80 ... sm_90a
/// and is accepted by ptxas from CUDA 12.0 on.
static constexpr char kPTXFeatures[] = "+ptx80";

/// The AMD code object version: 5 rather than MLIR's default 6, the newest
/// version, which only the newest ROCm runtimes load. (Not tried on a GPU:
/// none was at hand; llvm-readelf reports ELF ABI version 3, i.e. v5.)
static constexpr char kAMDCodeObjectVersion[] = "500";

/// The end of S4 for GPUs: the kernels outlined into one GPU module for
/// the chip.
static void addGPUModule(OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(createCanonicalizerPass());
  // gpu.launch -> gpu.module + gpu.launch_func (constants sunk back into
  // the kernels, where they fold)
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createPBMergeGPUModules());
  // Host views the kernels now compute themselves.
  pm.addPass(createCanonicalizerPass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  if (options.target == TargetKind::NVGPU) {
    GpuNVVMAttachTargetOptions target;
    target.chip = options.chip;
    target.features = kPTXFeatures;
    target.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(target));
  } else {
    GpuROCDLAttachTargetOptions target;
    target.chip = options.chip;
    target.abiVersion = kAMDCodeObjectVersion;
    target.optLevel = 3;
    target.wave64Flag = options.getMachineModel().gpu->warpSize == 64;
    pm.addPass(createGpuROCDLAttachTarget(target));
    // The AMD kernels call no device library (PolyBlocks ships none, and
    // ROCm's are per chip): math on narrow floats is done in f32, every
    // function with a polynomial or an expansion is replaced by it, and
    // what is left (sqrt, fabs, exp and log on f32) becomes AMDGPU
    // instructions in S5.
    device.addPass(math::createMathExtendToSupportedTypes());
    device.addPass(createPBApproximateMath(PBApproximateMathOptions{true}));
  }
  device.addPass(createPBExpandArith());
  device.addPass(createCanonicalizerPass());
}

void buildS4Pipeline(OpPassManager &pm, const PipelineOptions &options) {
  bool gpu = isGPUTarget(options.target);
  // affine nests -> gpu.launch
  if (gpu)
    pm.addNestedPass<func::FuncOp>(createPBMapToGPU());
  // affine -> scf (host and kernels), with the loops' LLVM annotations
  pm.addPass(createPBLowerAffine());
  if (gpu && !options.emulateGPU)
    return addGPUModule(pm, options);
  if (gpu) {
    pm.addPass(createCanonicalizerPass());
    // gpu.launch -> scf.for over blocks and threads, then the CPU's S4
    pm.addNestedPass<func::FuncOp>(createPBEmulateGPULaunches());
  } else if (options.parallelize) {
    // scf.forall (parallel structures of the tensor program) ->
    // scf.parallel; scf.parallel -> omp, then one fork for consecutive
    // parallel loops, whose threads claim chunks instead of meeting at
    // barriers
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addNestedPass<func::FuncOp>(createPBMergeParallelRegions());
    pm.addPass(createPBBarrierFreeWorksharing());
  }
  addHostExpansions(pm);
  // Before the math ops are expanded: which loops compute exp, log, ...
  pm.addNestedPass<func::FuncOp>(createPBInterleaveMathLoops());
  pm.addNestedPass<func::FuncOp>(createPBApproximateMath());
  pm.addPass(createCanonicalizerPass());
}

/// The part of S5 that turns the host code into the LLVM dialect, for every
/// target.
static void addHostLowering(OpPassManager &pm) {
  pm.addPass(createPBMarkNoAlias());
  // Weights as one LLVM constant each, not one per row.
  pm.addPass(createPBFlattenConstantGlobals());
  // memref -> llvm (before scf -> cf: OpenMP's alloca scopes must be lowered
  // while their regions still hold a single block)
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // vector -> llvm
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // scf -> cf
  pm.addPass(createSCFToControlFlowPass());
  // math -> llvm intrinsics, then libm calls for what has no intrinsic
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // arith, func, cf -> llvm
  pm.addPass(createPBConvertHostToLLVM());
  // omp -> llvm, last (it needs the converted types of everything inside)
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Regions without barriers -> functions PolyBlocks' thread pool runs
  pm.addPass(createPBOutlineParallelRegions());
  pm.addPass(createCanonicalizerPass());
}

/// The device half of S5: the kernels in the LLVM dialect (NVVM or ROCDL).
static void addDeviceLowering(OpPassManager &pm,
                              const PipelineOptions &options) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  // scf -> cf
  device.addPass(createSCFToControlFlowPass());
  if (options.target == TargetKind::NVGPU) {
    // gpu, math (libdevice calls), memref, arith -> nvvm / llvm
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.indexBitwidth = 64;
    nvvm.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  } else {
    // amdgpu (matrix cores) -> rocdl
    ConvertAMDGPUToROCDLPassOptions amdgpu;
    amdgpu.chipset = options.chip;
    device.addPass(createConvertAMDGPUToROCDLPass(amdgpu));
    // gpu, memref, arith, math -> rocdl / llvm
    ConvertGpuOpsToROCDLOpsOptions rocdl;
    rocdl.chipset = options.chip;
    rocdl.indexBitwidth = 64;
    rocdl.useBarePtrCallConv = true;
    rocdl.runtime = gpu::amd::Runtime::HIP;
    device.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  }
  device.addPass(createCanonicalizerPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

void buildS5Pipeline(OpPassManager &pm, const PipelineOptions &options) {
  if (isGPUTarget(options.target) && !options.emulateGPU) {
    addDeviceLowering(pm, options);
    // nvvm -> PTX (LLVM's NVPTX back end) -> cubin (ptxas), bundled with the
    // PTX into a fatbin (fatbinary); rocdl -> AMDGPU code (LLVM's AMDGPU
    // back end) -> HSACO (ld.lld)
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = options.gpuBinaryFormat;
    binary.toolkitPath = options.gpuToolkitPath;
    pm.addPass(createGpuModuleToBinaryPass(binary));
    // gpu.binary + gpu.launch_func -> embedded image + runtime calls
    pm.addPass(createPBLowerGPUHost());
  }
  addHostLowering(pm);
}

/// The machine model of `options` as the text of a `pb.machine`
/// dictionary, its fields in MachineModel::toFields' order (a context of
/// its own: the pass manager being built has none to lend).
static std::string getMachineModelText(const PipelineOptions &options) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{";
  llvm::interleaveComma(options.getMachineModel().toFields(&context), os,
                        [&](NamedAttribute field) {
                          os << field.getName().getValue() << " = ";
                          field.getValue().print(os);
                        });
  os << "}";
  return text;
}

void buildStagePipeline(OpPassManager &pm, Stage stage,
                        const PipelineOptions &options) {
  // Every stage reads the machine it compiles for from the module.
  pm.addPass(createPBSetMachineModel(
      PBSetMachineModelOptions{getMachineModelText(options)}));
  switch (stage) {
  case Stage::S1:
    return buildS1Pipeline(pm, options);
  case Stage::S2:
    return buildS2Pipeline(pm, options);
  case Stage::S3:
    return buildS3Pipeline(pm, options);
  case Stage::S4:
    return buildS4Pipeline(pm, options);
  case Stage::S5:
    return buildS5Pipeline(pm, options);
  }
  llvm_unreachable("unknown stage");
}

void buildReferencePipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildS1(pm, options, /*optimize=*/false);
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(createPBLowerCopies());
  fpm.addPass(createPBLowerTMTensor());
  // linalg -> scf, directly
  fpm.addPass(createConvertLinalgToLoopsPass());
  fpm.addPass(createPBLowerAssertions(getAssertionMode(options)));
  addHostExpansions(pm);
  buildS5Pipeline(pm, options);
}

//===----------------------------------------------------------------------===//
// Running stages
//===----------------------------------------------------------------------===//

LogicalResult runPipeline(PassManager &pm, ModuleOp module, const Twine &what,
                          bool verifyEachPass) {
  unsigned numErrors = 0;
  ScopedDiagnosticHandler counter(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    return failure(); // let the enclosing handler report it
  });
  // Verifying after every pass walks the whole module each time (a sixth of
  // a network's compile time); once per run still keeps invalid IR from
  // leaving a stage.
  pm.enableVerifier(verifyEachPass);
  if (failed(pm.run(module))) {
    if (numErrors == 0)
      emitError(module.getLoc()) << what << " failed";
    return failure();
  }
  if (!verifyEachPass && failed(verify(module))) {
    emitError(module.getLoc())
        << what << " produced IR that does not verify (--verify-each names "
        << "the pass)";
    return failure();
  }
  return success();
}

LogicalResult runStages(ModuleOp module, Stage last,
                        const PipelineOptions &options,
                        StageCallback afterStage, TimingScope *timing) {
  for (const StageInfo &info : kStages) {
    if (info.stage > last)
      break;
    PassManager pm(module.getContext());
    buildStagePipeline(pm, info.stage, options);
    std::string stageName = ("stage " + info.id + " (" + info.name + ")").str();
    TimingScope stageTiming = nestTiming(timing, stageName);
    if (timing)
      pm.enableTiming(stageTiming);
    if (failed(runPipeline(pm, module, stageName, options.verifyEachPass)))
      return failure();
    if (afterStage && failed(afterStage(info, module)))
      return failure();
  }
  return success();
}

LogicalResult runTensorPipeline(ModuleOp module,
                                const PipelineOptions &options) {
  PassManager pm(module.getContext());
  buildTensorPipeline(pm, options);
  return runPipeline(pm, module, "the tensor part of stage s1",
                     options.verifyEachPass);
}

LogicalResult runReferencePipeline(ModuleOp module,
                                   const PipelineOptions &options) {
  PassManager pm(module.getContext());
  buildReferencePipeline(pm, options);
  return runPipeline(pm, module, "the reference pipeline",
                     options.verifyEachPass);
}

} // namespace polyblocks
