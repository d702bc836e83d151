//===- SetMachineModel.cpp - Attach the target's machine model ------------===//
//
// The first pass of every stage: the module gets the `pb.machine` attribute
// that the later passes read their machine parameters from
// (getMachineModel), so that pbtool, lit tests and the language server run
// the same passes against the same machine.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/MachineModel.h"

#include "mlir/AsmParser/AsmParser.h"

#define DEBUG_TYPE "pb-set-machine-model"

namespace polyblocks {
#define GEN_PASS_DEF_PBSETMACHINEMODEL
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {
struct SetMachineModelPass
    : public polyblocks::impl::PBSetMachineModelBase<SetMachineModelPass> {
  using PBSetMachineModelBase::PBSetMachineModelBase;

  void runOnOperation() override {
    // A textual pipeline strips the braces off an option's value: they are
    // optional.
    std::string text = StringRef(machine).trim().starts_with("{")
                           ? machine.getValue()
                           : "{" + machine.getValue() + "}";
    auto attr =
        dyn_cast_or_null<DictionaryAttr>(parseAttribute(text, &getContext()));
    std::optional<polyblocks::MachineModel> model =
        attr ? polyblocks::MachineModel::fromAttr(attr) : std::nullopt;
    if (!model) {
      getOperation().emitError()
          << "pb-set-machine-model: '" << text
          << "' is not a machine model (a dictionary such as {target = "
             "\"cpu\", vector_bits = 512 : i64}; GPU chips: "
          << polyblocks::getGPUChipList(polyblocks::TargetKind::NVGPU) << ", "
          << polyblocks::getGPUChipList(polyblocks::TargetKind::AMDGPU) << ")";
      return signalPassFailure();
    }
    polyblocks::setMachineModel(getOperation(), *model);
  }
};
} // namespace
