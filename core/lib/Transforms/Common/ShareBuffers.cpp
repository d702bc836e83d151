//===- ShareBuffers.cpp - Intermediate buffers in one arena by liveness ---===//
//
// A network allocates and frees hundreds of intermediate buffers per call;
// large ones come from mmap and go back to the system when freed, so every
// call faults their pages in again. This pass places the buffers of a
// function's body whose lifetimes are known (allocated and freed in that
// block, or in the body of a loop in it) at offsets of one arena, buffers that
// are never live together sharing bytes: one allocation per call, of the peak
// of live bytes.
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "pb-share-buffers"

namespace polyblocks {
#define GEN_PASS_DEF_PBSHAREBUFFERS
#include "polyblocks/Transforms/Passes.h.inc"
} // namespace polyblocks

using namespace mlir;

namespace {

constexpr int64_t kAlignment = 64;

/// A buffer placed in the arena: live from its allocation to its release
/// (positions in the block), `bytes` long at `offset`.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t begin, end, bytes, offset = -1;
};

/// The bytes of a statically shaped, identity-layout buffer of whole-byte
/// elements, or nullopt.
static std::optional<int64_t> getBufferBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return type.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
}

/// The buffer of `alloc` if its lifetime is known: released once, by a
/// dealloc in the same block, and not returned. It is live from its
/// allocation to the last op of the block that reads or writes it or a
/// value derived from it (a subview, a reshape): deallocations are placed
/// at the end of the function, not after the last use.
static std::optional<Buffer>
getBuffer(memref::AllocOp alloc, DenseMap<Operation *, int64_t> &position) {
  std::optional<int64_t> bytes = getBufferBytes(alloc.getType());
  if (!bytes || !alloc.getDynamicSizes().empty() ||
      !alloc.getSymbolOperands().empty())
    return std::nullopt;
  Block *block = alloc->getBlock();
  memref::DeallocOp dealloc;
  int64_t end = position[alloc];
  SmallVector<Value> worklist{alloc.getResult()};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (isa<func::ReturnOp>(user))
        return std::nullopt;
      if (auto release = dyn_cast<memref::DeallocOp>(user)) {
        if (dealloc || value != alloc.getResult() ||
            release->getBlock() != block)
          return std::nullopt;
        dealloc = release;
        continue;
      }
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return std::nullopt;
      end = std::max(end, position[inBlock]);
      // Values derived from the buffer share its bytes.
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  if (!dealloc)
    return std::nullopt;
  return Buffer{alloc, dealloc, position[alloc], end + 1, *bytes};
}

/// Offsets for `buffers`, largest first, each at the lowest aligned offset
/// where it overlaps no buffer live at the same time; returns the arena's
/// size.
static int64_t placeBuffers(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order,
                    [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
  int64_t size = 0;
  SmallVector<Buffer *> placed;
  for (Buffer *buffer : order) {
    // The byte ranges taken by placed buffers live at the same time.
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (Buffer *other : placed)
      if (other->begin < buffer->end && buffer->begin < other->end)
        taken.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [from, to] : taken) {
      if (offset + buffer->bytes <= from)
        break;
      offset = std::max<int64_t>(offset, llvm::alignTo(to, kAlignment));
    }
    buffer->offset = offset;
    size = std::max(size, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return size;
}

struct ShareBuffersPass
    : public polyblocks::impl::PBShareBuffersBase<ShareBuffersPass> {
  using PBShareBuffersBase::PBShareBuffersBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();
    auto returnOp = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!returnOp)
      return;
    // Positions in one sequence: the body of a loop of the function's
    // block (pb-tile-batch's loop over the images) comes before the loop,
    // so that a buffer of the function used in the loop is live through
    // all of the body, while one the body allocates and frees in an
    // iteration is live within it (its bytes reused by every iteration).
    DenseMap<Operation *, int64_t> position;
    SmallVector<Block *> blocks{&block};
    int64_t next = 0;
    for (Operation &op : block) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        blocks.push_back(loop.getBody());
        for (Operation &inner : *loop.getBody())
          position[&inner] = next++;
      }
      position[&op] = next++;
    }
    SmallVector<Buffer> buffers;
    for (Block *owner : blocks)
      for (auto alloc : owner->getOps<memref::AllocOp>())
        if (std::optional<Buffer> buffer = getBuffer(alloc, position))
          buffers.push_back(*buffer);
    if (buffers.size() < 2)
      return;
    int64_t size = placeBuffers(buffers);

    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&block);
    Location loc = func.getLoc();
    auto arenaType = MemRefType::get({size}, b.getI8Type());
    auto arena = memref::AllocOp::create(b, loc, arenaType,
                                         b.getI64IntegerAttr(kAlignment));
    arena->setAttr(polyblocks::kArenaAttrName, b.getUnitAttr());
    for (Buffer &buffer : buffers) {
      b.setInsertionPoint(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(b, buffer.alloc.getLoc(),
                                                    buffer.offset);
      Value view = memref::ViewOp::create(b, buffer.alloc.getLoc(),
                                          buffer.alloc.getType(), arena, offset,
                                          ValueRange{});
      buffer.alloc.replaceAllUsesWith(view);
      buffer.dealloc.erase();
      buffer.alloc.erase();
    }
    b.setInsertionPoint(returnOp);
    memref::DeallocOp::create(b, loc, arena);
  }
};

} // namespace
