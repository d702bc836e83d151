//===- TimingScopes.h - Optional timing of compilation steps ----*- C++ -*-===//
//
// The compilation steps take an optional parent scope (`pbtool compile
// --timing` passes one, every other caller none) and time themselves in
// scopes nested in it.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_SUPPORT_TIMINGSCOPES_H
#define POLYBLOCKS_SUPPORT_TIMINGSCOPES_H

#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"

namespace polyblocks {

/// A scope named `name` nested in `parent`; one that times nothing without a
/// parent.
inline mlir::TimingScope nestTiming(mlir::TimingScope *parent,
                                    llvm::StringRef name) {
  return parent ? parent->nest(name) : mlir::TimingScope();
}

} // namespace polyblocks

#endif // POLYBLOCKS_SUPPORT_TIMINGSCOPES_H
