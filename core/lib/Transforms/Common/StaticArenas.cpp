//===- StaticArenas.cpp - A function's buffer arena kept between calls ----===//
//
// pb-share-buffers leaves one arena per function, allocated at its start
// and freed at its end. Above the C library's mmap threshold (a network at
// batch 8 needs tens of megabytes) every call maps it afresh and faults
// each of its pages in again. This pass gives each such function a
// zero-filled global of the arena's size and a flag: a call takes the
// global with an atomic exchange of the flag and gives it back at its end;
// a call that finds it taken (a concurrent call from another thread, or a
// recursive one) allocates an arena of its own, as before. The pages are
// faulted in by the first call and stay.
//
//   %arena = memref.alloc() {pb.arena} : memref<N x i8>
//   ...
//   memref.dealloc %arena
// becomes
//   %flag = memref.get_global @__pb_arena_f_taken : memref<1xi32>
//   %was = memref.atomic_rmw assign %c1, %flag[%c0]
//   %own = arith.cmpi eq, %was, %c0
//   %arena = scf.if %own -> memref<N x i8> {
//     scf.yield (memref.get_global @__pb_arena_f)
//   } else { scf.yield (memref.alloc()) }
//   ...
//   scf.if %own { memref.atomic_rmw assign %c0, %flag[%c0] }
//   else { memref.dealloc %arena }
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "pb-static-arenas"

namespace polyblocks {
#define GEN_PASS_DEF_PBSTATICARENAS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

/// The arena pb-share-buffers made in `func`, if it has one.
memref::AllocOp findArena(func::FuncOp func) {
  memref::AllocOp found;
  func.walk([&](memref::AllocOp alloc) {
    if (alloc->hasAttr(polyblocks::kArenaAttrName))
      found = alloc;
  });
  return found;
}

struct StaticArenasPass
    : public polyblocks::impl::PBStaticArenasBase<StaticArenasPass> {
  using PBStaticArenasBase::PBStaticArenasBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      memref::AllocOp arena = findArena(func);
      if (!arena)
        continue;
      auto type = cast<MemRefType>(arena.getType());
      if (!type.hasStaticShape() ||
          type.getNumElements() < static_cast<int64_t>(minKiB) * 1024) {
        arena->removeAttr(polyblocks::kArenaAttrName);
        continue;
      }
      SmallVector<memref::DeallocOp> releases;
      for (Operation *user : arena->getUsers())
        if (auto release = dyn_cast<memref::DeallocOp>(user))
          releases.push_back(release);
      Location loc = arena.getLoc();
      OpBuilder b(func);

      // The arena's global and its flag, named after the function (the
      // symbol table renames them should the names be taken).
      std::string name = ("__pb_arena_" + func.getSymName()).str();
      auto storage = memref::GlobalOp::create(
          b, loc, name, b.getStringAttr("private"), type, b.getUnitAttr(),
          /*constant=*/false, arena.getAlignmentAttr());
      symbols.insert(storage);
      auto flagType = MemRefType::get({1}, b.getI32Type());
      auto flag = memref::GlobalOp::create(
          b, loc, name + "_taken", b.getStringAttr("private"), flagType,
          DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                                 b.getI32IntegerAttr(0)),
          /*constant=*/false, IntegerAttr());
      symbols.insert(flag);

      // Take the global, or allocate when another call holds it.
      b.setInsertionPoint(arena);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value free = arith::ConstantIntOp::create(b, loc, 0, 32);
      Value taken = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value flagRef =
          memref::GetGlobalOp::create(b, loc, flagType, flag.getSymName());
      Value was =
          memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign,
                                      taken, flagRef, ValueRange{zero});
      Value own =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, was, free);
      auto choice = scf::IfOp::create(b, loc, TypeRange{type}, own,
                                      /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(choice.thenBlock());
        Value global =
            memref::GetGlobalOp::create(b, loc, type, storage.getSymName());
        scf::YieldOp::create(b, loc, global);
        b.setInsertionPointToStart(choice.elseBlock());
        auto heap =
            memref::AllocOp::create(b, loc, type, arena.getAlignmentAttr());
        scf::YieldOp::create(b, loc, heap.getResult());
      }
      arena.getResult().replaceAllUsesWith(choice.getResult(0));
      arena.erase();

      // Give it back, or free the own one.
      for (memref::DeallocOp release : releases) {
        b.setInsertionPoint(release);
        auto back = scf::IfOp::create(b, release.getLoc(), TypeRange{}, own,
                                      /*withElseRegion=*/true);
        b.setInsertionPointToStart(back.thenBlock());
        memref::AtomicRMWOp::create(b, release.getLoc(),
                                    arith::AtomicRMWKind::assign, free, flagRef,
                                    ValueRange{zero});
        b.setInsertionPointToStart(back.elseBlock());
        memref::DeallocOp::create(b, release.getLoc(), choice.getResult(0));
        release.erase();
      }
    }
  }
};

} // namespace
