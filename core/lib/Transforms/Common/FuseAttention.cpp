//===- FuseAttention.cpp - Attention as one nest with an online softmax ---===//
//
// Rewrites softmax(prologue(Q K)) V, as exporters spell it (two batched
// matmuls around a row max, exp, row sum and division, with a scale or mask
// before them), as one scf.forall over the batch of heads whose body walks
// the keys in blocks, keeping a running row maximum, row sum and output
// (the online softmax): the scores of a block are consumed where they are
// computed, never written out for the whole sequence.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Target/MachineModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "pb-fuse-attention"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSEATTENTION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The ops of one attention, as matched.
struct Attention {
  linalg::BatchMatmulOp scores, output;
  /// Elementwise ops between the scores and the softmax, first to last,
  /// and the operand of each that carries the scores.
  SmallVector<linalg::LinalgOp> prologue;
  SmallVector<unsigned> carried;
  linalg::LinalgOp max, exp, sum, div;
  /// Rank of the softmax's operands: leading dims (a split of the batch),
  /// then queries and keys.
  unsigned rank;
  SmallVector<int64_t> leading;
  int64_t batch, queries, keys, depth, valueDepth;
};

/// `value` through reshapes that only split or merge leading dims (the last
/// two stay whole): the view of the same rows in another batch shape.
static Value throughBatchReshapes(Value value) {
  while (true) {
    auto check = [](ArrayRef<ReassociationIndices> groups, int64_t rank) {
      return groups.size() >= 2 && groups[groups.size() - 1].size() == 1 &&
             groups[groups.size() - 2].size() == 1 &&
             groups.back().front() == rank - 1;
    };
    if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>();
        expand && check(expand.getReassociationIndices(),
                        expand.getResultType().getRank())) {
      value = expand.getSrc();
      continue;
    }
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
        collapse && check(collapse.getReassociationIndices(),
                          collapse.getSrcType().getRank())) {
      value = collapse.getSrc();
      continue;
    }
    return value;
  }
}

/// `value` through an expand_shape that only appends a dim of 1 (a row
/// reduction kept as [..., 1]).
static Value throughTrailingUnit(Value value) {
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    auto groups = expand.getReassociationIndices();
    RankedTensorType type = expand.getResultType();
    if (!groups.empty() && groups.back().size() == 2 &&
        type.getDimSize(type.getRank() - 1) == 1 &&
        llvm::all_of(
            ArrayRef(groups).drop_back(),
            [](const ReassociationIndices &g) { return g.size() == 1; }))
      return expand.getSrc();
  }
  return value;
}

static bool isIdentity(AffineMap map, unsigned rank) {
  return map == AffineMap::getMultiDimIdentityMap(rank, map.getContext());
}

/// (d0, ..., dn-1) -> (d0, ..., dn-2) or (d0, ..., dn-2, 0): a row's one
/// value, broadcast along the keys.
static bool isRowMap(AffineMap map, unsigned rank) {
  if (map.getNumDims() != rank || map.getNumSymbols() != 0)
    return false;
  ArrayRef<AffineExpr> results = map.getResults();
  if (results.size() == rank) {
    auto last = dyn_cast<AffineConstantExpr>(results.back());
    if (!last || last.getValue() != 0)
      return false;
    results = results.drop_back();
  }
  if (results.size() != rank - 1)
    return false;
  for (auto [d, expr] : llvm::enumerate(results))
    if (expr != getAffineDimExpr(d, map.getContext()))
      return false;
  return true;
}

/// The op computing the yielded value of `op`'s body, when the body is
/// that op alone (with its operands the block's arguments) and the yield.
static Operation *getSingleBodyOp(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getOperations().size() < 2)
    return nullptr;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  return yield.getOperand(0).getDefiningOp();
}

static bool isFilledWith(Value value, double expected) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  FloatAttr attr;
  return fill && matchPattern(fill.getInputs()[0], m_Constant(&attr)) &&
         attr.getValueAsDouble() == expected;
}

