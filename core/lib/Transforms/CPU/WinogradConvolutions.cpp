//===- WinogradConvolutions.cpp - 3x3 convolutions as Winograd F(m, 3) ----===//
//
// Rewrites a 3x3 stride-1 NHWC convolution as Winograd's F(m x m, 3 x 3):
// the filter transformed at compile time (a constant) or by a nest of its
// own on every call (an argument), an input transform nest, a batch of (m +
// 2)^2 matmuls that the register-tile micro-kernel computes, and an output
// transform nest. The transforms work on vectors of channels, with the
// matrices' coefficients as constants.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Analysis/LoopNests.h"
#include "polyblocks/IR/Decisions.h"
#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Target/MachineModel.h"
#include "polyblocks/Transforms/Utils/ConstantData.h"
#include "polyblocks/Transforms/Utils/Winograd.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <map>

#define DEBUG_TYPE "pb-winograd-convolutions"

namespace polyblocks {
#define GEN_PASS_DEF_PBWINOGRADCONVOLUTIONS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// A convolution the pass takes, with its shapes.
struct WinogradConv {
  linalg::Conv2DNhwcHwcfOp op;
  /// The filter's constant global; null for a filter passed in (an
  /// argument: JAX's weights), transformed at run time.
  memref::GlobalOp filter;
  int64_t n, h, w, c, f;
  unsigned m;
  /// The constant the output holds before the convolution, when the fill
  /// that wrote it goes (the output transform starts from it), else null.
  linalg::FillOp fill;
  std::optional<double> initValue;
};

static bool allOnes(DenseIntElementsAttr attr) {
  return llvm::all_of(attr.getValues<int64_t>(),
                      [](int64_t v) { return v == 1; });
}

/// The fill of `output` itself with a float constant, when it is the last
/// op before `conv` to touch `output` or a view of it; with its value.
static std::optional<std::pair<linalg::FillOp, double>>
findFoldableFill(linalg::Conv2DNhwcHwcfOp conv, Value output) {
  Value base = polyblocks::getBaseBuffer(output);
  for (Operation *op = conv->getPrevNode(); op; op = op->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInits()[0] == output) {
      FloatAttr value;
      if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
        return std::nullopt;
      return std::make_pair(fill, value.getValueAsDouble());
    }
    if (polyblocks::touchesBuffer(op, base))
      return std::nullopt;
  }
  return std::nullopt;
}

/// Matches `conv` (see the pass description); `forcedM` nonzero overrides
/// the machine model's m.
static std::optional<WinogradConv> matchConv(linalg::Conv2DNhwcHwcfOp conv,
                                             const polyblocks::CPUModel &cpu,
                                             unsigned forcedM) {
  if (!conv.hasPureBufferSemantics() || !allOnes(conv.getStrides()) ||
      !allOnes(conv.getDilations()))
    return std::nullopt;
  Value input = conv.getInputs()[0], filterValue = conv.getInputs()[1],
        output = conv.getOutputs()[0];
  auto inputType = cast<MemRefType>(input.getType());
  auto filterType = cast<MemRefType>(filterValue.getType());
  auto outputType = cast<MemRefType>(output.getType());
  if (!inputType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outputType.hasStaticShape() || !outputType.getElementType().isF32() ||
      !inputType.getElementType().isF32() ||
      !filterType.getElementType().isF32() || filterType.getDimSize(0) != 3 ||
      filterType.getDimSize(1) != 3)
    return std::nullopt;
  if (polyblocks::getBaseBuffer(input) == polyblocks::getBaseBuffer(output))
    return std::nullopt;
  WinogradConv wc;
  wc.op = conv;
  wc.filter = polyblocks::getConstantGlobal(filterValue);
  wc.n = outputType.getDimSize(0);
  wc.h = outputType.getDimSize(1);
  wc.w = outputType.getDimSize(2);
  wc.f = outputType.getDimSize(3);
  wc.c = inputType.getDimSize(3);
  polyblocks::WinogradTile tile =
      polyblocks::chooseWinogradTile(cpu, wc.n, wc.h, wc.w, wc.c, wc.f);
  wc.m = tile.m;
  if (forcedM != 0) {
    bool fits = wc.c % cpu.getF32Lanes() == 0 && wc.f % cpu.getF32Lanes() == 0;
    wc.m = fits ? forcedM : 0;
  }
  if (wc.m == 0) {
    LLVM_DEBUG(llvm::dbgs() << "direct: no Winograd tile for " << conv << "\n");
    return std::nullopt;
  }
  if (auto fill = findFoldableFill(conv, output)) {
    wc.fill = fill->first;
    wc.initValue = fill->second;
  }
  return wc;
}

