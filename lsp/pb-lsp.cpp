//===- pb-lsp.cpp - The PolyBlocks language server ------------------------===//
//
// A language server for tensor programs over stdio, for any editor that
// speaks LSP. It understands exactly what pbtool understands: it is built on
// MLIR's language-server library with PolyBlocks' dialect registry, and gives
// parse and verification diagnostics, hover, go-to-definition, references
// and document symbols.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  polyblocks::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
