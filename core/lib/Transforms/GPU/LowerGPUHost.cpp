//===- LowerGPUHost.cpp - Host side of GPU entry points -------------------===//
//
// Embeds the device binary in the host object and turns launches, device
// allocations and frees into calls to the PolyBlocks runtime
// (runtime/include/polyblocks/runtime.h), threading the status through.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/GPUTarget.h"
#include "polyblocks/runtime.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "pb-lower-gpu-host"

namespace polyblocks {
#define GEN_PASS_DEF_PBLOWERGPUHOST
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// What the host needs to know of one embedded device binary.
struct EmbeddedBinary {
  LLVM::GlobalOp image;
  LLVM::GlobalOp moduleSlot;
  uint64_t size;
  pbrtPlatform platform;
};

struct LowerGPUHostPass
    : public polyblocks::impl::PBLowerGPUHostBase<LowerGPUHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    ptrType = LLVM::LLVMPointerType::get(ctx);
    i32 = IntegerType::get(ctx, 32);
    i64 = IntegerType::get(ctx, 64);

    if (failed(embedBinaries(module)) || failed(declareRuntime(module)))
      return signalPassFailure();
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (!func.isPublic()) {
        bool launches =
            func.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
                .wasInterrupted();
        if (launches) {
          func.emitOpError("launches kernels but is not an entry point; GPU "
                           "work must be in public functions");
          return signalPassFailure();
        }
        continue;
      }
      if (failed(lowerEntryPoint(func)))
        return signalPassFailure();
    }
    for (auto binary :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      binary.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }

  /// Each gpu.binary becomes a constant byte array (PTX text gets its
  /// terminating NUL, which the driver expects) and a module slot.
  LogicalResult embedBinaries(ModuleOp module) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      if (binary.getObjects().size() != 1)
        return binary.emitOpError("holds ")
               << binary.getObjects().size()
               << " objects; PolyBlocks embeds exactly one (one chip per "
                  "compilation)";
      auto object = cast<gpu::ObjectAttr>(*binary.getObjects().begin());
      if (object.getFormat() == gpu::CompilationTarget::Offload)
        return binary.emitOpError("holds LLVM IR, which the runtime does not "
                                  "load (expected a fatbin, a binary or "
                                  "assembly)");
      std::string bytes = object.getObject().getValue().str();
      if (object.getFormat() == gpu::CompilationTarget::Assembly)
        bytes.push_back('\0');
      Location loc = binary.getLoc();
      StringRef name = binary.getSymName();
      auto arrayType = LLVM::LLVMArrayType::get(
          IntegerType::get(builder.getContext(), 8), bytes.size());
      auto image = LLVM::GlobalOp::create(
          builder, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
          (polyblocks::kDeviceImagePrefix + name).str(),
          builder.getStringAttr(bytes),
          /*alignment=*/16);
      EmbeddedBinary embedded{
          image, createNullSlot(builder, loc, "__pb_gpu_module_" + name),
          bytes.size(),
          isa<NVVM::NVVMTargetAttr>(object.getTarget()) ? PBRT_PLATFORM_CUDA
                                                        : PBRT_PLATFORM_HIP};
      binaries[binary.getSymNameAttr()] = embedded;
    }
    return success();
  }

  /// An internal global pointer, initially null, that the runtime fills.
  LLVM::GlobalOp createNullSlot(OpBuilder &builder, Location loc,
                                const Twine &name) {
    auto slot = LLVM::GlobalOp::create(
        builder, loc, ptrType,
        /*isConstant=*/false, LLVM::Linkage::Internal, name.str(), Attribute());
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&slot.getInitializerRegion());
    Value null = LLVM::ZeroOp::create(builder, loc, ptrType);
    LLVM::ReturnOp::create(builder, loc, null);
    return slot;
  }

  LogicalResult declareRuntime(ModuleOp module) {
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    auto declare = [&](StringRef name, Type result, ArrayRef<Type> args) {
      if (module.lookupSymbol(name))
        return;
      LLVM::LLVMFuncOp::create(builder, loc, name,
                               LLVM::LLVMFunctionType::get(result, args));
    };
    // int32_t pbrtLaunch(int32_t status, int32_t platform, void **module,
    //   const void *image, uint64_t imageSize, void **function,
    //   const char *name, uint32_t gridX, gridY, gridZ, blockX, blockY,
    //   blockZ, uint32_t sharedBytes, void *stream, void **args)
    declare("pbrtLaunch", i32,
            {i32, i32, ptrType, ptrType, i64, ptrType, ptrType, i32, i32, i32,
             i32, i32, i32, i32, ptrType, ptrType});
    // int32_t pbrtAlloc(int32_t status, int32_t platform, void **ptr,
    //   uint64_t bytes, void *stream)
    declare("pbrtAlloc", i32, {i32, i32, ptrType, i64, ptrType});
    // void pbrtFree(int32_t platform, void *ptr, void *stream)
    declare("pbrtFree", LLVM::LLVMVoidType::get(module.getContext()),
            {i32, ptrType, ptrType});
    return success();
  }

  /// The address of `global` at the builder's insertion point.
  Value addressOf(OpBuilder &builder, Location loc, LLVM::GlobalOp global) {
    return LLVM::AddressOfOp::create(builder, loc, global);
  }

  LogicalResult lowerEntryPoint(func::FuncOp func) {
    Block &body = func.getBody().front();
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("has several blocks; expected the straight-line "
                              "host code of pb-map-to-gpu");
    Location funcLoc = func.getLoc();
    if (failed(func.insertArgument(func.getNumArguments(), ptrType,
                                   DictionaryAttr(), funcLoc)))
      return failure();
    Value stream = body.getArgument(body.getNumArguments() - 1);

    OpBuilder entry = OpBuilder::atBlockBegin(&body);
    Value one = LLVM::ConstantOp::create(entry, funcLoc, i64, 1);
    Value status = arith::ConstantIntOp::create(entry, funcLoc, 0, 32);
    std::optional<pbrtPlatform> platform;
    auto platformValue = [&](OpBuilder &builder, Location loc) -> Value {
      return arith::ConstantIntOp::create(
          builder, loc, platform.value_or(PBRT_PLATFORM_CUDA), 32);
    };
    // The platform of the function's first binary decides its allocations.
    func.walk([&](gpu::LaunchFuncOp launch) {
      auto it = binaries.find(launch.getKernelModuleName());
      if (!platform && it != binaries.end())
        platform = it->second.platform;
    });

    DenseMap<Value, Value> devicePointers; // alloc result -> its pointer
    SmallVector<Operation *> toErase;
    auto pointerOf = [&](OpBuilder &builder, Location loc,
                         Value memref) -> Value {
      if (Value ptr = devicePointers.lookup(memref))
        return ptr;
      Value index =
          memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
      Value asInt = arith::IndexCastOp::create(builder, loc, i64, index);
      return LLVM::IntToPtrOp::create(builder, loc, ptrType, asInt);
    };

    for (Operation &op : llvm::make_early_inc_range(body)) {
      OpBuilder builder(&op);
      Location loc = op.getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        MemRefType type = alloc.getType();
        if (!type.hasStaticShape() || !type.getLayout().isIdentity())
          return alloc.emitOpError("allocates a buffer with a dynamic shape "
                                   "or a layout; device buffers are dense "
                                   "and static");
        uint64_t bytes = type.getNumElements() *
                         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
        Value slot = LLVM::AllocaOp::create(entry, loc, ptrType, ptrType, one);
        LLVM::StoreOp::create(
            builder, loc, LLVM::ZeroOp::create(builder, loc, ptrType), slot);
        Value size = LLVM::ConstantOp::create(builder, loc, i64,
                                              std::max<uint64_t>(bytes, 1));
        status =
            LLVM::CallOp::create(builder, loc, TypeRange{i32}, "pbrtAlloc",
                                 ValueRange{status, platformValue(builder, loc),
                                            slot, size, stream})
                .getResult();
        devicePointers[alloc] =
            LLVM::LoadOp::create(builder, loc, ptrType, slot);
        toErase.push_back(alloc);
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        LLVM::CallOp::create(
            builder, loc, TypeRange{}, "pbrtFree",
            ValueRange{platformValue(builder, loc),
                       pointerOf(builder, loc, dealloc.getMemref()), stream});
        dealloc.erase();
        continue;
      }
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        FailureOr<Value> next =
            lowerLaunch(builder, entry, launch, status, stream, one, pointerOf);
        if (failed(next))
          return failure();
        status = *next;
        launch.erase();
        continue;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        ret.getOperandsMutable().assign(status);
        continue;
      }
      if (op.getNumRegions() == 0 && isPure(&op))
        continue;
      return op.emitOpError("cannot run on the host for a GPU target: only "
                            "allocations, launches and pure operations may "
                            "remain outside kernels");
    }
    for (Operation *op : llvm::reverse(toErase)) {
      if (!op->use_empty())
        return op->emitOpError("is used by something other than kernels and "
                               "its free");
      op->erase();
    }
    return success();
  }

  template <typename PointerOf>
  FailureOr<Value> lowerLaunch(OpBuilder &builder, OpBuilder &entry,
                               gpu::LaunchFuncOp launch, Value status,
                               Value stream, Value one, PointerOf pointerOf) {
    Location loc = launch.getLoc();
    if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() ||
        launch.hasClusterSize())
      return launch.emitOpError("uses async tokens or clusters, which "
                                "pb-lower-gpu-host does not lower");
    auto it = binaries.find(launch.getKernelModuleName());
    if (it == binaries.end())
      return launch.emitOpError() << "names @" << launch.getKernelModuleName()
                                  << ", which is not a gpu.binary (run "
                                     "gpu-module-to-binary first)";
    const EmbeddedBinary &binary = it->second;
    StringRef kernel = launch.getKernelName().getValue();
    ModuleOp module = getOperation();

    // Per-kernel globals: the function slot and the NUL-terminated name.
    std::string slotName = ("__pb_gpu_function_" + kernel).str();
    auto fnSlot = module.lookupSymbol<LLVM::GlobalOp>(slotName);
    auto nameGlobal =
        module.lookupSymbol<LLVM::GlobalOp>(("__pb_gpu_name_" + kernel).str());
    if (!fnSlot) {
      OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
      fnSlot = createNullSlot(top, loc, slotName);
      std::string text = (kernel + Twine('\0')).str();
      nameGlobal = LLVM::GlobalOp::create(
          top, loc,
          LLVM::LLVMArrayType::get(IntegerType::get(top.getContext(), 8),
                                   text.size()),
          /*isConstant=*/true, LLVM::Linkage::Internal,
          ("__pb_gpu_name_" + kernel).str(), top.getStringAttr(text));
    }

    // The kernel arguments, each in its own stack slot, and their addresses
    // in an array.
    ValueRange operands = launch.getKernelOperands();
    Value count = LLVM::ConstantOp::create(
        entry, loc, i64, std::max<int64_t>(1, operands.size()));
    Value array = LLVM::AllocaOp::create(entry, loc, ptrType, ptrType, count);
    for (auto [i, operand] : llvm::enumerate(operands)) {
      Value value = operand;
      Type type = operand.getType();
      if (isa<MemRefType>(type)) {
        value = pointerOf(builder, loc, operand);
      } else if (type.isIndex()) {
        value = arith::IndexCastOp::create(builder, loc, i64, operand);
      } else if (!type.isIntOrFloat()) {
        return launch.emitOpError() << "passes a kernel argument of type "
                                    << type << ", which has no device form";
      }
      Value slot =
          LLVM::AllocaOp::create(entry, loc, ptrType, value.getType(), one);
      LLVM::StoreOp::create(builder, loc, value, slot);
      Value element =
          LLVM::GEPOp::create(builder, loc, ptrType, ptrType, array,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(builder, loc, slot, element);
    }

    auto toI32 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(builder, loc, i32, v);
    };
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value shared = launch.getDynamicSharedMemorySize();
    Value sharedBytes =
        shared ? Value(arith::IndexCastUIOp::create(builder, loc, i32, shared))
               : Value(arith::ConstantIntOp::create(builder, loc, 0, 32));
    Value platform =
        arith::ConstantIntOp::create(builder, loc, binary.platform, 32);
    Value size = LLVM::ConstantOp::create(builder, loc, i64, binary.size);
    SmallVector<Value> args = {status,
                               platform,
                               addressOf(builder, loc, binary.moduleSlot),
                               addressOf(builder, loc, binary.image),
                               size,
                               addressOf(builder, loc, fnSlot),
                               addressOf(builder, loc, nameGlobal),
                               toI32(grid.x),
                               toI32(grid.y),
                               toI32(grid.z),
                               toI32(block.x),
                               toI32(block.y),
                               toI32(block.z),
                               sharedBytes,
                               stream,
                               array};
    return LLVM::CallOp::create(builder, loc, TypeRange{i32}, "pbrtLaunch",
                                args)
        .getResult();
  }

  Type ptrType, i32, i64;
  DenseMap<StringAttr, EmbeddedBinary> binaries;
};

} // namespace