/// U[xi * alpha + nu, c, f] = sum over kh, kw of G[xi, kh] G[nu, kw]
/// w[kh, kw, c, f], computed in double and rounded once, as the bytes of
/// f32 elements; none when the filter's data is not at hand.
static std::optional<SmallVector<char, 0>>
transformFilter(ElementsAttr init, const WinogradConv &wc,
                const polyblocks::WinogradMatrices &wm) {
  std::optional<ArrayRef<char>> bytes = polyblocks::getConstantBytes(init, 4);
  if (!bytes)
    return std::nullopt;
  int64_t cf = wc.c * wc.f;
  unsigned alpha = wm.alpha;
  // Every element is written below: no zeroing first.
  SmallVector<char, 0> u;
  u.resize_for_overwrite(alpha * alpha * cf * sizeof(float));
  // In chunks of the (c, f) elements, so that the partial sums stay in the
  // cache (whole, a 512 x 512 layer's are 38 MB, read 3 alpha^2 times).
  constexpr int64_t kChunk = 256;
  std::vector<float> filter(9 * kChunk);
  std::vector<double> rows(alpha * 3 * kChunk), acc(kChunk);
  for (int64_t begin = 0; begin < cf; begin += kChunk) {
    int64_t size = std::min(kChunk, cf - begin);
    for (unsigned k = 0; k < 9; ++k)
      std::memcpy(&filter[k * kChunk],
                  bytes->data() + (k * cf + begin) * sizeof(float),
                  size * sizeof(float));
    // Along kh first: rows[xi][kw][e].
    std::fill(rows.begin(), rows.end(), 0.0);
    for (unsigned xi = 0; xi < alpha; ++xi)
      for (unsigned kh = 0; kh < 3; ++kh)
        if (double g = wm.gAt(xi, kh); g != 0.0)
          for (unsigned kw = 0; kw < 3; ++kw) {
            double *out = &rows[(xi * 3 + kw) * kChunk];
            const float *in = &filter[(kh * 3 + kw) * kChunk];
            for (int64_t e = 0; e < size; ++e)
              out[e] += g * in[e];
          }
    for (unsigned xi = 0; xi < alpha; ++xi)
      for (unsigned nu = 0; nu < alpha; ++nu) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (unsigned kw = 0; kw < 3; ++kw)
          if (double g = wm.gAt(nu, kw); g != 0.0) {
            const double *in = &rows[(xi * 3 + kw) * kChunk];
            for (int64_t e = 0; e < size; ++e)
              acc[e] += g * in[e];
          }
        char *out = &u[((xi * alpha + nu) * cf + begin) * sizeof(float)];
        for (int64_t e = 0; e < size; ++e) {
          float value = static_cast<float>(acc[e]);
          std::memcpy(out + e * sizeof(float), &value, sizeof(float));
        }
      }
  }
  return u;
}

/// Emits the arithmetic of the transforms on vectors: linear combinations
/// with constant coefficients, zero terms left out, +-1 as adds and
/// subtractions.
class VectorCombiner {
public:
  VectorCombiner(OpBuilder &b, Location loc, VectorType type)
      : b(b), loc(loc), type(type) {}

