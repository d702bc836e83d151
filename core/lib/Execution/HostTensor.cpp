//===- HostTensor.cpp - Tensors in host memory ----------------------------===//

#include "polyblocks/Execution/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace polyblocks {

HostTensor::HostTensor(ElementTypeInfo info, ArrayRef<int64_t> shape)
    : info(info), shape(shape) {
  storage.assign((getByteSize() + kAlignment - 1) / kAlignment, Line{});
}

HostTensor HostTensor::forParam(const TensorParam &param) {
  return HostTensor(param.getInfo(), param.shape);
}

int64_t HostTensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::optional<uint64_t>
HostTensor::getCheckedByteSize(ElementTypeInfo info, ArrayRef<int64_t> shape) {
  uint64_t bytes = info.byteSize;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && bytes > kMaxByteSize / static_cast<uint64_t>(d)))
      return std::nullopt;
    bytes *= d;
  }
  return bytes;
}

int64_t HostTensor::getAsInt64(int64_t i) const {
  const char *p = reinterpret_cast<const char *>(data()) + i * info.byteSize;
  StringRef name = info.mlirName;
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return static_cast<int64_t>(v);
  };
  if (name == "i1")
    return load(uint8_t()) != 0;
  if (name == "i8")
    return load(int8_t());
  if (name == "i16")
    return load(int16_t());
  if (name == "i32")
    return load(int32_t());
  assert(name == "i64" && "not an integer tensor");
  return load(int64_t());
}

void HostTensor::setFromInt64(int64_t i, int64_t value) {
  char *p = reinterpret_cast<char *>(data()) + i * info.byteSize;
  StringRef name = info.mlirName;
  if (name == "i1") {
    uint8_t v = value != 0;
    std::memcpy(p, &v, 1);
    return;
  }
  // Little-endian: the low bytes of the 64-bit value are the narrow value.
  std::memcpy(p, &value, info.byteSize);
}

static const fltSemantics &getHalfSemantics(StringRef name) {
  return name == "f16" ? APFloat::IEEEhalf() : APFloat::BFloat();
}

double HostTensor::getAsDouble(int64_t i) const {
  if (isInteger())
    return static_cast<double>(getAsInt64(i));
  const char *p = reinterpret_cast<const char *>(data()) + i * info.byteSize;
  StringRef name = info.mlirName;
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  if (name == "f32")
    return load(float());
  if (name == "f64")
    return load(double());
  assert((name == "f16" || name == "bf16") && "unknown element type");
  APFloat value(getHalfSemantics(name), APInt(16, load(uint16_t())));
  return value.convertToDouble();
}

void HostTensor::setFromDouble(int64_t i, double value) {
  char *p = reinterpret_cast<char *>(data()) + i * info.byteSize;
  StringRef name = info.mlirName;
  auto store = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
  if (name == "f32")
    return store(static_cast<float>(value));
  if (name == "f64")
    return store(value);
  if (name == "f16" || name == "bf16") {
    APFloat v(value);
    bool losesInfo;
    v.convert(getHalfSemantics(name), APFloat::rmNearestTiesToEven, &losesInfo);
    return store(static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue()));
  }
  // Integers: callers pass values that fit (random fills, test data).
  setFromInt64(i, static_cast<int64_t>(value));
}

void HostTensor::fillRandom(std::mt19937_64 &rng) {
  StringRef name = info.mlirName;
  bool isFloat = name.starts_with("f") || name == "bf16";
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(-8, 8), boolean(0, 1);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i) {
    if (isFloat)
      setFromDouble(i, real(rng));
    else if (name == "i1")
      setFromInt64(i, boolean(rng));
    else
      setFromInt64(i, integer(rng));
  }
}

void HostTensor::fillRandomIndices(std::mt19937_64 &rng, int64_t bound) {
  std::uniform_int_distribution<int64_t> index(0,
                                               std::max<int64_t>(bound, 1) - 1);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    setFromInt64(i, index(rng));
}

std::string HostTensor::getTypeString() const {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + info.mlirName.str();
}

void HostTensor::print(raw_ostream &os, int64_t maxElements) const {
  os << getTypeString() << "=";
  int64_t n = getNumElements();
  bool isFloat = info.mlirName.starts_with("f") || info.mlirName == "bf16";
  // blocks[d]: elements spanned by one index of dimension d-1, i.e. where a
  // bracket of dimension d opens and closes.
  SmallVector<int64_t> blocks(shape.size(), 1);
  int64_t span = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    span *= shape[d];
    blocks[d] = span;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (i == maxElements) {
      os << "...";
      break;
    }
    for (int64_t block : blocks)
      if (i % block == 0)
        os << '[';
    if (isFloat)
      os << format("%g", getAsDouble(i));
    else
      os << getAsInt64(i);
    for (int64_t block : llvm::reverse(blocks))
      if ((i + 1) % block == 0)
        os << ']';
    if (i + 1 < n && !blocks.empty() && (i + 1) % blocks.back() != 0)
      os << ' ';
  }
  os << '\n';
}

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