/// A row reduction over the last of `rank` dims of `input`, its init
/// filled with `init`, its body `combine(in, out)` of type OpTy.
template <typename... OpTys>
static bool isRowReduction(linalg::LinalgOp op, unsigned rank, double init) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != rank || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!isIdentity(maps[0], rank) || !isRowMap(maps[1], rank))
    return false;
  if (!isFilledWith(op.getDpsInits()[0], init))
    return false;
  Operation *combine = getSingleBodyOp(op);
  Block *body = op.getBlock();
  return combine && isa<OpTys...>(combine) &&
         llvm::is_contained(combine->getOperands(), body->getArgument(0)) &&
         llvm::is_contained(combine->getOperands(), body->getArgument(1)) &&
         combine->getBlock() == body && body->getOperations().size() == 2;
}

/// An elementwise op of `rank` loops into one new tensor (its body does
/// not read the init).
static bool isElementwise(linalg::LinalgOp op, unsigned rank) {
  return op.getNumDpsInits() == 1 && op.getNumLoops() == rank &&
         op.getNumParallelLoops() == rank && op->getNumResults() == 1 &&
         isIdentity(op.getIndexingMapsArray().back(), rank) &&
         op.getBlock()->getArguments().back().use_empty();
}

/// Matches the attention whose last op is `output`.
static std::optional<Attention> matchAttention(linalg::BatchMatmulOp output) {
  Attention a;
  a.output = output;
  if (!output.hasPureTensorSemantics() ||
      !isFilledWith(output.getDpsInits()[0], 0.0))
    return std::nullopt;
  // The probabilities: x / sum.
  auto div = throughBatchReshapes(output.getDpsInputs()[0])
                 .getDefiningOp<linalg::LinalgOp>();
  if (!div)
    return std::nullopt;
  auto probabilities = cast<RankedTensorType>(div->getResult(0).getType());
  unsigned rank = probabilities.getRank();
  if (rank < 3 || !probabilities.hasStaticShape() ||
      !probabilities.getElementType().isF32() || !isElementwise(div, rank) ||
      div.getNumDpsInputs() != 2)
    return std::nullopt;
  SmallVector<AffineMap> divMaps = div.getIndexingMapsArray();
  auto divide = dyn_cast_or_null<arith::DivFOp>(getSingleBodyOp(div));
  Block *divBody = div.getBlock();
  if (!divide || !isIdentity(divMaps[0], rank) || !isRowMap(divMaps[1], rank) ||
      divide.getLhs() != divBody->getArgument(0) ||
      divide.getRhs() != divBody->getArgument(1))
    return std::nullopt;
  a.div = div;
  // The sum of the exponentials, and the exponentials: exp(x - max).
  auto sum = throughTrailingUnit(div.getDpsInputs()[1])
                 .getDefiningOp<linalg::LinalgOp>();
  auto exp = div.getDpsInputs()[0].getDefiningOp<linalg::LinalgOp>();
  if (!sum || !exp || !isRowReduction<arith::AddFOp>(sum, rank, 0.0) ||
      sum.getDpsInputs()[0] != exp->getResult(0) || !isElementwise(exp, rank) ||
      exp.getNumDpsInputs() != 2)
    return std::nullopt;
  SmallVector<AffineMap> expMaps = exp.getIndexingMapsArray();
  Block *expBody = exp.getBlock();
  auto expOp = dyn_cast_or_null<math::ExpOp>(getSingleBodyOp(exp));
  auto sub = expOp ? expOp.getOperand().getDefiningOp<arith::SubFOp>()
                   : arith::SubFOp();
  if (!sub || !isIdentity(expMaps[0], rank) || !isRowMap(expMaps[1], rank) ||
      sub.getLhs() != expBody->getArgument(0) ||
      sub.getRhs() != expBody->getArgument(1) ||
      expBody->getOperations().size() != 3)
    return std::nullopt;
  a.sum = sum;
  a.exp = exp;
  // The row maximum, of the same scores.
  Value scoresValue = exp.getDpsInputs()[0];
  auto max = throughTrailingUnit(exp.getDpsInputs()[1])
                 .getDefiningOp<linalg::LinalgOp>();
  double lowest = -std::numeric_limits<double>::infinity();
  if (!max ||
      !isRowReduction<arith::MaximumFOp, arith::MaxNumFOp>(max, rank, lowest) ||
      max.getDpsInputs()[0] != scoresValue)
    return std::nullopt;
  a.max = max;
  // The prologue: elementwise ops from the scores' matmul, each the only
  // reader of the one before, the last read by the maximum and the
  // exponentials only.
  Value current = scoresValue;
  while (true) {
    Value underneath = throughBatchReshapes(current);
    if (auto scores = underneath.getDefiningOp<linalg::BatchMatmulOp>()) {
      a.scores = scores;
      break;
    }
    auto op = current.getDefiningOp<linalg::LinalgOp>();
    if (!op || !isElementwise(op, rank))
      return std::nullopt;
    // The input carrying the scores: f32 with an identity map (the others,
    // a mask or a per-row value, are read through projected permutations).
    std::optional<unsigned> carried;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = cast<RankedTensorType>(input->get().getType());
      if (isIdentity(op.getMatchingIndexingMap(input), rank) &&
          type.getElementType().isF32() && !carried) {
        carried = input->getOperandNumber();
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
        return std::nullopt;
    }
    if (!carried)
      return std::nullopt;
    a.prologue.insert(a.prologue.begin(), op);
    a.carried.insert(a.carried.begin(), *carried);
    current = op->getOperand(*carried);
  }
  // The matmuls: scores [B, Sq, D] x [B, D, Sk], output [B, Sq, Sk] x [B,
  // Sk, Dv], with zero inits; the scores read by nothing else.
  if (!a.scores.hasPureTensorSemantics() ||
      !isFilledWith(a.scores.getDpsInits()[0], 0.0))
    return std::nullopt;
  auto qType = cast<RankedTensorType>(a.scores.getDpsInputs()[0].getType());
  auto kType = cast<RankedTensorType>(a.scores.getDpsInputs()[1].getType());
  auto vType = cast<RankedTensorType>(output.getDpsInputs()[1].getType());
  if (!qType.hasStaticShape() || !kType.hasStaticShape() ||
      !vType.hasStaticShape() || !qType.getElementType().isF32() ||
      !kType.getElementType().isF32() || !vType.getElementType().isF32())
    return std::nullopt;
  a.rank = rank;
  a.batch = qType.getDimSize(0);
  a.queries = qType.getDimSize(1);
  a.depth = qType.getDimSize(2);
  a.keys = kType.getDimSize(2);
  a.valueDepth = vType.getDimSize(2);
  a.leading = llvm::to_vector(probabilities.getShape().drop_back(2));
  int64_t leadingProduct = 1;
  for (int64_t d : a.leading)
    leadingProduct *= d;
  if (leadingProduct != a.batch ||
      probabilities.getDimSize(rank - 2) != a.queries ||
      probabilities.getDimSize(rank - 1) != a.keys ||
      vType.getDimSize(1) != a.keys)
    return std::nullopt;
  // Every intermediate is read by the attention alone.
  auto usedOnlyBy = [](Value value, ArrayRef<Operation *> readers) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      while (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
             user->getResult(0).hasOneUse())
        user = *user->getResult(0).getUsers().begin();
      if (!llvm::is_contained(readers, user))
        return false;
    }
    return true;
  };
  SmallVector<Operation *> chain(a.prologue.begin(), a.prologue.end());
  Operation *first = chain.empty() ? a.max.getOperation() : chain.front();
  if (!usedOnlyBy(a.scores->getResult(0),
                  chain.empty() ? ArrayRef<Operation *>{a.max, a.exp}
                                : ArrayRef<Operation *>{first}))
    return std::nullopt;
  for (auto [i, op] : llvm::enumerate(a.prologue)) {
    SmallVector<Operation *> next;
    if (i + 1 < a.prologue.size())
      next.push_back(a.prologue[i + 1]);
    else
      next = {a.max, a.exp};
    if (!usedOnlyBy(op->getResult(0), next))
      return std::nullopt;
  }
  if (!usedOnlyBy(a.max->getResult(0), {a.exp}) ||
      !usedOnlyBy(a.exp->getResult(0), {a.sum, a.div}) ||
      !usedOnlyBy(a.sum->getResult(0), {a.div}) ||
      !usedOnlyBy(a.div->getResult(0), {a.output}))
    return std::nullopt;
  return a;
}

