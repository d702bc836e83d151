//===- HostTensorTest.cpp - .npy files, literals, comparison --------------===//

#include "polyblocks/Execution/HostTensor.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace polyblocks;

namespace {

std::string tempPath(llvm::StringRef name) {
  llvm::SmallString<128> path;
  llvm::sys::fs::createUniqueDirectory("pb-unit", path);
  llvm::sys::path::append(path, name);
  return path.str().str();
}

TEST(HostTensorTest, NpyRoundTripKeepsShapeTypeAndData) {
  for (const ElementTypeInfo &info : getSupportedElementTypes()) {
    HostTensor tensor(info, {2, 3, 5});
    std::mt19937_64 rng(7);
    tensor.fillRandom(rng);
    std::string path = tempPath("t.npy");
    ASSERT_FALSE(llvm::errorToBool(writeNpyFile(path, tensor)))
        << info.mlirName.str();
    auto back = readNpyFile(path);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->getInfo().mlirName, info.mlirName);
    EXPECT_EQ(back->getShape(), tensor.getShape());
    for (int64_t i = 0; i < tensor.getNumElements(); ++i)
      EXPECT_EQ(back->getAsDouble(i), tensor.getAsDouble(i));
  }
}

TEST(HostTensorTest, ScalarNpyHasEmptyShape) {
  HostTensor tensor(*lookupElementType("f64"), {});
  tensor.setFromDouble(0, 2.5);
  std::string path = tempPath("s.npy");
  ASSERT_FALSE(llvm::errorToBool(writeNpyFile(path, tensor)));
  auto back = readNpyFile(path);
  ASSERT_TRUE(bool(back));
  EXPECT_TRUE(back->getShape().empty());
  EXPECT_EQ(back->getAsDouble(0), 2.5);
}

TEST(HostTensorTest, MalformedNpyIsAnError) {
  std::string path = tempPath("bad.npy");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << "not a numpy file";
  }
  auto result = readNpyFile(path);
  ASSERT_FALSE(bool(result));
  EXPECT_NE(llvm::toString(result.takeError()).find("not a valid .npy file"),
            std::string::npos);
  auto missing = readNpyFile(tempPath("missing.npy"));
  ASSERT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
}

TEST(HostTensorTest, LiteralsParseAndBroadcast) {
  auto t = parseTensorLiteral("2x2xf32=1 2 3 4");
  ASSERT_TRUE(bool(t));
  EXPECT_EQ(t->getAsDouble(3), 4.0);
  auto b = parseTensorLiteral("3xi8=-2");
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(b->getAsDouble(2), -2.0);
  auto bad = parseTensorLiteral("2xf32=1 2 3");
  ASSERT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
  auto badType = parseTensorLiteral("2xq7=1");
  ASSERT_FALSE(bool(badType));
  llvm::consumeError(badType.takeError());
}

TEST(HostTensorTest, HalfPrecisionConversionsRound) {
  HostTensor f16(*lookupElementType("f16"), {2});
  f16.setFromDouble(0, 1.0 / 3.0);
  EXPECT_NEAR(f16.getAsDouble(0), 1.0 / 3.0, 1e-3);
  HostTensor bf16(*lookupElementType("bf16"), {1});
  bf16.setFromDouble(0, 1.0 / 3.0);
  EXPECT_NEAR(bf16.getAsDouble(0), 1.0 / 3.0, 2e-3);
  EXPECT_NE(bf16.getAsDouble(0), 1.0 / 3.0);
}

