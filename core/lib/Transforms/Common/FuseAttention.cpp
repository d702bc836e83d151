//===- FuseAttention.cpp - Attention as one nest with an online softmax ---===//
//
// Rewrites softmax(prologue(Q K)) V, as exporters spell it (two batched
// products around a row max, exp, row sum and division, with a scale or mask
// before them; the products batch matmuls or contractions in any layout),
// as one scf.forall over the batch of heads whose body walks the keys in
// blocks, keeping a running row maximum, row sum and output (the online
// softmax): the scores of a block are consumed where they are computed,
// never written out for the whole sequence.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "polyblocks/Target/Heuristics.h"
#include "polyblocks/Target/MachineModel.h"
#include "polyblocks/Transforms/Utils/IRBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "pb-fuse-attention"

namespace polyblocks {
#define GEN_PASS_DEF_PBFUSEATTENTION
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// A contraction's operand or result as a batched matrix: the positions
/// of its tensor's dims in the order [batch..., rows, cols].
struct MatrixView {
  Value value;
  SmallVector<int64_t> permutation;
  unsigned batchDims = 0;
};

/// The ops of one attention, as matched.
struct Attention {
  linalg::LinalgOp scores, output;
  /// Q [B, Sq, D], K [B, D, Sk], V [B, Sk, Dv] as the contractions read
  /// them, and the output [B, Sq, Dv] as the second one writes it.
  MatrixView query, key, value, result;
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

static bool isIdentity(AffineMap map, unsigned rank) {
  return map == AffineMap::getMultiDimIdentityMap(rank, map.getContext());
}

/// `value` through expand_shapes that only append a dim of 1 (a row
/// reduction kept as [..., 1]).
static Value throughRowExpansions(Value value) {
  while (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    auto groups = expand.getReassociationIndices();
    RankedTensorType type = expand.getResultType();
    if (groups.empty() || groups.back().size() != 2 ||
        type.getDimSize(type.getRank() - 1) != 1 ||
        !llvm::all_of(
            ArrayRef(groups).drop_back(),
            [](const ReassociationIndices &g) { return g.size() == 1; }))
      break;
    value = expand.getSrc();
  }
  return value;
}

/// The positions in `map`'s results of `dims`, in their order, when the
/// map's results are those dims and nothing else.
static std::optional<SmallVector<int64_t>>
getPermutation(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return std::nullopt;
  SmallVector<int64_t> permutation;
  for (unsigned d : dims) {
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(d, map.getContext()));
    if (!position)
      return std::nullopt;
    permutation.push_back(*position);
  }
  return permutation;
}

/// The loops of a batched matrix product: linalg.batch_matmul, or a
/// multiply-accumulate linalg.generic of one rows, one cols and one depth
/// loop under any number of batch loops, its operands and result in any
/// layout (jaxlib's einsums over [b, s, h, d]). Null when `op` is not one.
static std::optional<linalg::ContractionDimensions>
getBatchedProduct(linalg::LinalgOp op) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.empty() || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1)
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return std::nullopt;
  return *dims;
}

/// The first `count` results of `map` as dims, each one of `allowed`.
static std::optional<SmallVector<unsigned>>
getLeadingDims(AffineMap map, unsigned count, ArrayRef<unsigned> allowed) {
  SmallVector<unsigned> dims;
  for (unsigned i = 0; i < count && i < map.getNumResults(); ++i) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
    if (!dim || !llvm::is_contained(allowed, dim.getPosition()))
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  if (dims.size() != count)
    return std::nullopt;
  return dims;
}