  /// sum over i of coefs[i] * xs[i].
  Value combine(ArrayRef<double> coefs, ArrayRef<Value> xs) {
    Value acc;
    for (auto [coef, x] : llvm::zip_equal(coefs, xs)) {
      if (coef == 0.0)
        continue;
      if (!acc) {
        acc = coef == 1.0 ? x
              : coef == -1.0
                  ? Value(arith::NegFOp::create(b, loc, x))
                  : Value(arith::MulFOp::create(b, loc, splat(coef), x));
      } else if (coef == 1.0) {
        acc = arith::AddFOp::create(b, loc, acc, x);
      } else if (coef == -1.0) {
        acc = arith::SubFOp::create(b, loc, acc, x);
      } else {
        acc = vector::FMAOp::create(b, loc, splat(coef), x, acc);
      }
    }
    return acc ? acc : splat(0.0);
  }

  /// out = Mt D Mt^T for the `rows` x `cols` matrix Mt (row-major) and
  /// the `cols` x `cols` matrix D of vectors: Mt applied to D's columns,
  /// then to the rows of the result.
  SmallVector<Value> transform2D(ArrayRef<double> mt, unsigned rows,
                                 unsigned cols, ArrayRef<Value> d) {
    SmallVector<Value> half(rows * cols);
    SmallVector<Value> column(cols);
    for (unsigned j = 0; j < cols; ++j) {
      for (unsigned i = 0; i < cols; ++i)
        column[i] = d[i * cols + j];
      for (unsigned a = 0; a < rows; ++a)
        half[a * cols + j] = combine(mt.slice(a * cols, cols), column);
    }
    SmallVector<Value> out(rows * rows);
    for (unsigned a = 0; a < rows; ++a)
      for (unsigned bIndex = 0; bIndex < rows; ++bIndex)
        out[a * rows + bIndex] =
            combine(mt.slice(bIndex * cols, cols),
                    ArrayRef<Value>(half).slice(a * cols, cols));
    return out;
  }

  Value splat(double value) {
    auto [it, inserted] = constants.try_emplace(value);
    if (inserted)
      it->second = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(type,
                                 b.getFloatAttr(type.getElementType(), value)));
    return it->second;
  }

private:
  OpBuilder &b;
  Location loc;
  VectorType type;
  std::map<double, Value> constants;
};

