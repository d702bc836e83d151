//===- ScalarReplacement.cpp - Store forwarding and load reuse ------------===//
//
// Affine scalar replacement (upstream affine-scalrep's rules) over groups of
// accesses to the same element: each access's element is put into one
// canonical form once, and only the accesses of a group are compared. The
// rules, for accesses A and B of one group:
//
//   - a load takes the value of the one store that dominates it, reaches it
//     in their innermost common loop and is not overwritten on the way;
//   - a store is dropped when a store of its group in the same region
//     post-dominates it with nothing reading the buffer between them;
//   - a locally allocated buffer left with only stores (and its dealloc) is
//     removed;
//   - a load takes the value of a dominating load of its group with no write
//     between them (of several, the one that dominates all the others).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

#define DEBUG_TYPE "pb-scalar-replacement"

namespace polyblocks {
#define GEN_PASS_DEF_PBSCALARREPLACEMENT
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;
using namespace mlir::affine;

namespace {

/// The element an affine access addresses, in one form for every access
/// that addresses it the same way: the buffer, then the access map composed
/// with the affine.apply ops that feed it, its operands deduplicated and
/// ordered (dimensions, then symbols, each by identity) and the map
/// simplified over that order, then the operands. Equal keys mean the same
/// element in every iteration; equal elements written in forms that
/// simplification does not unify get different keys.
using ElementKey = std::vector<const void *>;

ElementKey getElementKey(Operation *op) {
  MemRefAccess access(op);
  AffineValueMap valueMap;
  access.getAccessMap(&valueMap);
  AffineMap map = valueMap.getAffineMap();
  ArrayRef<Value> operands = valueMap.getOperands();
  unsigned numDims = map.getNumDims();
  unsigned numSymbols = map.getNumSymbols();
  // Dimensions first, then symbols, each by identity.
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq(0u, numDims + numSymbols));
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(a >= numDims, operands[a].getAsOpaquePointer()) <
           std::make_pair(b >= numDims, operands[b].getAsOpaquePointer());
  });
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> dims(numDims), symbols(numSymbols);
  for (auto [position, old] : llvm::enumerate(order)) {
    if (old < numDims)
      dims[old] = getAffineDimExpr(position, context);
    else
      symbols[old - numDims] = getAffineSymbolExpr(position - numDims, context);
  }
  map = simplifyAffineMap(
      map.replaceDimsAndSymbols(dims, symbols, numDims, numSymbols));

  ElementKey key = {access.memref.getAsOpaquePointer(),
                    map.getAsOpaquePointer()};
  for (unsigned old : order)
    key.push_back(operands[old].getAsOpaquePointer());
  return key;
}

/// The affine reads and writes of `func`, in walk order, grouped by the
/// element they address.
struct AccessGroups {
  explicit AccessGroups(func::FuncOp func) {
    std::map<ElementKey, unsigned> ids;
    func.walk([&](Operation *op) {
      if (!isa<AffineReadOpInterface, AffineWriteOpInterface>(op))
        return;
      auto [it, inserted] = ids.try_emplace(getElementKey(op), groups.size());
      if (inserted)
        groups.emplace_back();
      groups[it->second].push_back(op);
      groupOf[op] = it->second;
    });
  }

  /// The accesses of `op`'s group, `op` included.
  ArrayRef<Operation *> getGroup(Operation *op) const {
    return groups[groupOf.at(op)];
  }

  SmallVector<SmallVector<Operation *, 4>> groups;
  DenseMap<Operation *, unsigned> groupOf;
};

/// Whether `destination` reads what `source` wrote in an iteration of their
/// innermost common loop (accesses of one group).
bool mustReachAtInnermost(Operation *source, Operation *destination) {
  if (getAffineAnalysisScope(source) != getAffineAnalysisScope(destination))
    return false;
  unsigned common = getNumCommonSurroundingLoops(*source, *destination);
  return hasDependence(checkMemrefAccessDependence(
      MemRefAccess(source), MemRefAccess(destination), common + 1));
}

