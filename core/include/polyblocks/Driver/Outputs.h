//===- Outputs.h - What a compilation writes, and its file names -*- C++
//-*-===//
//
// The one driver API for what comes out of a compilation, shared by pbtool
// (compile --emit / --compile-to / --dump-stages) and pb-lsp (stage
// previews): the kinds of output and how they are named, how the pipeline
// must be configured for one, how it is rendered from the module the stages
// left, and the file a stage's IR is written to.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_DRIVER_OUTPUTS_H
#define POLYBLOCKS_DRIVER_OUTPUTS_H

#include "polyblocks/Pipelines/Pipelines.h"
#include "polyblocks/Target/GPUTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace polyblocks {

/// One kind of output.
struct OutputKind {
  enum Kind {
    /// The MLIR after `stage`.
    StageIR,
    /// The host code after S5, as LLVM IR, assembly, an object file or a
    /// shared library.
    LLVMIR,
    Assembly,
    Object,
    SharedLibrary,
    /// A GPU target's device code (`device`): PTX, cubin, HSACO, amdgcn.
    DeviceCode,
  };
  Kind kind = Object;
  Stage stage = Stage::S5;
  const DeviceCodeKind *device = nullptr;
  /// Its name: "s1".."s5", "llvm", "asm", "obj", "shared", "ptx", ...
  std::string id;
  /// The extension of its files: ".mlir", ".ll", ".s", ".o", ".so",
  /// ".ptx", ".cubin", ".hsaco", ".amdgcn".
  std::string extension;

  /// Text (every kind but objects, shared libraries, cubins and HSACO).
  bool isText() const;
};

/// The output kind of stage `stage`'s IR.
OutputKind getStageOutput(Stage stage);

/// The output kind named `name` ("obj", "shared", "asm", "llvm", "ptx",
/// "cubin", "hsaco", "amdgcn"; with `withStages`, "s1".."s5" too), for the
/// target of `options`. `textOnly` refuses the binary kinds. Fails with a
/// message naming the kinds (as `what`, e.g. "--emit kind") or, for device
/// code, the target it belongs to.
llvm::Expected<OutputKind> parseOutputKind(llvm::StringRef name,
                                           const PipelineOptions &options,
                                           llvm::StringRef what,
                                           bool withStages, bool textOnly);

/// Sets what the pipeline must do differently to produce `kind`: S5 embeds
/// the device code in the format asked for.
void configurePipelineFor(const OutputKind &kind, PipelineOptions &options);

/// Renders `kind` from `module` as the stages through `kind.stage` left it.
/// With `function`, the MLIR and the host code are those of that function
/// only (with the parallel regions outlined from it). With `timing`, the
/// steps from LLVM dialect to code are timed in scopes nested in it. With
/// `consumeModule`, host code is made from the module's LLVM IR alone: the
/// module is emptied and its constants' storage released once translated
/// (the caller's last use of it; a network's weights are then not held
/// three times, as MLIR, LLVM IR and object, at once).
llvm::Error renderOutput(mlir::ModuleOp module, const OutputKind &kind,
                         const PipelineOptions &options,
                         llvm::SmallVectorImpl<char> &out,
                         std::optional<llvm::StringRef> function = {},
                         mlir::TimingScope *timing = nullptr,
                         bool consumeModule = false);

/// renderOutput's output written into the file `path`. An object or a
/// shared library is linked straight into it (a network's weights, most of
/// its object, are not copied through memory): `path` is best a temporary
/// file beside where the output goes, renamed there once everything is
/// written.
llvm::Error renderOutputFile(mlir::ModuleOp module, const OutputKind &kind,
                             const PipelineOptions &options,
                             llvm::StringRef path,
                             std::optional<llvm::StringRef> function = {},
                             mlir::TimingScope *timing = nullptr,
                             bool consumeModule = false);

/// The name of the file holding `kind` for the program `sourcePath`:
/// "mlp.3.optimize.mlir" for S3's IR (the stage's number and name),
/// "mlp.ll", "mlp.o", "mlp.ptx"; with `function`, "mlp.f.3.optimize.mlir".
/// Characters that are not safe in file names become '_'.
std::string getOutputFileName(llvm::StringRef sourcePath,
                              const OutputKind &kind,
                              std::optional<llvm::StringRef> function = {});

} // namespace polyblocks

#endif // POLYBLOCKS_DRIVER_OUTPUTS_H
