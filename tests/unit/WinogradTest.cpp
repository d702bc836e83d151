//===- WinogradTest.cpp - Winograd minimal filtering matrices -------------===//

#include "polyblocks/Transforms/Utils/Winograd.h"

#include <gtest/gtest.h>

#include <random>

using namespace polyblocks;

namespace {

class WinogradTest : public ::testing::TestWithParam<unsigned> {};

// A^T [(G g) . (B^T d)] is the correlation y[i] = sum_k g[k] d[i + k] of
// any filter and input, in exact arithmetic (here in double, to 1e-12).
TEST_P(WinogradTest, ComputesTheCorrelation) {
  unsigned m = GetParam(), r = 3;
  ASSERT_TRUE(hasWinogradMatrices(m, r));
  WinogradMatrices w = getWinogradMatrices(m, r);
  ASSERT_EQ(w.alpha, m + r - 1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> g(r), d(w.alpha);
    for (double &x : g)
      x = dist(rng);
    for (double &x : d)
      x = dist(rng);
    std::vector<double> product(w.alpha);
    for (unsigned j = 0; j < w.alpha; ++j) {
      double gj = 0, dj = 0;
      for (unsigned k = 0; k < r; ++k)
        gj += w.gAt(j, k) * g[k];
      for (unsigned p = 0; p < w.alpha; ++p)
        dj += w.btAt(j, p) * d[p];
      product[j] = gj * dj;
    }
    for (unsigned i = 0; i < m; ++i) {
      double y = 0, expected = 0;
      for (unsigned j = 0; j < w.alpha; ++j)
        y += w.atAt(i, j) * product[j];
      for (unsigned k = 0; k < r; ++k)
        expected += g[k] * d[i + k];
      EXPECT_NEAR(y, expected, 1e-12) << "F(" << m << ", 3), output " << i;
    }
  }
}

// Lavin's F(2, 3) up to the signs of rows: B^T's rows hold 1, -1 and 0
// (adds and subtractions only) and G's first nonzero entries are positive.
TEST(WinogradTest, F2MatchesLavin) {
  WinogradMatrices w = getWinogradMatrices(2, 3);
  std::vector<double> bt = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, -1, 0, 1};
  std::vector<double> g = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
  std::vector<double> at = {1, 1, 1, 0, 0, 1, -1, 1};
  EXPECT_EQ(w.bt, bt);
  EXPECT_EQ(w.g, g);
  EXPECT_EQ(w.at, at);
}

INSTANTIATE_TEST_SUITE_P(Tiles, WinogradTest, ::testing::Values(2u, 4u));

TEST(WinogradTest, OnlyTheTabledTiles) {
  EXPECT_FALSE(hasWinogradMatrices(3, 3));
  EXPECT_FALSE(hasWinogradMatrices(4, 5));
}

} // namespace