struct ScalarReplacementPass
    : public polyblocks::impl::PBScalarReplacementBase<ScalarReplacementPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto &dominance = getAnalysis<DominanceInfo>();
    auto &postDominance = getAnalysis<PostDominanceInfo>();
    auto &aliasAnalysis = getAnalysis<AliasAnalysis>();
    mayAlias = [&](Value a, Value b) {
      return !aliasAnalysis.alias(a, b).isNo();
    };

    SmallPtrSet<Value, 4> forwardedBuffers;
    {
      AccessGroups groups(func);
      SmallVector<Operation *> erased;
      func.walk([&](AffineReadOpInterface load) {
        if (forwardStore(load, groups, dominance)) {
          forwardedBuffers.insert(load.getMemRef());
          erased.push_back(load);
        }
      });
      for (Operation *op : erased)
        op->erase();
    }
    {
      AccessGroups groups(func);
      SmallVector<Operation *> erased;
      func.walk([&](AffineWriteOpInterface store) {
        if (isOverwritten(store, groups, postDominance))
          erased.push_back(store);
      });
      for (Operation *op : erased)
        op->erase();
    }
    for (Value buffer : forwardedBuffers)
      eraseIfWriteOnly(buffer);
    {
      AccessGroups groups(func);
      SmallVector<Operation *> erased;
      DenseSet<Operation *> replaced;
      func.walk([&](AffineReadOpInterface load) {
        if (reuseLoad(load, groups, dominance, replaced)) {
          replaced.insert(load);
          erased.push_back(load);
        }
      });
      for (Operation *op : erased)
        op->erase();
    }
  }

  /// Replaces `load` by the value of the store it reads, if one is known.
  bool forwardStore(AffineReadOpInterface load, const AccessGroups &groups,
                    DominanceInfo &dominance) {
    Operation *forwarded = nullptr;
    for (Operation *op : groups.getGroup(load)) {
      auto store = dyn_cast<AffineWriteOpInterface>(op);
      if (!store || !dominance.dominates(op, load) ||
          !mustReachAtInnermost(op, load) ||
          !hasNoInterveningEffect<MemoryEffects::Write>(op, load, mayAlias))
        continue;
      // Of two such stores, one would overwrite the other's element.
      if (forwarded)
        return false;
      forwarded = op;
    }
    if (!forwarded)
      return false;
    Value value = cast<AffineWriteOpInterface>(forwarded).getValueToStore();
    if (value.getType() != load.getValue().getType())
      return false;
    load.getValue().replaceAllUsesWith(value);
    return true;
  }

  /// Whether a later store of `store`'s group overwrites its element before
  /// anything reads it.
  bool isOverwritten(AffineWriteOpInterface store, const AccessGroups &groups,
                     PostDominanceInfo &postDominance) {
    for (Operation *op : groups.getGroup(store)) {
      auto later = dyn_cast<AffineWriteOpInterface>(op);
      if (later && op != store &&
          op->getParentRegion() == store->getParentRegion() &&
          postDominance.postDominates(op, store) &&
          hasNoInterveningEffect<MemoryEffects::Read>(store, later, mayAlias))
        return true;
    }
    return false;
  }

  /// Erases `buffer`, a local allocation some loads of which were forwarded,
  /// if nothing but stores and its dealloc use it any more.
  static void eraseIfWriteOnly(Value buffer) {
    Operation *allocation = buffer.getDefiningOp();
    if (!allocation ||
        !hasSingleEffect<MemoryEffects::Allocate>(allocation, buffer))
      return;
    if (llvm::any_of(buffer.getUsers(), [&](Operation *user) {
          return !isa<AffineWriteOpInterface>(user) &&
                 !hasSingleEffect<MemoryEffects::Free>(user, buffer);
        }))
      return;
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      user->erase();
    allocation->erase();
  }

  /// Replaces `load` by an earlier load of its group with no write between,
  /// if there is one (the one dominating the others).
  bool reuseLoad(AffineReadOpInterface load, const AccessGroups &groups,
                 DominanceInfo &dominance,
                 const DenseSet<Operation *> &replaced) {
    SmallVector<AffineReadOpInterface, 4> candidates;
    for (Operation *op : groups.getGroup(load)) {
      auto earlier = dyn_cast<AffineReadOpInterface>(op);
      if (!earlier || op == load || replaced.contains(op) ||
          !dominance.dominates(op, load) ||
          !hasNoInterveningEffect<MemoryEffects::Write>(op, load, mayAlias) ||
          earlier.getValue().getType() != load.getValue().getType())
        continue;
      candidates.push_back(earlier);
    }
    for (AffineReadOpInterface candidate : candidates) {
      if (llvm::all_of(candidates, [&](AffineReadOpInterface other) {
            return other == candidate ||
                   dominance.dominates(candidate.getOperation(),
                                       other.getOperation());
          })) {
        load.getValue().replaceAllUsesWith(candidate.getValue());
        return true;
      }
    }
    return false;
  }

  std::function<bool(Value, Value)> mayAlias;
};

} // namespace
