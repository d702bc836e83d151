//===- KernelInterface.h - The C interface of compiled kernels --*- C++ -*-===//
//
// What a PolyBlocks kernel looks like from C: one entry point per public
// function, inputs as `const T*`, then one `T*` per result, returning an int
// status. This file describes that interface (element types, signatures) and
// checks that a tensor program can be given one.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_INTERFACE_KERNELINTERFACE_H
#define POLYBLOCKS_INTERFACE_KERNELINTERFACE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class AsmParserState;
} // namespace mlir

namespace polyblocks {

/// An element type that may cross the kernel boundary.
struct ElementTypeInfo {
  llvm::StringLiteral mlirName; ///< e.g. "f32"
  llvm::StringLiteral cName;    ///< e.g. "float", "uint16_t" for f16
  llvm::StringLiteral npyDescr; ///< numpy dtype string, e.g. "<f4"
  unsigned byteSize;
};

/// Every element type that may cross the kernel boundary.
llvm::ArrayRef<ElementTypeInfo> getSupportedElementTypes();

/// Looks an element type up by its MLIR spelling ("f32", "i1", ...).
std::optional<ElementTypeInfo> lookupElementType(llvm::StringRef mlirName);

/// Returns the boundary description of `type`, or nullopt when `type` cannot
/// cross the kernel boundary.
std::optional<ElementTypeInfo> getElementTypeInfo(mlir::Type type);

/// Comma-separated list of the supported element types, for diagnostics.
llvm::StringRef getSupportedElementTypesList();

/// One tensor argument or result of a kernel entry point.
struct TensorParam {
  std::string name; ///< C identifier
  mlir::Type elementType;
  llvm::SmallVector<int64_t> shape;
  mlir::Location loc;
  /// For an integer input whose elements index a dimension: its size (valid
  /// elements lie in [0, indexBound)); see inferIndexBound.
  std::optional<int64_t> indexBound;

  int64_t getNumElements() const;
  ElementTypeInfo getInfo() const { return *getElementTypeInfo(elementType); }
  /// "8x64xf32"
  std::string getTypeString() const;
};

/// The C-level signature of one public function.
struct KernelSignature {
  std::string name;
  llvm::SmallVector<TensorParam> inputs;
  llvm::SmallVector<TensorParam> results;
  mlir::Location loc;
};

/// How deeply brackets may nest in a source that is parsed. The parser
/// recurses once per level (and so do some passes): a few thousand levels
/// overflow the stack. Real programs stay far below this.
inline constexpr unsigned kMaxBracketNesting = 1000;

/// The offset at which brackets ((), [], {}, <>) in `text` nest deeper than
/// `limit`, if they do. Strings and comments are skipped; `->`, `<=` and
/// `>=` are not brackets.
std::optional<size_t> findExcessiveNesting(llvm::StringRef text,
                                           unsigned limit);

/// Parses the last buffer of `sourceMgr` into a module: a file holding one
/// builtin.module is that module; loose top-level ops get one. When
/// `asmState` is given it records SSA names and locations (for argument names
/// and editors). Diagnostics go to the context's handlers; an op from an
/// unregistered dialect is reported as such (not with the parser's advice to
/// allow unregistered dialects), and brackets nested deeper than
/// kMaxBracketNesting are refused before the parser recurses into them.
mlir::OwningOpRef<mlir::ModuleOp>
parseKernelSource(const llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                  mlir::AsmParserState *asmState = nullptr);

/// Checks that `module` is a tensor program PolyBlocks accepts: only input
/// dialect ops, public functions over static tensors of supported element
/// types, no dynamic dimensions anywhere. Emits one located error per problem.
mlir::LogicalResult checkInputProgram(mlir::ModuleOp module);

/// Collects the signatures of the public functions of a module that passed
/// checkInputProgram. Argument names come from `asmState` (the SSA names in
/// the source) when given, else are `arg0`, `arg1`, ...; results are
/// `result0`, `result1`, ... Names are made valid, unique C identifiers.
std::vector<KernelSignature>
collectKernelSignatures(mlir::ModuleOp module,
                        const mlir::AsmParserState *asmState = nullptr);

/// Checks that the header's shape macros get distinct names (e.g. @f_a(%b)
/// and @f(%a_b) would both define F_A_B_DIM0); emits an error per clash.
mlir::LogicalResult
checkHeaderNames(llvm::ArrayRef<KernelSignature> signatures);

/// Checks that the entry points can be linked into a C program: none is
/// named `main` (torch-mlir's default name), which would clash with the
/// program's own; emits an error per clash. (Loading a library at run time,
/// as pbtool run and the Python JIT do, has no such limit.)
mlir::LogicalResult
checkLinkableNames(llvm::ArrayRef<KernelSignature> signatures);

/// Renders the C header for `signatures` from the header templates.
/// `headerName`, `sourceName` and `target` are mentioned in the header
/// comment; `guard` is the include guard macro. For a GPU target (`gpu`),
/// every function also takes the stream as its last argument.
std::string renderKernelHeader(llvm::ArrayRef<KernelSignature> signatures,
                               llvm::StringRef sourceName,
                               llvm::StringRef guard,
                               llvm::StringRef headerName,
                               llvm::StringRef target, bool gpu = false);

/// Renders the interface of `signatures` as JSON, for loaders of compiled
/// kernels (the Python package): {"format": 1, "target": ..., "gpu": bool,
/// "functions": [{"name", "inputs": [{"name", "dtype", "shape",
/// "index_bound"?}], "results": [...]}]}. dtype is the MLIR element type
/// ("f32", "bf16", "i1", ...).
std::string
renderKernelInterfaceJSON(llvm::ArrayRef<KernelSignature> signatures,
                          llvm::StringRef target, bool gpu);

/// Derives an include guard from a header file name, e.g. "blur.h" ->
/// "POLYBLOCKS_BLUR_H".
std::string makeIncludeGuard(llvm::StringRef headerFileName);

} // namespace polyblocks

#endif // POLYBLOCKS_INTERFACE_KERNELINTERFACE_H
