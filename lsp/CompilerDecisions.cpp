//===- CompilerDecisions.cpp - What S3 made of each function --------------===//

#include "CompilerDecisions.h"

#include "polyblocks/IR/Decisions.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace polyblocks;

namespace pblsp {

/// Nests listed in a hover, and loops listed per nest.
static constexpr size_t kMaxNests = 8;
static constexpr size_t kMaxLoopsPerNest = 12;

static bool isLoop(Operation *op) { return isa<LoopLikeOpInterface>(op); }

static std::optional<unsigned> getLineIn(Location loc, StringRef path) {
  std::optional<unsigned> line;
  loc->walk([&](Location nested) {
    auto fileLoc = dyn_cast<FileLineColLoc>(nested);
    if (!fileLoc || fileLoc.getFilename().getValue() != path)
      return WalkResult::advance();
    line = fileLoc.getLine();
    return WalkResult::interrupt();
  });
  return line;
}

SourceOps collectSourceOps(ModuleOp module, StringRef path) {
  SourceOps ops;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp>(op))
      return;
    if (std::optional<unsigned> line = getLineIn(op->getLoc(), path))
      ops.try_emplace(*line, op->getName().getStringRef().str());
  });
  return ops;
}

/// The loops of `func` that no other loop encloses.
static SmallVector<Operation *> getLoopNests(func::FuncOp func) {
  SmallVector<Operation *> nests;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation() || !isLoop(op))
      return WalkResult::advance();
    nests.push_back(op);
    return WalkResult::skip();
  });
  return nests;
}

void recordAfterS2(ModuleOp module, ProgramDecisions &decisions) {
  for (auto func : module.getOps<func::FuncOp>())
    decisions.functions[func.getSymName()].nestsAfterS2 =
        getLoopNests(func).size();
}

static std::string joinDims(ArrayRef<int64_t> values) {
  std::string s;
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? "x" : "") + std::to_string(v);
  return s;
}

/// Fills in the trip counts and steps of `loop`.
static LoopSummary summarizeLoop(Operation *loop, unsigned depth,
                                 NestSummary &nest) {
  LoopSummary summary;
  summary.opName = loop->getName().getStringRef().str();
  summary.depth = depth;
  summary.iterations = "?";
  SmallVector<int64_t> steps;
  if (auto forOp = dyn_cast<affine::AffineForOp>(loop)) {
    if (std::optional<uint64_t> trips = affine::getConstantTripCount(forOp))
      summary.iterations = std::to_string(*trips);
    steps.push_back(forOp.getStepAsInt());
  } else if (auto parallel = dyn_cast<affine::AffineParallelOp>(loop)) {
    summary.parallel = true;
    for (int64_t step : parallel.getSteps())
      steps.push_back(step);
    if (auto ranges = parallel.getConstantRanges()) {
      SmallVector<int64_t> trips;
      for (auto [range, step] : llvm::zip(*ranges, steps))
        trips.push_back(step > 0 ? llvm::divideCeil(range, step) : range);
      summary.iterations = joinDims(trips);
    }
  } else if (isa<scf::ParallelOp>(loop)) {
    summary.parallel = true;
  }
  if (llvm::any_of(steps, [](int64_t step) { return step != 1; }))
    summary.steps = joinDims(steps);
  return summary;
}

static NestSummary summarizeNest(Operation *root, StringRef path,
                                 const SourceOps &sourceOps) {
  NestSummary nest;
  for (const Decision &decision : getDecisions(root))
    nest.decisions.push_back(decision.pass + ": " + decision.summary);
  if (std::optional<unsigned> line = getLineIn(root->getLoc(), path)) {
    nest.line = *line;
    auto it = sourceOps.find(*line);
    if (it != sourceOps.end())
      nest.sourceOp = it->second;
  }
  auto noteVector = [&](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    if (!vector || !vector.getElementType().isIntOrFloat())
      return;
    uint64_t bits = vector.getNumElements() *
                    vector.getElementType().getIntOrFloatBitWidth();
    if (bits <= nest.widestVectorBits)
      return;
    nest.widestVectorBits = bits;
    nest.widestVector.clear();
    llvm::raw_string_ostream(nest.widestVector) << vector;
  };
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Type type : op->getResultTypes())
      noteVector(type);
    for (Type type : op->getOperandTypes())
      noteVector(type);
    if (!isLoop(op))
      return;
    unsigned depth = 0;
    for (Operation *p = op; p != root; p = p->getParentOp())
      if (isLoop(p->getParentOp()))
        ++depth;
    nest.loops.push_back(summarizeLoop(op, depth, nest));
    nest.depth = std::max(nest.depth, depth + 1);
    nest.numParallel += nest.loops.back().parallel;
  });
  return nest;
}

