//===- Winograd.h - Winograd minimal filtering matrices ---------*- C++ -*-===//
//
// The matrices of Winograd's minimal filtering algorithm F(m, r): m outputs
// of an r-tap correlation from alpha = m + r - 1 inputs with alpha
// multiplications,
//
//   y = A^T [(G g) . (B^T d)]       (1-D; 2-D: Y = A^T [(G g G^T) . (B^T d B)]
//   A)
//
// built by the Toom-Cook construction from alpha - 1 interpolation points
// and the point at infinity, in exact rational arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_TRANSFORMS_UTILS_WINOGRAD_H
#define POLYBLOCKS_TRANSFORMS_UTILS_WINOGRAD_H

#include <vector>

namespace polyblocks {

/// The matrices of F(m, r), row-major.
struct WinogradMatrices {
  unsigned m, r, alpha;
  /// m x alpha: the output transform.
  std::vector<double> at;
  /// alpha x r: the filter transform.
  std::vector<double> g;
  /// alpha x alpha: the input transform.
  std::vector<double> bt;

  double atAt(unsigned row, unsigned col) const {
    return at[row * alpha + col];
  }
  double gAt(unsigned row, unsigned col) const { return g[row * r + col]; }
  double btAt(unsigned row, unsigned col) const {
    return bt[row * alpha + col];
  }
};

/// F(m, r) for m = 2 (points 0, 1, -1) or m = 4 (points 0, 1, -1, 1/2, -2,
/// whose float32 rounding error is a quarter of that of Lavin's 0, +-1,
/// +-2) and r = 3; the rows of G and B^T are signed so that G's first
/// nonzero entries are positive.
WinogradMatrices getWinogradMatrices(unsigned m, unsigned r);

/// Whether getWinogradMatrices has matrices for F(m, r).
bool hasWinogradMatrices(unsigned m, unsigned r);

} // namespace polyblocks

#endif // POLYBLOCKS_TRANSFORMS_UTILS_WINOGRAD_H
