//===- ResidentConstants.cpp - A constant several kernels load, loaded once ===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each kernel loads what its own tiling reads. An RNN's recurrent weights
// are read by every time step's product, which select-tiling holds whole in
// one tile when they are shared (the tiling's `resident`): one load per step
// of the same bytes into the same layout. Here the first of those loads
// stays, its buffer lives on in LM, and the later kernels read it; their
// loads go. The change is made before placement and kept only if LM's
// placement still fits: propose, place, keep or give back (issue #29: the
// recurrence's state and weights stay in LM).
//
//===----------------------------------------------------------------------===//

#include "Copies.h"
#include "Placement.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

#include <tuple>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITRESIDENTCONSTANTS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// What makes two loads the same: the constant and the bytes of it they
/// read, how they read them, and the buffer and place they write.
using LoadKey = std::tuple<Operation *, int64_t, Type, Type, Type, int64_t>;

/// A load whose buffer takes over another's: the uses it moved, to put
/// back when the placement does not fit.
struct Share {
  DmaOp load;
  AllocOp alloc;
  Value keeper;  // the buffer of the first load of the same bytes
  SmallVector<OpOperand *> moved;
  int64_t bytes = 0;
};

/// Whether every engine op writing `alloc`'s bytes is `load`.
bool onlyWriter(AllocOp alloc, DmaOp load) {
  SmallVector<Value> work{alloc.getBuffer()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto view = dyn_cast<ViewOp>(user)) {
        work.push_back(view.getResult());
        continue;
      }
      auto engine = dyn_cast<EngineOp>(user);
      if (!engine)
        continue;
      SmallVector<Access> accesses;
      engine.getAccesses(accesses);
      for (const Access &a : accesses)
        if (a.write && rootOf(a.buffer).first == alloc && user != load.getOperation())
          return false;
    }
  }
  return true;
}

struct EmitResidentConstantsPass
    : npuc::emit::impl::EmitResidentConstantsBase<EmitResidentConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    Block &body = program.getBody().front();
    if (!straightLine(body))
      return;  // tile loops not lowered yet: nothing is straight-line
    const target::TargetInfo *target = target::lookupTarget(program.getTarget());
    if (!target)
      return signalPassFailure();
    int64_t capacity = target->params.LMBytes;
    DenseMap<Operation *, int64_t> index = number(body);
    std::vector<int64_t> live = liveBytes(body, index);

    // The loads in program order; the first of each key keeps its buffer.
    DenseMap<LoadKey, AllocOp> first;
    SmallVector<Share> shares;
    int64_t candidates = 0;
    for (Operation &op : body) {
      auto load = dyn_cast<DmaOp>(op);
      if (!load || spaceOf(load.getSrc()) != MemorySpace::CONST ||
          spaceOf(load.getDst()) != MemorySpace::LM || padded(load))
        continue;
      auto [constant, srcOffset] = rootOf(load.getSrc());
      auto [root, dstOffset] = rootOf(load.getDst());
      auto alloc = dyn_cast_or_null<AllocOp>(root);
      if (!llvm::isa_and_nonnull<ConstantOp>(constant) || !alloc || alloc.getOffset() ||
          !onlyWriter(alloc, load))
        continue;
      ++candidates;
      LoadKey key{constant, srcOffset, load.getSrc().getType(), load.getDst().getType(),
                  alloc.getBuffer().getType(), dstOffset};
      auto [it, isFirst] = first.try_emplace(key, alloc);
      // The first buffer must be defined before every use it takes over.
      if (isFirst || !it->second->isBeforeInBlock(alloc))
        continue;
      // The first buffer lives on from its last use to this one's.
      Share s{load, alloc, it->second.getBuffer(), {}, alloc.getBuffer().getType().getSpanBytes()};
      int64_t from = lastUse(s.keeper, index) + 1, to = lastUse(alloc.getBuffer(), index);
      bool fits = s.bytes <= capacity / 4;
      for (int64_t k = from; fits && k <= to; ++k)
        fits = live[size_t(k)] + s.bytes <= capacity / 4 * 3;
      if (!fits)
        continue;
      for (int64_t k = from; k <= to; ++k)
        live[size_t(k)] += s.bytes;
      for (OpOperand &use : alloc.getBuffer().getUses())
        s.moved.push_back(&use);
      for (OpOperand *use : s.moved)
        use->set(s.keeper);
      shares.push_back(std::move(s));
    }

    // Keep the longest run of shares, first proposed first, with which LM's
    // placement fits, by a binary search over the run's length. Placement is
    // not monotone in the shares (a share also removes the later buffer),
    // so this may keep fewer than could fit; every kept run is placed.
    auto keepFirst = [&](size_t n) {
      for (auto [k, s] : llvm::enumerate(shares))
        for (OpOperand *use : s.moved)
          use->set(k < n ? s.keeper : s.alloc.getBuffer());
      std::vector<Interval> items = localIntervals(body, number(body));
      return placeLocal(items, capacity) <= capacity;
    };
    size_t kept = shares.size();
    if (kept && !keepFirst(kept)) {
      size_t lo = 0, hi = kept;  // keepFirst(lo) fits, keepFirst(hi) does not
      while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        (keepFirst(mid) ? lo : hi) = mid;
      }
      kept = lo;
      keepFirst(kept);
    }
    int64_t givenBack = int64_t(shares.size() - kept);
    shares.resize(kept);
    int64_t bytes = 0;
    for (Share &s : shares) {
      bytes += s.bytes;
      eraseCopy(s.load);
      if (s.alloc->use_empty())
        s.alloc->erase();
    }
    if (!remarks)
      return;
    InFlightDiagnostic r = program.emitRemark()
                           << shares.size() << " of " << candidates
                           << " constant loads removed: their kernels read the buffer an earlier "
                              "load of the same bytes left in LM ("
                           << bytes << " bytes not loaded again)";
    if (givenBack)
      r << "; " << givenBack << " kept for the placement of LM to fit";
  }
};

} // namespace
