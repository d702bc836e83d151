//===- MemoryFootprint.h - Which bytes a region of code may touch -*- C++ -*-=//
//
// Whether two pieces of code may touch the same memory, one of them writing
// it: compared through the views the accesses go through (memref.view of an
// arena at a constant byte shift, subviews with constant offsets, reshapes)
// down to the buffers they come from. For code after affine lowering, where
// accesses are plain loads and stores with computed indices: what a piece of
// code touches is bounded by the memrefs it accesses, not by its indices.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_ANALYSIS_MEMORYFOOTPRINT_H
#define POLYBLOCKS_ANALYSIS_MEMORYFOOTPRINT_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>

namespace polyblocks {

/// The memory a memref value may address: a byte range of one buffer, and,
/// for a subview with constant offsets and sizes, the box it takes of the
/// memref it was cut from.
struct MemoryExtent {
  enum class Kind {
    /// Anything: where the memref comes from is not known.
    Unknown,
    /// A constant global: never written, so never in conflict.
    ReadOnly,
    /// A memref.alloc or memref.alloca: a buffer no other value overlaps.
    Allocation,
    /// An argument of an entry point (isEntryPointArgument): the C
    /// interface's contract is that a written argument (a result) overlaps
    /// no other. A private function's arguments are Unknown.
    Argument,
    /// Another buffer (a writable global, a value an scf.if yields: an
    /// arena): distinct from allocations, and from arguments when
    /// `internal`.
    Opaque,
  };
  Kind kind = Kind::Unknown;
  /// An opaque buffer that no argument can point into: a private global of
  /// the module, or one of such globals and allocations chosen at run time
  /// (the static arena, or a heap one when a call is already using it).
  bool internal = false;
  /// The buffer (allocation, argument or opaque value), or the global's
  /// symbol, by which extents of the same buffer are recognized.
  const void *buffer = nullptr;
  /// Bytes [begin, end) from the buffer's start.
  int64_t begin = 0;
  int64_t end = std::numeric_limits<int64_t>::max();
  /// The memref this one is a constant subview of, and the elements
  /// [boxBegin[d], boxEnd[d]) of each of its dimensions it may address
  /// (null: not a constant subview).
  mlir::Value boxSource;
  llvm::SmallVector<int64_t> boxBegin, boxEnd;
};

/// Where `memref` may point, traced through memref.view (constant shift),
/// memref.subview, reshapes and casts; a view with a shift or shape not
/// known at compile time lies somewhere in its source.
MemoryExtent getMemoryExtent(mlir::Value memref);

/// False when two extents cannot share a byte: different buffers of which
/// one is an allocation (or both arguments, or an argument and an internal
/// buffer), a read-only global and any other buffer, disjoint byte ranges
/// of one buffer, or disjoint boxes of one memref.
bool mayOverlap(const MemoryExtent &a, const MemoryExtent &b);

/// The memory a piece of code reads and writes.
struct MemoryFootprint {
  llvm::SmallVector<MemoryExtent> reads, writes;
  /// Something touches memory in a way the extents do not say (a call, an
  /// effect on no memref).
  bool unknown = false;
};

/// The footprint of what the regions of `op` contain (a worksharing loop's
/// body, a single's), at any depth. Accesses to buffers
/// allocated inside `privateScope` (a parallel region whose threads each
/// allocate their own) are left out.
MemoryFootprint getMemoryFootprint(mlir::Operation *op,
                                   mlir::Operation *privateScope);

/// True if one footprint may write what the other reads or writes.
bool mayConflict(const MemoryFootprint &a, const MemoryFootprint &b);

} // namespace polyblocks

#endif // POLYBLOCKS_ANALYSIS_MEMORYFOOTPRINT_H
