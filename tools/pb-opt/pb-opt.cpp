//===- pb-opt.cpp - mlir-opt with PolyBlocks' passes and pipelines --------===//
//
// The driver lit tests use: every upstream pass, plus PolyBlocks' passes
// (`pb-*`) and stage pipelines (`pb-s1-pipeline` ... `pb-s5-pipeline`), over
// the same dialect registry as pbtool.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  polyblocks::registerAllPasses();
  mlir::DialectRegistry registry;
  polyblocks::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "PolyBlocks optimizer driver\n", registry));
}
