//===- Winograd.cpp - Winograd minimal filtering matrices -----------------===//
//
// The Toom-Cook construction (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016) transposed from polynomial
// multiplication to correlation. With points a_0 .. a_{n-1} (n = alpha - 1)
// and infinity, N_j(x) = prod_{l != j} (x - a_l), f_j = N_j(a_j) and M(x) =
// prod_l (x - a_l):
//
//   A^T[i][j] = a_j^i,  A^T[i][n] = [i == m - 1]
//   G[j][k]   = a_j^k / f_j,  G[n][k] = [k == r - 1]
//   B^T[j][p] = coefficient of x^p in N_j,  B^T[n][p] = that of M
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Utils/Winograd.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <numeric>

namespace polyblocks {

namespace {

/// An exact fraction; the construction's numbers stay small.
struct Rational {
  int64_t num = 0, den = 1;

  Rational(int64_t n = 0, int64_t d = 1) : num(n), den(d) { normalize(); }
  void normalize() {
    if (den < 0) {
      num = -num;
      den = -den;
    }
    int64_t g = std::gcd(num < 0 ? -num : num, den);
    if (g > 1) {
      num /= g;
      den /= g;
    }
  }
  Rational operator+(Rational o) const {
    return {num * o.den + o.num * den, den * o.den};
  }
  Rational operator-(Rational o) const {
    return {num * o.den - o.num * den, den * o.den};
  }
  Rational operator*(Rational o) const { return {num * o.num, den * o.den}; }
  Rational operator/(Rational o) const { return {num * o.den, den * o.num}; }
  double toDouble() const { return double(num) / double(den); }
};

/// The coefficients of prod (x - roots[l]), lowest degree first.
std::vector<Rational> polynomialFromRoots(const std::vector<Rational> &roots) {
  std::vector<Rational> poly{Rational(1)};
  for (Rational root : roots) {
    std::vector<Rational> next(poly.size() + 1);
    for (std::size_t p = 0; p < poly.size(); ++p) {
      next[p + 1] = next[p + 1] + poly[p];
      next[p] = next[p] - root * poly[p];
    }
    poly = next;
  }
  return poly;
}

Rational power(Rational x, unsigned e) {
  Rational result(1);
  for (unsigned i = 0; i < e; ++i)
    result = result * x;
  return result;
}

std::vector<Rational> getPoints(unsigned m) {
  if (m == 2)
    return {Rational(0), Rational(1), Rational(-1)};
  return {Rational(0), Rational(1), Rational(-1), Rational(1, 2), Rational(-2)};
}

} // namespace

bool hasWinogradMatrices(unsigned m, unsigned r) {
  return (m == 2 || m == 4) && r == 3;
}

WinogradMatrices getWinogradMatrices(unsigned m, unsigned r) {
  assert(hasWinogradMatrices(m, r) && "no points for this F(m, r)");
  std::vector<Rational> points = getPoints(m);
  unsigned n = points.size(), alpha = m + r - 1;
  assert(n + 1 == alpha && "alpha - 1 points");
  WinogradMatrices w{m,
                     r,
                     alpha,
                     std::vector<double>(m * alpha, 0.0),
                     std::vector<double>(alpha * r, 0.0),
                     std::vector<double>(alpha * alpha, 0.0)};
  for (unsigned j = 0; j < n; ++j) {
    std::vector<Rational> others;
    Rational f(1);
    for (unsigned l = 0; l < n; ++l)
      if (l != j) {
        others.push_back(points[l]);
        f = f * (points[j] - points[l]);
      }
    std::vector<Rational> nj = polynomialFromRoots(others);
    // The sign of f_j moves from G's row to B^T's: G's rows stay positive.
    int64_t sign = f.num < 0 ? -1 : 1;
    for (unsigned i = 0; i < m; ++i)
      w.at[i * alpha + j] = power(points[j], i).toDouble();
    for (unsigned k = 0; k < r; ++k)
      w.g[j * r + k] = (power(points[j], k) / f * Rational(sign)).toDouble();
    for (unsigned p = 0; p < nj.size(); ++p)
      w.bt[j * alpha + p] = (nj[p] * Rational(sign)).toDouble();
  }
  w.at[(m - 1) * alpha + n] = 1.0;
  w.g[n * r + (r - 1)] = 1.0;
  std::vector<Rational> mPoly = polynomialFromRoots(points);
  for (unsigned p = 0; p < mPoly.size(); ++p)
    w.bt[n * alpha + p] = mPoly[p].toDouble();
  return w;
}

} // namespace polyblocks