/// `batch`, then `rows` and `cols`.
static SmallVector<unsigned> matrixDims(ArrayRef<unsigned> batch, unsigned rows,
                                        unsigned cols) {
  SmallVector<unsigned> dims(batch);
  dims.push_back(rows);
  dims.push_back(cols);
  return dims;
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

/// Matches the attention whose last op is `output`, a batched product
/// (its loops `outputDims`) of the probabilities (its input
/// `probabilitiesInput`) and the values.
static std::optional<Attention>
matchAttention(linalg::LinalgOp output,
               const linalg::ContractionDimensions &outputDims,
               unsigned probabilitiesInput) {
  Attention a;
  a.output = output;
  if (!isFilledWith(output.getDpsInits()[0], 0.0))
    return std::nullopt;
  // The probabilities P [batch..., rows, depth] in this order (the
  // softmax's), the values V [batch..., depth, cols] and the result
  // [batch..., rows, cols] in any.
  OpOperand *pOperand = output.getDpsInputOperand(probabilitiesInput);
  OpOperand *vOperand = output.getDpsInputOperand(1 - probabilitiesInput);
  AffineMap pMap = output.getMatchingIndexingMap(pOperand);
  unsigned outputBatchDims = outputDims.batch.size();
  std::optional<SmallVector<unsigned>> outputBatch =
      getLeadingDims(pMap, outputBatchDims, outputDims.batch);
  if (!outputBatch || pMap.getNumResults() != outputBatchDims + 2)
    return std::nullopt;
  unsigned outputRows =
      probabilitiesInput == 0 ? outputDims.m[0] : outputDims.n[0];
  unsigned outputCols =
      probabilitiesInput == 0 ? outputDims.n[0] : outputDims.m[0];
  unsigned outputDepth = outputDims.k[0];
  std::optional<SmallVector<int64_t>> vPermutation =
      getPermutation(output.getMatchingIndexingMap(vOperand),
                     matrixDims(*outputBatch, outputDepth, outputCols));
  std::optional<SmallVector<int64_t>> resultPermutation =
      getPermutation(output.getMatchingIndexingMap(output.getDpsInitOperand(0)),
                     matrixDims(*outputBatch, outputRows, outputCols));
  std::optional<SmallVector<int64_t>> pPermutation =
      getPermutation(pMap, matrixDims(*outputBatch, outputRows, outputDepth));
  if (!pPermutation || !isIdentityPermutation(*pPermutation) || !vPermutation ||
      !resultPermutation)
    return std::nullopt;
  a.value = {vOperand->get(), *vPermutation, outputBatchDims};
  a.result = {output->getResult(0), *resultPermutation, outputBatchDims};
  // The probabilities: x / sum.
  auto div =
      throughBatchReshapes(pOperand->get()).getDefiningOp<linalg::LinalgOp>();
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
  auto sum = throughRowExpansions(div.getDpsInputs()[1])
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
  auto max = throughRowExpansions(exp.getDpsInputs()[1])
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
  std::optional<linalg::ContractionDimensions> scoresDims;
  while (true) {
    auto scores =
        throughBatchReshapes(current).getDefiningOp<linalg::LinalgOp>();
    if (scores && (scoresDims = getBatchedProduct(scores))) {
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
  // The scores S [batch..., rows, cols] in this order (the softmax's) of Q
  // [batch..., rows, depth] and K [batch..., depth, cols] in any, with a zero
  // init; Q the input holding the rows.
  AffineMap sMap =
      a.scores.getMatchingIndexingMap(a.scores.getDpsInitOperand(0));
  unsigned scoresBatchDims = scoresDims->batch.size();
  std::optional<SmallVector<unsigned>> scoresBatch =
      getLeadingDims(sMap, scoresBatchDims, scoresDims->batch);
  if (!scoresBatch || sMap.getNumResults() != scoresBatchDims + 2 ||
      !isFilledWith(a.scores.getDpsInits()[0], 0.0))
    return std::nullopt;
  unsigned rows =
      cast<AffineDimExpr>(sMap.getResult(scoresBatchDims)).getPosition();
  unsigned cols =
      cast<AffineDimExpr>(sMap.getResult(scoresBatchDims + 1)).getPosition();
  unsigned depth = scoresDims->k[0];
  OpOperand *qOperand = a.scores.getDpsInputOperand(0);
  OpOperand *kOperand = a.scores.getDpsInputOperand(1);
  if (rows != scoresDims->m[0])
    std::swap(qOperand, kOperand);
  std::optional<SmallVector<int64_t>> qPermutation =
      getPermutation(a.scores.getMatchingIndexingMap(qOperand),
                     matrixDims(*scoresBatch, rows, depth));
  std::optional<SmallVector<int64_t>> kPermutation =
      getPermutation(a.scores.getMatchingIndexingMap(kOperand),
                     matrixDims(*scoresBatch, depth, cols));
  if (!qPermutation || !kPermutation)
    return std::nullopt;
  a.query = {qOperand->get(), *qPermutation, scoresBatchDims};
  a.key = {kOperand->get(), *kPermutation, scoresBatchDims};
  auto qType = cast<RankedTensorType>(qOperand->get().getType());
  auto kType = cast<RankedTensorType>(kOperand->get().getType());
  auto vType = cast<RankedTensorType>(vOperand->get().getType());
  if (!qType.hasStaticShape() || !kType.hasStaticShape() ||
      !vType.hasStaticShape() || !qType.getElementType().isF32() ||
      !kType.getElementType().isF32() || !vType.getElementType().isF32())
    return std::nullopt;
  SmallVector<int64_t> scoresLoops = a.scores.getStaticLoopRanges();
  SmallVector<int64_t> outputLoops = output.getStaticLoopRanges();
  auto product = [](ArrayRef<int64_t> loops, ArrayRef<unsigned> dims) {
    int64_t p = 1;
    for (unsigned d : dims)
      p *= loops[d];
    return p;
  };
  a.rank = rank;
  a.batch = product(scoresLoops, *scoresBatch);
  a.queries = scoresLoops[rows];
  a.depth = scoresLoops[depth];
  a.keys = scoresLoops[cols];
  a.valueDepth = outputLoops[outputCols];
  a.leading = llvm::to_vector(probabilities.getShape().drop_back(2));
  int64_t leadingProduct = 1;
  for (int64_t d : a.leading)
    leadingProduct *= d;
  if (leadingProduct != a.batch ||
      product(outputLoops, *outputBatch) != a.batch ||
      probabilities.getDimSize(rank - 2) != a.queries ||
      probabilities.getDimSize(rank - 1) != a.keys ||
      outputLoops[outputRows] != a.queries ||
      outputLoops[outputDepth] != a.keys)
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
    // Q, K, V and the output as their tensors where a head's matrix is a
    // slice of them (its rows before its cols), else transposed to [B,
    // rows, cols].
    MatrixView query = sliceable(a.query);
    MatrixView key = sliceable(a.key);
    MatrixView value = sliceable(a.value);
    bool inPlace = isSliceable(a.result);
    Value init =
        inPlace
            ? empty(b,
                    cast<RankedTensorType>(a.result.value.getType()).getShape())
            : empty(b, {a.batch, a.queries, a.valueDepth});
    MatrixView result = inPlace ? a.result : MatrixView{init, {0, 1, 2}, 1};
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
      leadingIndices.push_back(splitIndex(head, stride, size));
    }
    Value q = headSlice(fb, query, head, a.queries, a.depth);
    Value k = headSlice(fb, key, head, a.depth, a.keys);
    Value v = headSlice(fb, value, head, a.keys, a.valueDepth);
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
    HeadSlice slice = getHeadSlice(fb, result, head, a.queries, a.valueDepth);
    tensor::ParallelInsertSliceOp::create(
        ib, loc, out, forall.getRegionIterArgs()[0], slice.offsets, slice.sizes,
        slice.strides);
    if (inPlace)
      return forall.getResult(0);
    return fromBatchedMatrix(forall.getResult(0), a.result);
  }

private:
  /// Whether a head's matrix of `view` is a slice of its tensor: its rows
  /// come before its cols there (a slice, strided when batch dims lie
  /// between or after them).
  static bool isSliceable(const MatrixView &view) {
    return view.permutation[view.batchDims] <
           view.permutation[view.batchDims + 1];
  }
  /// `view`, or its tensor transposed to [B, rows, cols] when a head's
  /// matrix is no slice of it.
  MatrixView sliceable(const MatrixView &view) {
    if (isSliceable(view))
      return view;
    return {asBatchedMatrix(view), {0, 1, 2}, 1};
  }
  /// (`head` / `stride`) mod `size`: one index of the head split row-major
  /// (no division by 1, no remainder where the quotient is less than
  /// `size`), made once at the top of the forall's body for every tensor
  /// split the same way. Arith, not affine.apply: `pbtool bench --per-op`
  /// takes the op as an input program.
  Value splitIndex(Value head, int64_t stride, int64_t size) {
    Value &index = splitIndices[{stride, size}];
    if (!index)
      index = buildSplitIndex(head, stride, size);
    return index;
  }
  Value buildSplitIndex(Value head, int64_t stride, int64_t size) {
    auto ob = OpBuilder::atBlockBegin(head.getParentBlock());
    if (size == 1)
      return arith::ConstantIndexOp::create(ob, loc, 0);
    Value index = head;
    if (stride != 1)
      index = arith::DivUIOp::create(
          ob, loc, index, arith::ConstantIndexOp::create(ob, loc, stride));
    if (stride * size < a.batch)
      index = arith::RemUIOp::create(
          ob, loc, index, arith::ConstantIndexOp::create(ob, loc, size));
    return index;
  }
  struct HeadSlice {
    SmallVector<OpFoldResult> offsets, sizes, strides;
  };
  /// The offsets, sizes and strides of the matrix (`rows` x `cols`) of the
  /// head `head` in `view`'s tensor: its batch dims at the head's indices
  /// (the head split in their shape), its rows and cols whole.
  HeadSlice getHeadSlice(OpBuilder &ob, const MatrixView &view, Value head,
                         int64_t rows, int64_t cols) {
    auto type = cast<RankedTensorType>(view.value.getType());
    unsigned rank = type.getRank();
    HeadSlice slice;
    slice.offsets.assign(rank, ob.getIndexAttr(0));
    slice.sizes.assign(rank, ob.getIndexAttr(1));
    slice.strides.assign(rank, ob.getIndexAttr(1));
    int64_t stride = 1;
    for (unsigned i = view.batchDims; i-- > 0;) {
      int64_t d = view.permutation[i];
      int64_t size = type.getDimSize(d);
      if (size != 1)
        slice.offsets[d] = splitIndex(head, stride, size);
      stride *= size;
    }
    slice.sizes[view.permutation[view.batchDims]] = ob.getIndexAttr(rows);
    slice.sizes[view.permutation[view.batchDims + 1]] = ob.getIndexAttr(cols);
    return slice;
  }
  /// The matrix of the head `head` in `view` (a sliceable one).
  Value headSlice(OpBuilder &ob, const MatrixView &view, Value head,
                  int64_t rows, int64_t cols) {
    HeadSlice slice = getHeadSlice(ob, view, head, rows, cols);
    return tensor::ExtractSliceOp::create(
        ob, loc, RankedTensorType::get({rows, cols}, f32), view.value,
        slice.offsets, slice.sizes, slice.strides);
  }
  /// The tensor of `view` as [B, rows, cols]: transposed to [batch...,
  /// rows, cols], its batch dims collapsed into one.
  Value asBatchedMatrix(const MatrixView &view) {
    Value value = view.value;
    if (!isIdentityPermutation(view.permutation))
      value = polyblocks::buildTranspose(b, loc, value, view.permutation);
    if (view.batchDims == 1)
      return value;
    return tensor::CollapseShapeOp::create(b, loc, value,
                                           batchGroups(view.batchDims));
  }
  /// The inverse of asBatchedMatrix: `matrix` [B, rows, cols] as the
  /// tensor of `view`.
  Value fromBatchedMatrix(Value matrix, const MatrixView &view) {
    auto type = cast<RankedTensorType>(view.value.getType());
    if (view.batchDims != 1)
      matrix = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get(
              applyPermutation(type.getShape(), view.permutation), f32),
          matrix, batchGroups(view.batchDims));
    if (isIdentityPermutation(view.permutation))
      return matrix;
    return polyblocks::buildTranspose(
        b, loc, matrix, invertPermutationVector(view.permutation));
  }
  /// [[0, ..., batchDims - 1], [batchDims], [batchDims + 1]].
  static SmallVector<ReassociationIndices> batchGroups(unsigned batchDims) {
    SmallVector<ReassociationIndices> groups(1);
    for (unsigned d = 0; d < batchDims; ++d)
      groups[0].push_back(d);
    groups.push_back({batchDims});
    groups.push_back({batchDims + 1});
    return groups;
  }
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
  /// The head's split indices made so far, by (stride, size).
  llvm::DenseMap<std::pair<int64_t, int64_t>, Value> splitIndices;
};

