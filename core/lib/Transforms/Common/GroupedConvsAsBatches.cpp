//===- GroupedConvsAsBatches.cpp - Grouped convolutions, group by group --===//
//
// A grouped convolution, channels last, computes each group's output
// channels from that group's input channels only:
//
//   O[n, oh, ow, g, f] += I[n, oh * s + kh * d, ow * s + kw * d, g, c]
//                         * W[g, f, kh, kw, c]
//
// However it is spelled -- `linalg.conv_2d_nhwgc_gfhwc` (PyTorch's, after
// pb-convert-convs-to-channels-last), JAX's `linalg.generic` with its loops
// and filter in another order -- its loops reach the micro-kernel's matcher
// (pb-register-tile-contraction: outer loops, the row loop, reductions, the
// unit-stride column loop) only in one order, with the group loop outermost:
// a batch of convolutions, each with a filter of its own (the column factor
// of a batched matmul, packed per batch). This pass rewrites the op into
// that generic:
//
//   loops (g, n, oh, ow, f, kh, kw, c)
//   I[n, oh * s + kh * d, ow * s + kw * d, g, c] * W'[g, kh, kw, c, f]
//
// the filter transposed to W' (a constant in a network, which
// pb-fold-constant-transposes evaluates). With the group loop anywhere
// else the loop nest stays scalar: the filter moves with the row loop
// pb-permute-for-vectorization leaves innermost but one.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "pb-grouped-convs-as-batches"

namespace polyblocks {
#define GEN_PASS_DEF_PBGROUPEDCONVSASBATCHES
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The loops of a grouped convolution, by role: positions in the op's
/// iteration space.
enum Loop { G, N, OH, OW, F, KH, KW, C, kNumLoops };

/// A grouped convolution, channels last, as matched.
struct GroupedConv {
  unsigned loops[kNumLoops];
  int64_t strides[2];
  int64_t dilations[2];
  unsigned imageOperand; ///< 0 or 1; the filter is the other
};

/// `d` or `d * k`: the dim's position and k.
static std::optional<std::pair<unsigned, int64_t>>
matchScaledDim(AffineExpr e) {
  if (auto dim = dyn_cast<AffineDimExpr>(e))
    return std::make_pair(dim.getPosition(), int64_t(1));
  auto mul = dyn_cast<AffineBinaryOpExpr>(e);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto scale = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!dim || !scale)
    return std::nullopt;
  return std::make_pair(dim.getPosition(), scale.getValue());
}

/// `out * stride + window * dilation` (either order), `out` given: the
/// window's dim, the stride and the dilation.
static bool matchWindow(AffineExpr e, unsigned out, unsigned &window,
                        int64_t &stride, int64_t &dilation) {
  auto add = dyn_cast<AffineBinaryOpExpr>(e);
  if (!add || add.getKind() != AffineExprKind::Add)
    return false;
  auto lhs = matchScaledDim(add.getLHS());
  auto rhs = matchScaledDim(add.getRHS());
  if (!lhs || !rhs)
    return false;
  if (rhs->first == out)
    std::swap(lhs, rhs);
  if (lhs->first != out || rhs->first == out)
    return false;
  window = rhs->first;
  stride = lhs->second;
  dilation = rhs->second;
  return stride > 0 && dilation > 0;
}

/// Whether the body is `out + a * b` (in either order of each operation)
/// on floats, with no casts: the rewrite builds that body anew.
static bool isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  return body->getOperations().size() == 3 &&
         linalg::detail::isContractionBody(
             *body, [](Operation *mul, Operation *add) {
               return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add);
             });
}

