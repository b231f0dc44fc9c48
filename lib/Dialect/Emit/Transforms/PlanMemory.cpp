//===- PlanMemory.cpp - Place buffers by liveness -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <map>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITPLANMEMORY
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

struct Interval {
  AllocOp alloc;
  int64_t start, end, size;
  int64_t offset = -1;
};

/// Last program index at which `v` or any view of it is used.
int64_t lastUse(Value v, const DenseMap<Operation *, int64_t> &index) {
  int64_t last = -1;
  for (Operation *user : v.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user))
      last = std::max(last, lastUse(view.getResult(), index));
    auto it = index.find(user);
    if (it != index.end())
      last = std::max(last, it->second);
  }
  return last;
}

/// First fit in address order among the intervals live at the same time.
/// Returns the bytes needed at the peak.
int64_t place(std::vector<Interval> &items, int64_t align) {
  std::sort(items.begin(), items.end(), [](const Interval &a, const Interval &b) {
    return a.start != b.start ? a.start < b.start : a.alloc->isBeforeInBlock(b.alloc);
  });
  std::vector<Interval *> active;
  int64_t peak = 0;
  for (Interval &it : items) {
    llvm::erase_if(active, [&](Interval *a) { return a->end < it.start; });
    std::vector<std::pair<int64_t, int64_t>> used;
    for (Interval *a : active)
      used.push_back({a->offset, a->offset + a->size});
    std::sort(used.begin(), used.end());
    int64_t candidate = 0;
    for (auto [lo, hi] : used) {
      if (candidate + it.size <= lo)
        break;
      candidate = std::max(candidate, (hi + align - 1) / align * align);
    }
    it.offset = candidate;
    peak = std::max(peak, candidate + it.size);
    active.push_back(&it);
  }
  return peak;
}

struct EmitPlanMemoryPass : npuc::emit::impl::EmitPlanMemoryBase<EmitPlanMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    ProgramOp program = getOperation();
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t)
      return signalPassFailure();
    Block &body = program.getBody().front();
    DenseMap<Operation *, int64_t> index;
    int64_t i = 0;
    for (Operation &op : body)
      index[&op] = i++;
    std::map<MemorySpace, std::vector<Interval>> bySpace;
    OpBuilder b(program.getContext());
    int64_t constBytes = 0;
    for (Operation &op : body) {
      if (auto c = dyn_cast<ConstantOp>(op)) {
        if (!c.getOffset()) {
          c.setOffsetAttr(b.getI64IntegerAttr(constBytes));
          constBytes = (constBytes + c.getBuffer().getType().getSpanBytes() + 63) / 64 * 64;
        }
        continue;
      }
      auto alloc = dyn_cast<AllocOp>(op);
      if (!alloc || alloc.getOffset())
        continue;
      MemorySpace space = alloc.getBuffer().getType().getSpace();
      if (space != MemorySpace::LM && space != MemorySpace::ACC && space != MemorySpace::ARENA) {
        alloc.emitOpError() << "a " << stringifyMemorySpace(space)
                            << " buffer must be placed when it is created";
        return signalPassFailure();
      }
      int64_t end = lastUse(alloc.getBuffer(), index);
      bySpace[space].push_back(
          {alloc, index[alloc], std::max(end, index[alloc]), alloc.getBuffer().getType().getSpanBytes()});
    }
    int64_t budget = gmBudget > 0 ? int64_t(gmBudget) : t->params.DefaultGMBudget;
    for (auto &[space, items] : bySpace) {
      int64_t peak = place(items, 64);
      int64_t capacity = space == MemorySpace::LM    ? t->params.LMBytes
                         : space == MemorySpace::ACC ? t->params.ACCBytes
                                                     : budget;
      for (Interval &it : items) {
        if (it.offset + it.size > capacity) {
          if (space == MemorySpace::ARENA)
            it.alloc.emitOpError() << "the arena needs " << peak << " bytes at this point, more "
                                   << "than the GM budget of " << capacity
                                   << " bytes (--gm-budget)";
          else
            it.alloc.emitOpError() << "needs " << it.size << " bytes of "
                                   << stringifyMemorySpace(space) << " at offset " << it.offset
                                   << "; " << t->name << " has " << capacity << " bytes";
          return signalPassFailure();
        }
        it.alloc.setOffsetAttr(b.getI64IntegerAttr(it.offset));
      }
    }
  }
};

} // namespace