struct FuseAttentionPass
    : public polyblocks::impl::PBFuseAttentionBase<FuseAttentionPass> {
  using PBFuseAttentionBase::PBFuseAttentionBase;

  void runOnOperation() override {
    polyblocks::CPUModel cpu = polyblocks::getMachineModel(getOperation()).cpu;
    // Every batched product, in order: an attention's ops precede its
    // output, so none is erased before it is visited.
    SmallVector<std::pair<linalg::LinalgOp, linalg::ContractionDimensions>>
        outputs;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<linalg::ContractionDimensions> dims =
              getBatchedProduct(op))
        outputs.emplace_back(op, std::move(*dims));
    });
    for (auto &[output, dims] : outputs) {
      std::optional<Attention> a = matchAttention(output, dims, 0);
      if (!a)
        a = matchAttention(output, dims, 1);
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
      // The ops of the attention, last first, with the reshapes between
      // them as they become unused.
      SmallVector<Operation *> dead{a->output, a->div, a->sum, a->exp, a->max};
      for (linalg::LinalgOp op : llvm::reverse(a->prologue))
        dead.push_back(op);
      dead.push_back(a->scores);
      eraseUnused(dead);
    }
  }

  /// Erases the ops of `ops` in their order, each once unused, and with
  /// each the reshapes it was the last reader of.
  static void eraseUnused(ArrayRef<Operation *> ops) {
    for (Operation *op : ops)
      eraseWithUnusedReshapes(op);
  }
  static void eraseWithUnusedReshapes(Operation *op) {
    if (!op->use_empty())
      return;
    llvm::SmallSetVector<Operation *, 2> reshapes;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        reshapes.insert(def);
    op->erase();
    for (Operation *reshape : reshapes)
      eraseWithUnusedReshapes(reshape);
  }
};

} // namespace