/// Creates a nest of `tripCounts` loops, the last stepping by `lanes` (the
/// input's `for %n, %th, %tw, %ch`, a filter's `for %c, %f`), before the
/// builder's point; returns its outermost loop and sets `ivs` and the
/// builder into its body.
static AffineForOp createTileNest(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> tripCounts, int64_t lanes,
                                  SmallVectorImpl<Value> &ivs) {
  AffineForOp root;
  for (auto [d, trips] : llvm::enumerate(tripCounts)) {
    bool vectorLoop = d + 1 == tripCounts.size();
    auto loop = AffineForOp::create(b, loc, 0, trips, vectorLoop ? lanes : 1);
    if (!root)
      root = loop;
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  return root;
}

/// Stores value `k` of a transform's `points` at [k, ivs...] of `buffer`.
static void storePoints(OpBuilder &b, Location loc, ArrayRef<Value> points,
                        Value buffer, ArrayRef<Value> ivs) {
  MLIRContext *ctx = b.getContext();
  for (auto [k, value] : llvm::enumerate(points)) {
    SmallVector<AffineExpr> subscripts = {getAffineConstantExpr(k, ctx)};
    for (unsigned d = 0; d < ivs.size(); ++d)
      subscripts.push_back(getAffineDimExpr(d, ctx));
    AffineVectorStoreOp::create(b, loc, value, buffer,
                                AffineMap::get(ivs.size(), 0, subscripts, ctx),
                                ivs);
  }
}

/// A bound on a subscript of the tile nest: `index` (of the nest's four
/// loops) must stay at most `limit`; `largest` is its value in the last
/// tile, where it is largest.
struct SubscriptBound {
  AffineExpr index;
  int64_t largest, limit;
};

/// Emits `inBounds` at the builder's point, inside an affine.if on the
/// bounds that the last tiles can exceed (none: unguarded); `outOfBounds`
/// gives the value otherwise (with `type`; no value when `type` is null).
static Value emitGuarded(OpBuilder &b, Location loc, ArrayRef<Value> ivs,
                         Type type, ArrayRef<SubscriptBound> bounds,
                         function_ref<Value(OpBuilder &)> inBounds,
                         function_ref<Value(OpBuilder &)> outOfBounds) {
  SmallVector<AffineExpr> constraints;
  for (const SubscriptBound &bound : bounds)
    if (bound.largest > bound.limit)
      constraints.push_back(bound.limit - bound.index);
  if (constraints.empty())
    return inBounds(b);
  auto set = IntegerSet::get(4, 0, constraints,
                             SmallVector<bool>(constraints.size(), false));
  TypeRange types = type ? TypeRange(type) : TypeRange();
  auto guard = AffineIfOp::create(b, loc, types, set, ivs,
                                  /*withElseRegion=*/bool(type));
  OpBuilder tb = OpBuilder::atBlockBegin(guard.getThenBlock());
  Value inside = inBounds(tb);
  if (!type)
    return Value();
  AffineYieldOp::create(tb, loc, inside);
  OpBuilder eb = OpBuilder::atBlockBegin(guard.getElseBlock());
  AffineYieldOp::create(eb, loc, outOfBounds(eb));
  return guard.getResult(0);
}

struct WinogradConvolutionsPass
    : public polyblocks::impl::PBWinogradConvolutionsBase<
          WinogradConvolutionsPass> {
  using PBWinogradConvolutionsBase::PBWinogradConvolutionsBase;

  void runOnOperation() override {
    if (tile != 0 && !polyblocks::hasWinogradMatrices(tile, 3)) {
      getOperation().emitError()
          << "pb-winograd-convolutions: tile must be 2 or 4, got "
          << static_cast<unsigned>(tile);
      return signalPassFailure();
    }
    polyblocks::MachineModel model =
        polyblocks::getMachineModel(getOperation());
    SmallVector<WinogradConv> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (auto wc = matchConv(conv, model.cpu, tile))
        convs.push_back(*wc);
    });
    for (WinogradConv &wc : convs)
      rewrite(wc, model.cpu);
  }

  void rewrite(WinogradConv &wc, const polyblocks::CPUModel &cpu) {
    polyblocks::WinogradMatrices wm = polyblocks::getWinogradMatrices(wc.m, 3);
    unsigned alpha = wm.alpha, points = alpha * alpha;
    // Tiles of m x m outputs; the last ones may overhang the output (their
    // inputs past the padded input read as zeros, their outputs past the
    // output not stored).
    int64_t th = llvm::divideCeil(wc.h, int64_t(wc.m)),
            tw = llvm::divideCeil(wc.w, int64_t(wc.m)), tiles = wc.n * th * tw;
    int64_t lanes = cpu.getF32Lanes();
    MLIRContext *ctx = &getContext();
    Location loc = wc.op.getLoc();
    Type f32 = Float32Type::get(ctx);

    // The transformed filter, a constant global beside the filter's.
    auto uType = MemRefType::get({points, wc.c, wc.f}, f32);
    memref::GlobalOp uGlobal;
    if (wc.filter) {
      auto init = dyn_cast<ElementsAttr>(*wc.filter.getInitialValue());
      std::optional<SmallVector<char, 0>> uBytes =
          init ? transformFilter(init, wc, wm) : std::nullopt;
      if (!uBytes) {
        LLVM_DEBUG(llvm::dbgs()
                   << "direct: the filter's data is not at hand\n");
        return;
      }
      uGlobal = polyblocks::getOrCreateConstantGlobal(
          wc.filter,
          llvm::formatv("{0}_winograd{1}", wc.filter.getSymName(), wc.m).str(),
          uType, *uBytes, isa<DenseResourceElementsAttr>(init));
    }

    OpBuilder b(wc.op);
    Value input = wc.op.getInputs()[0], output = wc.op.getOutputs()[0];
    auto vectorType = VectorType::get({lanes}, f32);
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
               d2 = getAffineDimExpr(2, ctx), d3 = getAffineDimExpr(3, ctx);
    std::string shape = llvm::formatv("F({0}x{0}, 3x3)", wc.m).str();

    // A filter passed in is transformed on every call, before the input:
    // U[xi * alpha + nu, c, f] = (G w G^T)[xi, nu], vectors along f (C x F
    // x 9 loads and alpha^2 stores: a 3x3x64x64 filter is 147 KiB, a
    // batch-8 56 x 56 input 6 MiB).
    Value u;
    if (!wc.filter) {
      u = memref::AllocOp::create(b, loc, uType, b.getI64IntegerAttr(64));
      OpBuilder nb = b;
      SmallVector<Value> ivs;
      AffineForOp root = createTileNest(nb, loc, {wc.c, wc.f}, lanes, ivs);
      VectorCombiner combiner(nb, loc, vectorType);
      SmallVector<Value> g;
      for (int64_t kh = 0; kh < 3; ++kh)
        for (int64_t kw = 0; kw < 3; ++kw)
          g.push_back(AffineVectorLoadOp::create(
              nb, loc, vectorType, wc.op.getInputs()[1],
              AffineMap::get(2, 0,
                             {getAffineConstantExpr(kh, ctx),
                              getAffineConstantExpr(kw, ctx), d0, d1},
                             ctx),
              ivs));
      storePoints(nb, loc, combiner.transform2D(wm.g, alpha, 3, g), u, ivs);
      polyblocks::recordDecision(
          root, DEBUG_TYPE,
          llvm::formatv("filter transform of {0} at run time (the filter is "
                        "not a constant): {1} x {2} channel pairs, {3} "
                        "values each",
                        shape, wc.c, wc.f, points)
              .str(),
          {{"m", b.getI64IntegerAttr(wc.m)}});
    }

    // Input transform: V[xi * alpha + nu, n, th, tw, c] = (B^T d B)[xi, nu].
    auto vType = MemRefType::get({points, wc.n, th, tw, wc.c}, f32);
    Value v = memref::AllocOp::create(b, loc, vType, b.getI64IntegerAttr(64));
    {
      OpBuilder nb = b;
      SmallVector<Value> ivs;
      AffineForOp root =
          createTileNest(nb, loc, {wc.n, th, tw, wc.c}, lanes, ivs);
      VectorCombiner combiner(nb, loc, vectorType);
      // The input has h + 2 rows and w + 2 columns; past them, zeros.
      Value zero =
          th * wc.m > wc.h || tw * wc.m > wc.w ? combiner.splat(0.0) : Value();
      SmallVector<Value> d;
      for (unsigned i = 0; i < alpha; ++i)
        for (unsigned j = 0; j < alpha; ++j) {
          AffineMap map =
              AffineMap::get(4, 0, {d0, d1 * wc.m + i, d2 * wc.m + j, d3}, ctx);
          d.push_back(emitGuarded(
              nb, loc, ivs, vectorType,
              {{d1 * wc.m + i, (th - 1) * wc.m + i, wc.h + 1},
               {d2 * wc.m + j, (tw - 1) * wc.m + j, wc.w + 1}},
              [&](OpBuilder &gb) -> Value {
                return AffineVectorLoadOp::create(gb, loc, vectorType, input,
                                                  map, ivs);
              },
              [&](OpBuilder &) { return zero; }));
        }
      storePoints(nb, loc, combiner.transform2D(wm.bt, alpha, alpha, d), v,
                  ivs);
      polyblocks::recordDecision(
          root, DEBUG_TYPE,
          llvm::formatv("input transform of {0}: {1} tiles of {2}x{2}, "
                        "{3} products per channel pair where the direct "
                        "convolution takes {4}",
                        shape, tiles, alpha, points, 9 * wc.m * wc.m)
              .str(),
          {{"m", b.getI64IntegerAttr(wc.m)},
           {"tiles", b.getI64IntegerAttr(tiles)}});
    }

    // The batch of matmuls: M[k] = V[k] (tiles x C) * U[k] (C x F).
    Value vMatrix = memref::CollapseShapeOp::create(
        b, loc, v, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4}});
    auto mType = MemRefType::get({points, tiles, wc.f}, f32);
    Value mm = memref::AllocOp::create(b, loc, mType, b.getI64IntegerAttr(64));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{mm});
    if (uGlobal)
      u = memref::GetGlobalOp::create(b, loc, uType, uGlobal.getSymName());
    linalg::BatchMatmulOp::create(b, loc, ValueRange{vMatrix, u},
                                  ValueRange{mm});
    memref::DeallocOp::create(b, loc, v);
    if (!uGlobal)
      memref::DeallocOp::create(b, loc, u);

    // Output transform: y[n, th * m + a, tw * m + b, f] (+)= (A^T M A)[a, b].
    {
      OpBuilder nb = b;
      SmallVector<Value> ivs;
      AffineForOp root =
          createTileNest(nb, loc, {wc.n, th, tw, wc.f}, lanes, ivs);
      SmallVector<Value> products;
      for (unsigned k = 0; k < points; ++k)
        products.push_back(AffineVectorLoadOp::create(
            nb, loc, vectorType, mm,
            AffineMap::get(4, 0,
                           {getAffineConstantExpr(k, ctx),
                            d0 * (th * tw) + d1 * tw + d2, d3},
                           ctx),
            ivs));
      VectorCombiner combiner(nb, loc, vectorType);
      SmallVector<Value> outputs =
          combiner.transform2D(wm.at, wc.m, alpha, products);
      for (unsigned a = 0; a < wc.m; ++a)
        for (unsigned bIndex = 0; bIndex < wc.m; ++bIndex) {
          AffineMap map = AffineMap::get(
              4, 0, {d0, d1 * wc.m + a, d2 * wc.m + bIndex, d3}, ctx);
          Value value = outputs[a * wc.m + bIndex];
          Value init;
          if (wc.initValue && *wc.initValue != 0.0)
            init = combiner.splat(*wc.initValue);
          emitGuarded(
              nb, loc, ivs, Type(),
              {{d1 * wc.m + a, (th - 1) * wc.m + a, wc.h - 1},
               {d2 * wc.m + bIndex, (tw - 1) * wc.m + bIndex, wc.w - 1}},
              [&](OpBuilder &gb) -> Value {
                Value stored = value;
                if (!wc.initValue)
                  stored = arith::AddFOp::create(
                      gb, loc,
                      AffineVectorLoadOp::create(gb, loc, vectorType, output,
                                                 map, ivs),
                      stored);
                else if (init)
                  stored = arith::AddFOp::create(gb, loc, init, stored);
                AffineVectorStoreOp::create(gb, loc, stored, output, map, ivs);
                return Value();
              },
              nullptr);
        }
      polyblocks::recordDecision(
          root, DEBUG_TYPE,
          llvm::formatv("output transform of {0}: each output stored once, "
                        "{1}",
                        shape,
                        wc.initValue ? "from the fill before the convolution"
                                     : "added to the output")
              .str(),
          {{"m", b.getI64IntegerAttr(wc.m)},
           {"stores_once", b.getBoolAttr(true)}});
    }
    memref::DeallocOp::create(b, loc, mm);
    wc.op.erase();
    if (wc.fill)
      wc.fill.erase();
  }
};

} // namespace