/// Matches a grouped convolution, channels last (see the file comment),
/// with more than one group and not depthwise (one input and one output
/// channel per group: pb-register-tile-depthwise's).
static std::optional<GroupedConv> matchGroupedConv(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != kNumLoops ||
      !isMultiplyAccumulate(op))
    return std::nullopt;
  for (Value operand : op->getOperands())
    if (!cast<ShapedType>(operand.getType()).hasStaticShape())
      return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  GroupedConv conv;
  // O[n, oh, ow, g, f]
  AffineMap outMap = maps[2];
  if (outMap.getNumResults() != 5 || !outMap.isProjectedPermutation())
    return std::nullopt;
  const Loop outLoops[] = {N, OH, OW, G, F};
  for (auto [i, loop] : llvm::enumerate(outLoops))
    conv.loops[loop] = cast<AffineDimExpr>(outMap.getResult(i)).getPosition();
  // I[n, oh * s + kh * d, ow * s + kw * d, g, c]
  auto matchImage = [&](AffineMap map) {
    if (map.getNumResults() != 5 || map.getResult(0) != outMap.getResult(0) ||
        map.getResult(3) != outMap.getResult(3))
      return false;
    auto c = dyn_cast<AffineDimExpr>(map.getResult(4));
    if (!c)
      return false;
    conv.loops[C] = c.getPosition();
    return matchWindow(map.getResult(1), conv.loops[OH], conv.loops[KH],
                       conv.strides[0], conv.dilations[0]) &&
           matchWindow(map.getResult(2), conv.loops[OW], conv.loops[KW],
                       conv.strides[1], conv.dilations[1]);
  };
  if (matchImage(maps[0]))
    conv.imageOperand = 0;
  else if (matchImage(maps[1]))
    conv.imageOperand = 1;
  else
    return std::nullopt;
  // Eight distinct loops; the filter reads g, f, kh, kw and c, in any order.
  llvm::SmallDenseSet<unsigned, 8> distinct(std::begin(conv.loops),
                                            std::end(conv.loops));
  if (distinct.size() != kNumLoops)
    return std::nullopt;
  AffineMap filterMap = maps[1 - conv.imageOperand];
  if (filterMap.getNumResults() != 5 || !filterMap.isProjectedPermutation())
    return std::nullopt;
  for (AffineExpr e : filterMap.getResults())
    if (llvm::is_contained(
            ArrayRef<unsigned>{conv.loops[N], conv.loops[OH], conv.loops[OW]},
            cast<AffineDimExpr>(e).getPosition()))
      return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (Loop loop : {G, N, OH, OW, F})
    if (iterators[conv.loops[loop]] != utils::IteratorType::parallel)
      return std::nullopt;
  for (Loop loop : {KH, KW, C})
    if (iterators[conv.loops[loop]] != utils::IteratorType::reduction)
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[conv.loops[G]] == 1 ||
      (ranges[conv.loops[C]] == 1 && ranges[conv.loops[F]] == 1))
    return std::nullopt;
  return conv;
}

/// The permutation that transposes the filter (read by `filterMap`) into
/// [g, kh, kw, c, f].
static SmallVector<int64_t> getFilterPermutation(const GroupedConv &conv,
                                                 AffineMap filterMap) {
  SmallVector<int64_t> permutation;
  for (Loop loop : {G, KH, KW, C, F})
    permutation.push_back(*filterMap.getResultPosition(
        getAffineDimExpr(conv.loops[loop], filterMap.getContext())));
  return permutation;
}

/// `value` transposed by `permutation`; a transpose of a transpose is one
/// transpose of the first's input.
static Value transpose(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> permutation) {
  if (isIdentityPermutation(permutation))
    return value;
  if (auto inner = value.getDefiningOp<linalg::TransposeOp>();
      inner && inner.hasPureTensorSemantics()) {
    SmallVector<int64_t> composed;
    for (int64_t p : permutation)
      composed.push_back(inner.getPermutation()[p]);
    return transpose(b, loc, inner.getInput(), composed);
  }
  return polyblocks::buildTranspose(b, loc, value, permutation);
}

struct GroupedConvsAsBatchesPass
    : public polyblocks::impl::PBGroupedConvsAsBatchesBase<
          GroupedConvsAsBatchesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, GroupedConv>> convs;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<GroupedConv> conv = matchGroupedConv(op))
        convs.emplace_back(op, *conv);
    });
    for (auto &[op, conv] : convs)
      rewrite(op, conv);
  }

  void rewrite(linalg::LinalgOp op, const GroupedConv &conv) {
    MLIRContext *ctx = op.getContext();
    IRRewriter rewriter(op);
    Location loc = op.getLoc();
    Value image = op.getDpsInputs()[conv.imageOperand];
    Value filter = op.getDpsInputs()[1 - conv.imageOperand];
    AffineMap filterMap = op.getIndexingMapsArray()[1 - conv.imageOperand];
    filter =
        transpose(rewriter, loc, filter, getFilterPermutation(conv, filterMap));
    // The new loops are numbered in the order of `Loop`.
    auto d = [&](Loop loop) { return getAffineDimExpr(loop, ctx); };
    auto map = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(kNumLoops, 0, results, ctx);
    };
    AffineMap imageMap =
        map({d(N), d(OH) * conv.strides[0] + d(KH) * conv.dilations[0],
             d(OW) * conv.strides[1] + d(KW) * conv.dilations[1], d(G), d(C)});
    AffineMap newFilterMap = map({d(G), d(KH), d(KW), d(C), d(F)});
    AffineMap outMap = map({d(N), d(OH), d(OW), d(G), d(F)});
    SmallVector<utils::IteratorType> iterators(5,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);
    Value init = op.getDpsInits()[0];
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{image, filter},
        ValueRange{init}, ArrayRef<AffineMap>{imageMap, newFilterMap, outMap},
        iterators, [](OpBuilder &b, Location l, ValueRange args) {
          Value product = arith::MulFOp::create(b, l, args[0], args[1]);
          Value sum = arith::AddFOp::create(b, l, args[2], product);
          linalg::YieldOp::create(b, l, sum);
        });
    rewriter.replaceOp(op, generic->getResults());
  }
};

} // namespace
