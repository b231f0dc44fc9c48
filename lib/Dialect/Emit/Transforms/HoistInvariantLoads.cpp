//===- HoistInvariantLoads.cpp - Tiles every iteration loads the same -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// A tile that the body of a loop with rotating slots allocates and fills
// only by DMAs of bytes that do not change in the loop (a source defined outside it that no op of the
// loop writes), and that the body only reads, holds the same bytes in every
// iteration. It is allocated and loaded once, before the loop: one buffer
// instead of a slot per iteration (emit-multi-buffer), one load instead of
// one per iteration. A matrix product tiled along N loads its A operand so.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITHOISTINVARIANTLOADS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

bool definedOutside(Value v, ForOp loop) {
  Operation *def = v.getDefiningOp();
  return !def || !loop->isAncestor(def);
}

/// The ops of the loop body using `v` or a static view of it; false when a
/// use is neither (an iter_view, another op's region).
bool collectUses(Value v, ForOp loop, SmallVectorImpl<ViewOp> &views,
                 SmallVectorImpl<Operation *> &users) {
  for (Operation *user : v.getUsers()) {
    if (user->getBlock() != &loop.getBody().front())
      return false;
    if (auto view = dyn_cast<ViewOp>(user)) {
      views.push_back(view);
      if (!collectUses(view.getResult(), loop, views, users))
        return false;
      continue;
    }
    if (!isa<EngineOp, ValueOp>(user))
      return false;
    users.push_back(user);
  }
  return true;
}

/// Whether `v` is a value from outside the loop seen through static views
/// made in the body (which may move with the load).
bool invariantSource(Value v, ForOp loop) {
  while (!definedOutside(v, loop)) {
    auto view = v.getDefiningOp<ViewOp>();
    if (!view || view->getBlock() != &loop.getBody().front())
      return false;
    v = view.getSource();
  }
  return true;
}

/// Roots of the buffers the loop body's engine ops write.
DenseSet<Operation *> writtenRoots(ForOp loop) {
  DenseSet<Operation *> roots;
  for (Operation &op : loop.getBody().front())
    if (auto engineOp = dyn_cast<EngineOp>(op)) {
      SmallVector<Access> accesses;
      engineOp.getAccesses(accesses);
      for (const Access &a : accesses)
        if (a.write)
          roots.insert(rootOf(a.buffer).first);
    }
  return roots;
}

/// Moves the views `v` is made of, inside the loop, before `point`.
void hoistViews(Value v, ForOp loop, Operation *point) {
  SmallVector<ViewOp> chain;
  while (!definedOutside(v, loop)) {
    auto view = v.getDefiningOp<ViewOp>();
    chain.push_back(view);
    v = view.getSource();
  }
  for (ViewOp view : llvm::reverse(chain))
    view->moveBefore(point);
}

/// Hoists the invariant tiles of `loop`; returns how many.
int64_t hoist(ForOp loop) {
  DenseSet<Operation *> written = writtenRoots(loop);
  SmallVector<AllocOp> allocs;
  for (Operation &op : loop.getBody().front())
    if (auto alloc = dyn_cast<AllocOp>(op);
        alloc && !alloc.getBuffer().getType().isGlobal() && !alloc->hasAttr(AllocOp::kExtraSlots))
      allocs.push_back(alloc);
  int64_t hoisted = 0;
  for (AllocOp alloc : allocs) {
    SmallVector<ViewOp> views;
    SmallVector<Operation *> users;
    if (!collectUses(alloc.getBuffer(), loop, views, users))
      continue;
    // The tile's writers: loads of invariant bytes, whole, before any reader.
    SmallVector<DmaOp> loads;
    bool invariant = true, readSeen = false;
    for (Operation &op : loop.getBody().front()) {
      if (!llvm::is_contained(users, &op))
        continue;
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      SmallVector<Access> accesses;
      engineOp.getAccesses(accesses);
      bool writes = false, reads = false;
      for (const Access &a : accesses)
        if (rootOf(a.buffer).first == alloc)
          (a.write ? writes : reads) = true;
      auto dma = dyn_cast<DmaOp>(op);
      if (writes) {
        if (!dma || reads || readSeen || !invariantSource(dma.getSrc(), loop) ||
            written.contains(rootOf(dma.getSrc()).first)) {
          invariant = false;
          break;
        }
        loads.push_back(dma);
      }
      readSeen |= reads;
    }
    if (!invariant || loads.empty())
      continue;
    alloc->moveBefore(loop);
    for (DmaOp dma : loads) {
      hoistViews(dma.getSrc(), loop, loop);
      hoistViews(dma.getDst(), loop, loop);
      dma->moveBefore(loop);
    }
    ++hoisted;
  }
  return hoisted;
}

struct EmitHoistInvariantLoadsPass
    : npuc::emit::impl::EmitHoistInvariantLoadsBase<EmitHoistInvariantLoadsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ForOp> loops;
    getOperation().walk([&](ForOp loop) {
      if (loop.getUpper() - loop.getLower() > 1 && loop.getBuffers() > 1)
        loops.push_back(loop);
    });
    int64_t hoisted = 0;
    for (ForOp loop : loops)
      hoisted += hoist(loop);
    if (remarks)
      getOperation().emitRemark() << hoisted << " tiles loaded once before their loop";
  }
};

} // namespace