/// Builds the fused attention of `a` in place of its output, with key
/// blocks of `keyBlock`.
class AttentionBuilder {
public:
  AttentionBuilder(Attention &a, int64_t keyBlock)
      : a(a), keyBlock(keyBlock), b(a.output), loc(a.output.getLoc()),
        f32(b.getF32Type()) {}

  Value build() {
    auto outType = cast<RankedTensorType>(a.output->getResult(0).getType());
    Value init = tensor::EmptyOp::create(b, loc, outType.getShape(), f32);
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(a.batch)},
        ValueRange{init}, std::nullopt);
    OpBuilder fb = OpBuilder::atBlockBegin(forall.getBody());
    Value head = forall.getInductionVar(0);
    // The head's leading indices (the batch split as the softmax's shape).
    leadingIndices.clear();
    int64_t stride = a.batch;
    for (int64_t size : a.leading) {
      stride /= size;
      AffineExpr d0 = fb.getAffineDimExpr(0);
      leadingIndices.push_back(affine::AffineApplyOp::create(
          fb, loc, AffineMap::get(1, 0, (d0.floorDiv(stride)) % size),
          ValueRange{head}));
    }
    Value q = slice3D(fb, a.scores.getDpsInputs()[0], head, a.queries, a.depth);
    Value k = slice3D(fb, a.scores.getDpsInputs()[1], head, a.depth, a.keys);
    Value v =
        slice3D(fb, a.output.getDpsInputs()[1], head, a.keys, a.valueDepth);
    Value ninf = constant(fb, -std::numeric_limits<float>::infinity());
    Value zero = constant(fb, 0.0f);
    Value m0 = filled(fb, {a.queries}, ninf);
    Value l0 = filled(fb, {a.queries}, zero);
    Value acc0 = filled(fb, {a.queries, a.valueDepth}, zero);
    auto keyLoop =
        scf::ForOp::create(fb, loc, arith::ConstantIndexOp::create(fb, loc, 0),
                           arith::ConstantIndexOp::create(fb, loc, a.keys),
                           arith::ConstantIndexOp::create(fb, loc, keyBlock),
                           ValueRange{m0, l0, acc0});
    {
      OpBuilder lb = OpBuilder::atBlockBegin(keyLoop.getBody());
      Value kb = keyLoop.getInductionVar();
      Value m = keyLoop.getRegionIterArgs()[0];
      Value l = keyLoop.getRegionIterArgs()[1];
      Value acc = keyLoop.getRegionIterArgs()[2];
      Value kBlock = slice2D(lb, k, zeroIndex(lb), kb, a.depth, keyBlock);
      Value vBlock = slice2D(lb, v, kb, zeroIndex(lb), keyBlock, a.valueDepth);
      // s = q k[:, kb : kb + B], then the prologue on it.
      Value s =
          linalg::MatmulOp::create(
              lb, loc, ValueRange{q, kBlock},
              ValueRange{filled(lb, {a.queries, keyBlock}, constant(lb, 0.0f))})
              ->getResult(0);
      for (auto [op, carried] : llvm::zip_equal(a.prologue, a.carried))
        s = cloneOnBlock(lb, op, carried, s, kb);
      // The block's row maxima, and the new running maximum.
      Value blockMax =
          rowCombine(lb, s, filled(lb, {a.queries}, ninf), /*max=*/true);
      Value newMax = elementwise1D(
          lb, {m, blockMax}, [&](OpBuilder &eb, Location el, ValueRange x) {
            return arith::MaximumFOp::create(eb, el, x[0], x[1]);
          });
      // p = exp(s - max); alpha = exp(old max - max) (0 where a row has
      // seen no finite score yet: the max is still -inf).
      Value p = linalg::GenericOp::create(
                    lb, loc, TypeRange{s.getType()}, ValueRange{s, newMax},
                    ValueRange{empty(lb, {a.queries, keyBlock})},
                    ArrayRef<AffineMap>{identity2D(), row2D(), identity2D()},
                    parallel(2),
                    [&](OpBuilder &eb, Location el, ValueRange x) {
                      Value d = arith::SubFOp::create(eb, el, x[0],
                                                      safeMax(eb, el, x[1]));
                      linalg::YieldOp::create(
                          eb, el, Value(math::ExpOp::create(eb, el, d)));
                    })
                    ->getResult(0);
      Value alpha = elementwise1D(
          lb, {m, newMax}, [&](OpBuilder &eb, Location el, ValueRange x) {
            Value d =
                arith::SubFOp::create(eb, el, x[0], safeMax(eb, el, x[1]));
            return math::ExpOp::create(eb, el, d);
          });
      // l = l * alpha + rowsum(p); acc = acc * alpha + p v[kb : kb + B].
      Value scaledL = elementwise1D(
          lb, {l, alpha}, [&](OpBuilder &eb, Location el, ValueRange x) {
            return arith::MulFOp::create(eb, el, x[0], x[1]);
          });
      Value newL = rowCombine(lb, p, scaledL, /*max=*/false);
      Value scaledAcc =
          linalg::GenericOp::create(
              lb, loc, TypeRange{acc.getType()}, ValueRange{alpha},
              ValueRange{acc}, ArrayRef<AffineMap>{row2D(), identity2D()},
              parallel(2),
              [&](OpBuilder &eb, Location el, ValueRange x) {
                linalg::YieldOp::create(
                    eb, el, Value(arith::MulFOp::create(eb, el, x[1], x[0])));
              })
              ->getResult(0);
      Value newAcc = linalg::MatmulOp::create(lb, loc, ValueRange{p, vBlock},
                                              ValueRange{scaledAcc})
                         ->getResult(0);
      scf::YieldOp::create(lb, loc, ValueRange{newMax, newL, newAcc});
    }
    // out = acc / l.
    Value out =
        linalg::GenericOp::create(
            fb, loc, TypeRange{keyLoop.getResult(2).getType()},
            ValueRange{keyLoop.getResult(1)}, ValueRange{keyLoop.getResult(2)},
            ArrayRef<AffineMap>{row2D(), identity2D()}, parallel(2),
            [&](OpBuilder &eb, Location el, ValueRange x) {
              linalg::YieldOp::create(
                  eb, el, Value(arith::DivFOp::create(eb, el, x[1], x[0])));
            })
            ->getResult(0);
    OpBuilder ib = OpBuilder::atBlockTerminator(forall.getBody());
    ib.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        ib, loc, out, forall.getRegionIterArgs()[0],
        ArrayRef<OpFoldResult>{head, ib.getIndexAttr(0), ib.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{ib.getIndexAttr(1), ib.getIndexAttr(a.queries),
                               ib.getIndexAttr(a.valueDepth)},
        ArrayRef<OpFoldResult>{ib.getIndexAttr(1), ib.getIndexAttr(1),
                               ib.getIndexAttr(1)});
    return forall.getResult(0);
  }

