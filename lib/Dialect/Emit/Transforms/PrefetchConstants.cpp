//===- PrefetchConstants.cpp - Constant loads issued kernels ahead ---------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// DMA_IN runs its queue in order. A kernel's loads of the values the kernel
// before it computes wait for that kernel; its weight, bias and table loads
// came after them in the queue, so they waited too and paid their
// descriptors' start latency after the wait. Moved ahead, into the previous
// kernel's span, they run while it computes (issue #30 item 4: weights
// stream ahead of their layer within the LM budget). The moves are made
// before placement, so that placement gives the moved buffers bytes of their
// own, and kept only if LM's placement still fits: propose, place, keep or
// undo.
//
//===----------------------------------------------------------------------===//

#include "Copies.h"
#include "Placement.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITPREFETCHCONSTANTS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// The views `v` is made of and its root (an alloc or a constant), into
/// `out`, roots first; false when anything else makes it.
bool collectDefs(Value v, llvm::SetVector<Operation *> &out) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto view = dyn_cast<ViewOp>(def)) {
    if (!collectDefs(view.getSource(), out))
      return false;
  } else if (!llvm::isa<AllocOp, ConstantOp>(def)) {
    return false;
  }
  out.insert(def);
  return true;
}

/// Program index of the first engine op using `v` or a view of it.
int64_t firstUse(Value v, const DenseMap<Operation *, int64_t> &index) {
  int64_t first = INT64_MAX;
  for (Operation *user : v.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user))
      first = std::min(first, firstUse(view.getResult(), index));
    else if (llvm::isa<EngineOp>(user))
      first = std::min(first, index.lookup(user));
  }
  return first;
}

struct EmitPrefetchConstantsPass
    : npuc::emit::impl::EmitPrefetchConstantsBase<EmitPrefetchConstantsPass> {
  using Base::Base;

  /// Each moved op and the op it stood before, in the order of the moves.
  SmallVector<std::pair<Operation *, Operation *>> journal;
  /// The ops' order, kept across the moves (a moved op's key lies between
  /// its new neighbours'): asking the block would renumber it after every
  /// move.
  DenseMap<Operation *, double> order;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    Block &body = program.getBody().front();
    if (kernels < 1 ||
        !straightLine(body))
      return;  // tile loops not lowered yet: nothing is straight-line
    const target::TargetInfo *target = target::lookupTarget(program.getTarget());
    if (!target)
      return signalPassFailure();
    int64_t capacity = target->params.LMBytes;
    journal.clear();
    order.clear();
    DenseMap<Operation *, int64_t> index = number(body);
    for (auto [op, i] : index)
      order[op] = double(i);

    // Kernels: runs of engine ops with one location. A loop of several
    // iterations keeps its loads (emit-hardware-loops rolls what repeats).
    SmallVector<Operation *> kernelStart;
    DenseMap<Operation *, int64_t> kernelOf;
    DenseMap<int64_t, int64_t> iterations;
    std::optional<Location> current;
    for (Operation &op : body) {
      if (!llvm::isa<EngineOp>(op))
        continue;
      if (!current || op.getLoc() != *current) {
        kernelStart.push_back(&op);
        current = op.getLoc();
      }
      kernelOf[&op] = int64_t(kernelStart.size()) - 1;
      if (auto tag = op.getAttrOfType<DenseI64ArrayAttr>(ForOp::kIterationTag))
        iterations[tag[0]] = std::max(iterations[tag[0]], tag[1] + 1);
    }
    // LM bytes live at each index; a move may not take them past three
    // quarters of LM (placement needs room beyond them).
    std::vector<int64_t> live = liveBytes(body, index);

    SmallVector<DmaOp> loads;
    for (Operation &op : body)
      if (auto dma = dyn_cast<DmaOp>(op))
        if (spaceOf(dma.getSrc()) == MemorySpace::CONST && spaceOf(dma.getDst()) == MemorySpace::LM)
          loads.push_back(dma);
    int64_t moved = 0;
    for (DmaOp load : loads)
      moved += propose(load, index, kernelStart, kernelOf, iterations, live, capacity);

    // Keep the moves only if LM still fits as emit-plan-memory places it.
    if (moved) {
      std::vector<Interval> items = localIntervals(body, number(body));
      if (placeLocal(items, capacity) > capacity) {
        for (auto [op, next] : llvm::reverse(journal))
          op->moveBefore(next);
        if (remarks)
          program.emitRemark() << "constant loads issued ahead left where they were: with "
                               << moved << " moved, LM's placement would not fit";
        return;
      }
    }
    if (remarks && !loads.empty())
      program.emitRemark() << moved << " of " << loads.size() << " constant loads issued up to "
                           << int64_t(kernels) << " kernel(s) ahead of their own";
  }

  /// Moves `load` (its alloc and views with it) before the first engine op
  /// of the kernel `kernels` before its own, if it may; true if it did.
  bool propose(DmaOp load, const DenseMap<Operation *, int64_t> &index,
               ArrayRef<Operation *> kernelStart, const DenseMap<Operation *, int64_t> &kernelOf,
               const DenseMap<int64_t, int64_t> &iterations, std::vector<int64_t> &live,
               int64_t capacity) {
    if (auto tag = load->getAttrOfType<DenseI64ArrayAttr>(ForOp::kIterationTag);
        tag && iterations.lookup(tag[0]) > 1)
      return false;
    int64_t kernel = kernelOf.lookup(load);
    if (kernel < 1)
      return false;
    Operation *before = kernelStart[size_t(std::max<int64_t>(0, kernel - kernels))];
    // A fresh buffer: no engine op uses it before this load.
    auto alloc = dyn_cast<AllocOp>(rootOf(load.getDst()).first);
    llvm::SetVector<Operation *> defs;
    if (!alloc || alloc.getOffset() || firstUse(alloc.getBuffer(), index) != index.lookup(load) ||
        !collectDefs(load.getSrc(), defs) || !collectDefs(load.getDst(), defs))
      return false;
    // The buffer lives from `before` on instead of from its alloc.
    int64_t from = index.lookup(before), to = index.lookup(alloc);
    int64_t bytes = alloc.getBuffer().getType().getSpanBytes();
    if (from >= to)
      return false;
    for (int64_t k = from; k < to; ++k)
      if (live[size_t(k)] + bytes > capacity / 4 * 3)
        return false;
    // What is not before the new place yet moves with the load, in order
    // (earlier moves have changed it).
    SmallVector<Operation *> move;
    for (Operation *def : defs)
      if (order.lookup(def) >= order.lookup(before))
        move.push_back(def);
    llvm::sort(move, [&](Operation *a, Operation *b) { return order.lookup(a) < order.lookup(b); });
    move.push_back(load);
    Operation *prev = before->getPrevNode();
    double lo = prev ? order.lookup(prev) : -1.0, hi = order.lookup(before);
    double step = (hi - lo) / double(move.size() + 1);
    if (!(lo + step > lo && lo + step * double(move.size()) < hi))
      return false;  // no keys left between them (never with real kernels)
    for (int64_t k = from; k < to; ++k)
      live[size_t(k)] += bytes;
    for (auto [j, op] : llvm::enumerate(move)) {
      journal.push_back({op, op->getNextNode()});
      op->moveBefore(before);
      order[op] = lo + step * double(j + 1);
    }
    return true;
  }
};

} // namespace
