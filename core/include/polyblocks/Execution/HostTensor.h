//===- HostTensor.h - Tensors in host memory --------------------*- C++ -*-===//
//
// Dense tensors on the host for pbtool run / crosscheck / bench: reading and
// writing numpy `.npy` files, inline literals, random filling, comparison
// with element-type tolerances, and printing.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_SUPPORT_HOSTTENSOR_H
#define POLYBLOCKS_SUPPORT_HOSTTENSOR_H

#include "polyblocks/Interface/KernelInterface.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace polyblocks {

/// A dense, row-major tensor in host memory, its data aligned to 64 bytes (a
/// cache line, as frameworks and the arenas of compiled code align theirs:
/// a kernel's vector loads then split no line more often than they would in
/// a network).
class HostTensor {
public:
  /// The largest tensor pbtool creates from a literal or a file, in bytes.
  static constexpr uint64_t kMaxByteSize = uint64_t(1) << 36;
  /// Byte size of a tensor of `shape` and `info`, or nullopt when it
  /// overflows or exceeds kMaxByteSize.
  static std::optional<uint64_t>
  getCheckedByteSize(ElementTypeInfo info, llvm::ArrayRef<int64_t> shape);

  HostTensor(ElementTypeInfo info, llvm::ArrayRef<int64_t> shape);
  /// A zero-filled tensor shaped like `param`.
  static HostTensor forParam(const TensorParam &param);

  const ElementTypeInfo &getInfo() const { return info; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;
  size_t getByteSize() const { return getNumElements() * info.byteSize; }
  void *data() { return storage.data(); }
  const void *data() const { return storage.data(); }

  /// The alignment of data(), in bytes.
  static constexpr size_t kAlignment = 64;

  /// Element `i` converted to double (f16 / bf16 decoded, i1 as 0 / 1).
  double getAsDouble(int64_t i) const;
  /// Stores `value` into element `i`, converting to the element type.
  void setFromDouble(int64_t i, double value);
  /// Element `i` of an integer tensor (i1 as 0 / 1), exactly.
  int64_t getAsInt64(int64_t i) const;
  /// Stores `value` into element `i` of an integer tensor, wrapping to its
  /// width.
  void setFromInt64(int64_t i, int64_t value);
  bool isInteger() const { return info.mlirName.starts_with("i"); }

  /// Fills with uniform random values: floats in [-1, 1], integers in
  /// [-8, 8], i1 in {0, 1}.
  void fillRandom(std::mt19937_64 &rng);
  /// Fills an integer tensor with uniform random values in [0, bound).
  void fillRandomIndices(std::mt19937_64 &rng, int64_t bound);

  /// "2x3xf32"
  std::string getTypeString() const;
  /// Prints "2x3xf32=[[1 2 3][4 5 6]]", eliding after `maxElements`.
  void print(llvm::raw_ostream &os, int64_t maxElements = 64) const;

private:
  ElementTypeInfo info;
  llvm::SmallVector<int64_t> shape;
  struct alignas(kAlignment) Line {
    uint8_t bytes[kAlignment];
  };
  std::vector<Line> storage;
};

/// Reads a `.npy` file (little-endian, C order).
llvm::Expected<HostTensor> readNpyFile(llvm::StringRef path);
/// Writes a `.npy` file atomically: on failure no file is left behind.
llvm::Error writeNpyFile(llvm::StringRef path, const HostTensor &tensor);

/// Parses an inline literal "2x2xf32=1 2 3 4" (as iree-run-module takes
/// them); a single value is broadcast to every element.
llvm::Expected<HostTensor> parseTensorLiteral(llvm::StringRef literal);

/// Result of comparing two tensors.
struct Comparison {
  bool ok = true;
  int64_t numMismatches = 0;
  int64_t firstMismatch = -1;
  double maxAbsError = 0;
};

/// Default absolute and relative tolerance for an element type: exact for
/// integers, looser for narrower floats.
std::pair<double, double> getDefaultTolerances(const ElementTypeInfo &info);

/// Compares `actual` with `expected` element by element:
/// |a - e| <= atol + rtol * max(|e|, max |expected|), NaN equal to NaN: the
/// relative tolerance applies to the result's magnitude (its largest finite
/// element), not only to each element, which may be the small difference
/// of large terms.
Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          double atol, double rtol);

} // namespace polyblocks

#endif // POLYBLOCKS_SUPPORT_HOSTTENSOR_H