private:
  Value constant(OpBuilder &ob, float value) {
    return arith::ConstantOp::create(ob, loc, ob.getF32FloatAttr(value));
  }
  Value zeroIndex(OpBuilder &ob) {
    return arith::ConstantIndexOp::create(ob, loc, 0);
  }
  Value empty(OpBuilder &ob, ArrayRef<int64_t> shape) {
    return tensor::EmptyOp::create(ob, loc, shape, f32);
  }
  Value filled(OpBuilder &ob, ArrayRef<int64_t> shape, Value value) {
    return linalg::FillOp::create(ob, loc, ValueRange{value},
                                  ValueRange{empty(ob, shape)})
        ->getResult(0);
  }
  /// `value`[head, 0:rows, 0:cols] as a 2-D tensor.
  Value slice3D(OpBuilder &ob, Value value, Value head, int64_t rows,
                int64_t cols) {
    auto type = RankedTensorType::get({rows, cols}, f32);
    return tensor::ExtractSliceOp::create(
        ob, loc, type, value,
        ArrayRef<OpFoldResult>{head, ob.getIndexAttr(0), ob.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{ob.getIndexAttr(1), ob.getIndexAttr(rows),
                               ob.getIndexAttr(cols)},
        ArrayRef<OpFoldResult>{ob.getIndexAttr(1), ob.getIndexAttr(1),
                               ob.getIndexAttr(1)});
  }
  Value slice2D(OpBuilder &ob, Value value, Value row, Value col, int64_t rows,
                int64_t cols) {
    return tensor::ExtractSliceOp::create(
        ob, loc, value, ArrayRef<OpFoldResult>{row, col},
        ArrayRef<OpFoldResult>{ob.getIndexAttr(rows), ob.getIndexAttr(cols)},
        ArrayRef<OpFoldResult>{ob.getIndexAttr(1), ob.getIndexAttr(1)});
  }
  AffineMap identity2D() {
    return AffineMap::getMultiDimIdentityMap(2, b.getContext());
  }
  AffineMap row2D() {
    return AffineMap::get(2, 0, {b.getAffineDimExpr(0)}, b.getContext());
  }
  SmallVector<utils::IteratorType> parallel(unsigned n) {
    return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
  }
  /// The running maximum to subtract: 0 while it is -inf.
  Value safeMax(OpBuilder &eb, Location el, Value max) {
    Value ninf = arith::ConstantOp::create(
        eb, el, eb.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
    Value none =
        arith::CmpFOp::create(eb, el, arith::CmpFPredicate::OEQ, max, ninf);
    Value zero = arith::ConstantOp::create(eb, el, eb.getF32FloatAttr(0.0f));
    return arith::SelectOp::create(eb, el, none, zero, max);
  }
  /// An elementwise op on 1-D tensors of a value per query.
  Value
  elementwise1D(OpBuilder &ob, ValueRange inputs,
                function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
    AffineMap id = AffineMap::getMultiDimIdentityMap(1, b.getContext());
    SmallVector<AffineMap> maps(inputs.size() + 1, id);
    return linalg::GenericOp::create(
               ob, loc, TypeRange{inputs[0].getType()}, inputs,
               ValueRange{empty(ob, {a.queries})}, maps, parallel(1),
               [&](OpBuilder &eb, Location el, ValueRange x) {
                 linalg::YieldOp::create(eb, el, fn(eb, el, x.drop_back()));
               })
        ->getResult(0);
  }
  /// The rows of the 2-D `x` combined into `start` (a value per row) by
  /// maximum or sum.
  Value rowCombine(OpBuilder &ob, Value x, Value start, bool max) {
    return linalg::GenericOp::create(
               ob, loc, TypeRange{start.getType()}, ValueRange{x},
               ValueRange{start}, ArrayRef<AffineMap>{identity2D(), row2D()},
               {utils::IteratorType::parallel, utils::IteratorType::reduction},
               [&](OpBuilder &eb, Location el, ValueRange v) {
                 Value r =
                     max ? Value(arith::MaximumFOp::create(eb, el, v[0], v[1]))
                         : Value(arith::AddFOp::create(eb, el, v[0], v[1]));
                 linalg::YieldOp::create(eb, el, r);
               })
        ->getResult(0);
  }
  /// `op` (an elementwise op of the prologue, on the whole scores) on the
  /// block `s` of keys from `kb`: its other operands sliced to the head and
  /// the block, its linalg.index ops the block's indices.
  Value cloneOnBlock(OpBuilder &ob, linalg::LinalgOp op, unsigned carried,
                     Value s, Value kb) {
    unsigned rank = a.rank;
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (input->getOperandNumber() == carried) {
        inputs.push_back(s);
        maps.push_back(identity2D());
        continue;
      }
      // The slice of the operand this head and block read: per result of
      // its map, a leading dim at the head's index, the queries whole, the
      // keys from kb, a broadcast dim at 0; those of one element dropped.
      Value operand = input->get();
      auto type = cast<RankedTensorType>(operand.getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<AffineExpr> kept;
      SmallVector<int64_t> shape;
      for (auto [r, expr] : llvm::enumerate(map.getResults())) {
        strides.push_back(ob.getIndexAttr(1));
        auto dim = dyn_cast<AffineDimExpr>(expr);
        unsigned d = dim ? dim.getPosition() : rank;
        if (dim && d == rank - 2) {
          offsets.push_back(ob.getIndexAttr(0));
          sizes.push_back(ob.getIndexAttr(a.queries));
          kept.push_back(ob.getAffineDimExpr(0));
          shape.push_back(a.queries);
        } else if (dim && d == rank - 1) {
          offsets.push_back(kb);
          sizes.push_back(ob.getIndexAttr(keyBlock));
          kept.push_back(ob.getAffineDimExpr(1));
          shape.push_back(keyBlock);
        } else if (dim) {
          offsets.push_back(leadingIndices[d]);
          sizes.push_back(ob.getIndexAttr(1));
        } else {
          offsets.push_back(ob.getIndexAttr(0));
          sizes.push_back(ob.getIndexAttr(1));
        }
      }
      auto sliceType = RankedTensorType::get(shape, type.getElementType());
      inputs.push_back(tensor::ExtractSliceOp::create(
          ob, loc, sliceType, operand, offsets, sizes, strides));
      maps.push_back(AffineMap::get(2, 0, kept, b.getContext()));
    }
    maps.push_back(identity2D());
    auto clone = linalg::GenericOp::create(
        ob, loc, TypeRange{s.getType()}, inputs,
        ValueRange{empty(ob, {a.queries, keyBlock})}, maps, parallel(2));
    IRMapping mapping;
    Region &region = clone.getRegion();
    op->getRegion(0).cloneInto(&region, mapping);
    // The block's indices in place of the whole scores'.
    region.walk([&](linalg::IndexOp index) {
      OpBuilder xb(index);
      uint64_t d = index.getDim();
      Value replacement;
      if (d == rank - 2) {
        replacement = linalg::IndexOp::create(xb, loc, 0);
      } else if (d == rank - 1) {
        Value j = linalg::IndexOp::create(xb, loc, 1);
        replacement = arith::AddIOp::create(xb, loc, j, kb);
      } else {
        replacement = leadingIndices[d];
      }
      index.replaceAllUsesWith(replacement);
      index.erase();
    });
    return clone->getResult(0);
  }
  Attention &a;
  int64_t keyBlock;
  OpBuilder b;
  Location loc;
  Type f32;
  SmallVector<Value> leadingIndices;
};

struct FuseAttentionPass
    : public polyblocks::impl::PBFuseAttentionBase<FuseAttentionPass> {
  using PBFuseAttentionBase::PBFuseAttentionBase;

  void runOnOperation() override {
    polyblocks::CPUModel cpu = polyblocks::getMachineModel(getOperation()).cpu;
    SmallVector<linalg::BatchMatmulOp> outputs;
    getOperation().walk(
        [&](linalg::BatchMatmulOp op) { outputs.push_back(op); });
    for (linalg::BatchMatmulOp output : outputs) {
      std::optional<Attention> a = matchAttention(output);
      if (!a)
        continue;
      int64_t block =
          keyBlock
              ? keyBlock
              : polyblocks::chooseAttentionKeyBlock(cpu, a->queries, a->keys);
      if (block <= 0 || a->keys % block != 0) {
        LLVM_DEBUG(llvm::dbgs()
                   << "not fusing: no key block divides " << a->keys << "\n");
        continue;
      }
      Value fused = AttentionBuilder(*a, block).build();
      output->getResult(0).replaceAllUsesWith(fused);
      // The ops of the attention, last first (each now unused).
      SmallVector<Operation *> dead{a->output, a->div, a->sum, a->exp, a->max};
      for (linalg::LinalgOp op : llvm::reverse(a->prologue))
        dead.push_back(op);
      dead.push_back(a->scores);
      for (Operation *op : dead)
        eraseWithUnusedReshapes(op);
    }
  }

  /// Erases `op` if unused, with the reshapes between it and its users.
  static void eraseWithUnusedReshapes(Operation *op) {
    SmallVector<Operation *> users(op->getUsers());
    for (Operation *user : users)
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
          user->use_empty())
        user->erase();
    if (op->use_empty())
      op->erase();
  }
};

} // namespace