/// Finds the element type whose numpy descriptor matches `descr`, accepting
/// '<', '=' and '|' as the byte-order mark.
static std::optional<ElementTypeInfo> lookupDescr(StringRef descr) {
  if (descr.size() < 2 || !StringRef("<=|").contains(descr.front()))
    return std::nullopt;
  for (const ElementTypeInfo &info : getSupportedElementTypes())
    if (info.npyDescr.drop_front() == descr.drop_front())
      return info;
  return std::nullopt;
}

Expected<HostTensor> readNpyFile(StringRef path) {
  auto fileOrErr = MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!fileOrErr)
    return createStringError(fileOrErr.getError(),
                             "cannot read '" + path +
                                 "': " + fileOrErr.getError().message());
  StringRef buf = (*fileOrErr)->getBuffer();
  auto fail = [&](const Twine &why) {
    return createStringError("'" + path + "' is not a valid .npy file: " + why);
  };
  if (buf.size() < 10 || !buf.starts_with("\x93NUMPY"))
    return fail("missing the \\x93NUMPY magic string");
  unsigned major = static_cast<uint8_t>(buf[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen =
        static_cast<uint8_t>(buf[8]) | (static_cast<uint8_t>(buf[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (buf.size() < 12)
      return fail("truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(buf[8 + i]))
                   << (8 * i);
    headerStart = 12;
  } else {
    return fail("unsupported format version " + Twine(major));
  }
  if (buf.size() < headerStart + headerLen)
    return fail("truncated header");
  StringRef header = buf.substr(headerStart, headerLen);

  auto field = [&](StringRef key) -> StringRef {
    size_t pos = header.find(("'" + key + "'").str());
    if (pos == StringRef::npos)
      return {};
    StringRef rest = header.substr(pos + key.size() + 2).ltrim(" :");
    return rest;
  };
  StringRef descrField = field("descr");
  if (descrField.empty() || descrField.front() != '\'')
    return fail("no 'descr' in the header");
  StringRef descr =
      descrField.drop_front().take_until([](char c) { return c == '\''; });
  if (field("fortran_order").starts_with("True"))
    return fail("Fortran-ordered arrays are not supported");
  StringRef shapeField = field("shape");
  if (shapeField.empty() || shapeField.front() != '(')
    return fail("no 'shape' in the header");
  StringRef shapeText =
      shapeField.drop_front().take_until([](char c) { return c == ')'; });
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  shapeText.split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t d;
    if (dim.getAsInteger(10, d) || d < 0)
      return fail("bad dimension '" + dim + "'");
    shape.push_back(d);
  }
  std::optional<ElementTypeInfo> info = lookupDescr(descr);
  if (!info)
    return createStringError("'" + path + "' has dtype '" + descr +
                             "', which PolyBlocks does not support (supported: "
                             "<f4, <f8, <f2, <u2 (bf16 bits), |b1, |i1, <i2, "
                             "<i4, <i8)");
  size_t dataStart = headerStart + headerLen;
  std::optional<uint64_t> bytes = HostTensor::getCheckedByteSize(*info, shape);
  if (!bytes || buf.size() - dataStart != *bytes)
    return fail("its shape and dtype need " +
                (bytes ? Twine(*bytes) : Twine("too many")) +
                " bytes of data, but it holds " +
                Twine(buf.size() - dataStart));
  HostTensor tensor(*info, shape);
  std::memcpy(tensor.data(), buf.data() + dataStart, tensor.getByteSize());
  return tensor;
}

Error writeNpyFile(StringRef path, const HostTensor &tensor) {
  // Python tuple syntax: "()", "(3,)", "(3, 4)".
  std::string shape;
  for (int64_t d : tensor.getShape())
    shape += (shape.empty() ? "" : ", ") + std::to_string(d);
  if (tensor.getShape().size() == 1)
    shape += ",";
  std::string dict = "{'descr': '" + tensor.getInfo().npyDescr.str() +
                     "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Pad so that the data starts on a 64-byte boundary; end with '\n'.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  Error err = writeToOutput(path, [&](raw_ostream &os) -> Error {
    os << "\x93NUMPY" << '\x01' << '\x00';
    os << static_cast<char>(dict.size() & 0xff)
       << static_cast<char>((dict.size() >> 8) & 0xff);
    os << dict;
    os.write(reinterpret_cast<const char *>(tensor.data()),
             tensor.getByteSize());
    return Error::success();
  });
  if (err)
    return createStringError("cannot write '" + path + "': " +
                             errorToErrorCode(std::move(err)).message());
  return Error::success();
}

Expected<HostTensor> parseTensorLiteral(StringRef literal) {
  auto [typePart, valuePart] = literal.split('=');
  SmallVector<StringRef> parts;
  typePart.split(parts, 'x');
  StringRef elementName = parts.pop_back_val();
  std::optional<ElementTypeInfo> info = lookupElementType(elementName);
  if (!info)
    return createStringError("bad tensor literal '" + literal +
                             "': unknown element type '" + elementName + "'");
  SmallVector<int64_t> shape;
  for (StringRef dim : parts) {
    int64_t d;
    if (dim.getAsInteger(10, d) || d < 0)
      return createStringError("bad tensor literal '" + literal +
                               "': bad dimension '" + dim + "'");
    shape.push_back(d);
  }
  if (!HostTensor::getCheckedByteSize(*info, shape))
    return createStringError("bad tensor literal '" + typePart +
                             "...': the tensor would be too large");
  HostTensor tensor(*info, shape);
  SmallVector<StringRef> values;
  valuePart.split(values, ' ', -1, /*KeepEmpty=*/false);
  if (values.size() != 1 &&
      static_cast<int64_t>(values.size()) != tensor.getNumElements())
    return createStringError("bad tensor literal '" + literal +
                             "': " + Twine(values.size()) + " values for " +
                             Twine(tensor.getNumElements()) + " elements");
  // Integer values must be integers that fit the element type (as signed
  // or as unsigned bit patterns); i1 takes 0, 1, false or true.
  unsigned width = info->byteSize * 8;
  int64_t minValue = 0, maxValue = 1;
  if (info->mlirName != "i1") {
    minValue = width == 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
    maxValue = width == 64 ? INT64_MAX : (int64_t(1) << width) - 1;
  }
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    StringRef text = values[values.size() == 1 ? 0 : i];
    auto bad = [&](const Twine &why) {
      return createStringError("bad tensor literal '" + literal + "': " + why);
    };
    if (!tensor.isInteger()) {
      double v;
      if (text.getAsDouble(v))
        return bad("bad value '" + text + "'");
      tensor.setFromDouble(i, v);
      continue;
    }
    int64_t v;
    if (text == "true" || text == "false")
      v = text == "true";
    else if (text.getAsInteger(10, v))
      return bad("'" + text + "' is not an integer that fits " +
                 info->mlirName);
    if (v < minValue || v > maxValue)
      return bad("'" + text + "' does not fit " + info->mlirName);
    tensor.setFromInt64(i, v);
  }
  return tensor;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

std::pair<double, double> getDefaultTolerances(const ElementTypeInfo &info) {
  StringRef name = info.mlirName;
  if (name == "f32")
    return {1e-4, 1e-4};
  if (name == "f64")
    return {1e-10, 1e-10};
  if (name == "f16")
    return {1e-2, 1e-2};
  if (name == "bf16")
    return {5e-2, 5e-2};
  return {0, 0};
}

Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          double atol, double rtol) {
  Comparison result;
  // A float result is computed from terms of about its largest magnitude:
  // rounding errors scale with that, not with each (maybe cancelled)
  // element.
  double scale = 0;
  if (!expected.isInteger())
    for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i)
      if (double x = std::fabs(expected.getAsDouble(i)); std::isfinite(x))
        scale = std::max(scale, x);
  for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i) {
    if (expected.isInteger()) {
      if (actual.getAsInt64(i) != expected.getAsInt64(i)) {
        if (result.ok)
          result.firstMismatch = i;
        result.ok = false;
        ++result.numMismatches;
        double err = std::fabs(static_cast<double>(actual.getAsInt64(i)) -
                               static_cast<double>(expected.getAsInt64(i)));
        result.maxAbsError = std::max(result.maxAbsError, err);
      }
      continue;
    }
    double a = actual.getAsDouble(i), x = expected.getAsDouble(i);
    if (std::isnan(a) && std::isnan(x))
      continue;
    double err = std::fabs(a - x);
    bool same = a == x || err <= atol + rtol * std::max(std::fabs(x), scale);
    if (!std::isnan(err))
      result.maxAbsError = std::max(result.maxAbsError, err);
    if (!same) {
      if (result.ok)
        result.firstMismatch = i;
      result.ok = false;
      ++result.numMismatches;
    }
  }
  return result;
}

} // namespace polyblocks