TEST(HostTensorTest, ComparisonUsesTolerancesAndFindsFirstMismatch) {
  HostTensor a(*lookupElementType("f32"), {4}),
      b(*lookupElementType("f32"), {4});
  for (int i = 0; i < 4; ++i) {
    a.setFromDouble(i, i);
    b.setFromDouble(i, i);
  }
  auto [atol, rtol] = getDefaultTolerances(a.getInfo());
  EXPECT_TRUE(compareTensors(a, b, atol, rtol).ok);
  a.setFromDouble(2, 2.00001); // within tolerance
  EXPECT_TRUE(compareTensors(a, b, atol, rtol).ok);
  a.setFromDouble(3, 3.1);
  Comparison cmp = compareTensors(a, b, atol, rtol);
  EXPECT_FALSE(cmp.ok);
  EXPECT_EQ(cmp.firstMismatch, 3);
  EXPECT_EQ(cmp.numMismatches, 1);
  // Integers compare exactly.
  HostTensor i(*lookupElementType("i32"), {1}),
      j(*lookupElementType("i32"), {1});
  j.setFromDouble(0, 1);
  auto [iatol, irtol] = getDefaultTolerances(i.getInfo());
  EXPECT_FALSE(compareTensors(i, j, iatol, irtol).ok);
}

// The relative tolerance applies to the result's magnitude: an element that
// is the small difference of large terms (here next to one of 1600) may
// miss by the rounding of those terms, not by more.
TEST(HostTensorTest, ComparisonIsRelativeToTheResultsMagnitude) {
  HostTensor expected(*lookupElementType("f32"), {2}),
      actual(*lookupElementType("f32"), {2});
  expected.setFromDouble(0, 1600);
  expected.setFromDouble(1, 0.001);
  actual.setFromDouble(0, 1600.05);
  actual.setFromDouble(1, 0.1);
  EXPECT_TRUE(compareTensors(actual, expected, 1e-4, 1e-4).ok);
  actual.setFromDouble(1, 0.5);
  Comparison cmp = compareTensors(actual, expected, 1e-4, 1e-4);
  EXPECT_FALSE(cmp.ok);
  EXPECT_EQ(cmp.firstMismatch, 1);
  // Infinities do not set the magnitude.
  expected.setFromDouble(0, INFINITY);
  actual.setFromDouble(0, INFINITY);
  actual.setFromDouble(1, 0.1);
  EXPECT_FALSE(compareTensors(actual, expected, 1e-4, 1e-4).ok);
}

TEST(HostTensorTest, RandomValuesStayInRange) {
  HostTensor f(*lookupElementType("f32"), {1000});
  HostTensor i(*lookupElementType("i8"), {1000});
  HostTensor b(*lookupElementType("i1"), {1000});
  std::mt19937_64 rng(1);
  f.fillRandom(rng);
  i.fillRandom(rng);
  b.fillRandom(rng);
  for (int64_t k = 0; k < 1000; ++k) {
    EXPECT_LE(std::abs(f.getAsDouble(k)), 1.0);
    EXPECT_LE(std::abs(i.getAsDouble(k)), 8.0);
    EXPECT_TRUE(b.getAsDouble(k) == 0 || b.getAsDouble(k) == 1);
  }
}

// Kernels are timed on the data of host tensors (pbtool bench): it starts on
// a cache line, as a framework's buffers and the compiled code's arenas do,
// whatever the size, for tensors made, read from a file and copied.
TEST(HostTensorTest, DataIsAlignedToACacheLine) {
  auto isAligned = [](const void *data) {
    return reinterpret_cast<uintptr_t>(data) % HostTensor::kAlignment == 0;
  };
  for (int64_t n : {1, 3, 17, 1000, 4099}) {
    HostTensor tensor(*lookupElementType("f32"), {n});
    EXPECT_TRUE(isAligned(tensor.data())) << n;
    HostTensor copy = tensor;
    EXPECT_TRUE(isAligned(copy.data())) << n;
    std::string path = tempPath("aligned.npy");
    ASSERT_FALSE(llvm::errorToBool(writeNpyFile(path, tensor)));
    auto back = readNpyFile(path);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_TRUE(isAligned(back->data())) << n;
  }
  llvm::Expected<HostTensor> literal = parseTensorLiteral("3xf16=1 2 3");
  ASSERT_TRUE(static_cast<bool>(literal));
  EXPECT_TRUE(isAligned(literal->data()));
}

} // namespace