void recordAfterS3(ModuleOp module, StringRef path, const SourceOps &sourceOps,
                   ProgramDecisions &decisions) {
  for (auto func : module.getOps<func::FuncOp>()) {
    FunctionDecisions &fd = decisions.functions[func.getSymName()];
    fd.presentAfterS3 = true;
    for (Operation *root : getLoopNests(func))
      fd.nests.push_back(summarizeNest(root, path, sourceOps));
  }
}

static std::string renderNest(const NestSummary &nest, size_t index) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "**Nest " << index + 1 << "**";
  if (nest.line) {
    os << ", from line " << nest.line;
    if (!nest.sourceOp.empty())
      os << " (`" << nest.sourceOp << "`)";
  }
  os << ": " << nest.loops.size()
     << (nest.loops.size() == 1 ? " loop" : " loops") << ", depth "
     << nest.depth << ", " << nest.numParallel << " parallel";
  if (nest.widestVectorBits)
    os << "; widest vector `" << nest.widestVector << "` ("
       << nest.widestVectorBits << " bits)";
  else
    os << "; no vector types (LLVM may still vectorize at -O3)";
  os << "\n\n";
  // What the passes recorded on the nest: its tiles, fusion and threads.
  for (const std::string &decision : nest.decisions)
    os << "- " << decision << "\n";
  if (!nest.decisions.empty())
    os << "\n";
  os << "```text\n";
  for (auto [i, loop] : llvm::enumerate(nest.loops)) {
    if (i == kMaxLoopsPerNest) {
      os << "... " << nest.loops.size() - i << " more loops\n";
      break;
    }
    os << std::string(2 * loop.depth, ' ') << loop.opName << "  "
       << loop.iterations
       << (loop.iterations == "1" ? " iteration" : " iterations");
    if (!loop.steps.empty())
      os << ", step " << loop.steps;
    if (loop.parallel)
      os << "  (parallel)";
    os << "\n";
  }
  os << "```\n";
  return s;
}

std::string renderDecisions(const ProgramDecisions &decisions,
                            StringRef function) {
  const PipelineOptions &options = decisions.options;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "**What PolyBlocks makes of `@" << function
     << "`** (the IR after S3, `optimize`)\n\n";
  if (!decisions.flagsError.empty()) {
    os << "Nothing: the flags from " << decisions.flagsOrigin
       << " cannot be used: " << decisions.flagsError << "\n";
    return s;
  }
  std::string cpu = options.cpu;
  if (cpu == "host")
    cpu = ("host, " + llvm::sys::getHostCPUName()).str();
  os << "- target `" << getTargetKindName(options.target) << "`, CPU `" << cpu
     << "`: " << options.cpuModel.vectorBits << "-bit vectors, "
     << options.cpuModel.numVectorRegisters << " vector registers, L1d "
     << options.cpuModel.l1CacheKiB << " KiB " << options.cpuModel.l1Ways
     << "-way, L2 " << options.cpuModel.l2CacheKiB << " KiB\n";
  os << "- flags: " << decisions.flagsOrigin << "\n";
  os << "- parallel loops: ";
  if (options.parallelize)
    os << "on, " << options.cpuModel.numThreads << " threads\n";
  else
    os << "off (`--no-parallel`)\n";
  os << "- fusion: "
     << (options.fuse ? "upstream sibling fusion (`--fuse`, experimental)"
                      : "off (`--fuse` not given)")
     << "\n";
  if (!decisions.failure.empty()) {
    os << "\nThe pipeline stopped before the end of S3: " << decisions.failure
       << "\n";
    return s;
  }
  auto it = decisions.functions.find(function);
  if (it == decisions.functions.end() || !it->second.presentAfterS3) {
    os << "\n`@" << function
       << "` is no longer in the program after S3 (S1 inlines private "
          "functions into their callers and removes them)\n";
    return s;
  }
  const FunctionDecisions &fd = it->second;
  os << "- loop nests: " << fd.nests.size() << " after S3 (" << fd.nestsAfterS2
     << " after S2)\n";
  for (auto [i, nest] : llvm::enumerate(fd.nests)) {
    if (i == kMaxNests) {
      os << "\n... " << fd.nests.size() - i << " more nests\n";
      break;
    }
    os << "\n" << renderNest(nest, i);
  }
  return s;
}

} // namespace pblsp
