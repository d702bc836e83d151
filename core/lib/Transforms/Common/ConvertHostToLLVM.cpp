//===- ConvertHostToLLVM.cpp - arith, func, cf to LLVM at once ------------===//
//
// Upstream's arith, func (bare pointers) and cf conversions to the LLVM
// dialect as one partial conversion over the module.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "pb-convert-host-to-llvm"

namespace polyblocks {
#define GEN_PASS_DEF_PBCONVERTHOSTTOLLVM
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct ConvertHostToLLVMPass
    : public polyblocks::impl::PBConvertHostToLLVMBase<ConvertHostToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const auto &dataLayout = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(&getContext(), dataLayout.getAtOrAbove(module));
    options.useBarePtrCallConv = true;
    LLVMTypeConverter converter(&getContext(), options, &dataLayout);

    RewritePatternSet patterns(&getContext());
    SymbolTableCollection symbolTables;
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns);
    LLVMConversionTarget target(getContext());
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
