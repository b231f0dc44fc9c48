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
  /// The tile loop whose iteration created the buffer (emit-lower-loops'
  /// tag), or a number of the buffer's own.
  int64_t group;
  int64_t offset = -1;
};

/// The buffers of one tile loop's iterations form one group.
int64_t groupOf(AllocOp alloc, int64_t own) {
  if (auto tag = alloc->getAttrOfType<DenseI64ArrayAttr>(ForOp::kIterationTag))
    return tag[0];
  return -1 - own;
}

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

/// The lowest offset at or above `from` where `size` bytes fit between the
/// `used` ranges (sorted), aligned to `align`.
int64_t firstFit(const std::vector<std::pair<int64_t, int64_t>> &used, int64_t from,
                 int64_t size, int64_t align) {
  int64_t candidate = from;
  for (auto [lo, hi] : used) {
    if (hi <= candidate)
      continue;
    if (candidate + size <= lo)
      break;
    candidate = std::max(candidate, (hi + align - 1) / align * align);
  }
  return candidate;
}

/// Places the intervals in order of their start among those live at the
/// same time. First fit in address order, or with `capacity`, next fit by
/// group: a group's search starts where the buffer before the group ended
/// and wraps around at the capacity, so a kernel's buffers do not take the
/// bytes the kernel before it has just released (its loads would wait for
/// that kernel's last reads); within a group (the iterations of one tile
/// loop) it is first fit from that start, so every iteration's buffers get
/// the same bytes and the code repeats (emit-hardware-loops). Returns the
/// bytes needed at the peak.
int64_t place(std::vector<Interval> &items, int64_t align, int64_t capacity = 0) {
  std::sort(items.begin(), items.end(), [](const Interval &a, const Interval &b) {
    return a.start != b.start ? a.start < b.start : a.alloc->isBeforeInBlock(b.alloc);
  });
  std::vector<Interval *> active;
  int64_t peak = 0, cursor = 0, start = 0;
  std::optional<int64_t> group;
  for (Interval &it : items) {
    if (it.group != group)
      start = cursor, group = it.group;
    llvm::erase_if(active, [&](Interval *a) { return a->end < it.start; });
    std::vector<std::pair<int64_t, int64_t>> used;
    for (Interval *a : active)
      used.push_back({a->offset, a->offset + a->size});
    std::sort(used.begin(), used.end());
    int64_t candidate = capacity ? firstFit(used, start, it.size, align) : -1;
    if (candidate < 0 || candidate + it.size > capacity)
      candidate = firstFit(used, 0, it.size, align);
    it.offset = candidate;
    cursor = (candidate + it.size + align - 1) / align * align;
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
      bySpace[space].push_back({alloc, index[alloc], std::max(end, index[alloc]),
                                alloc.getBuffer().getType().getSpanBytes(),
                                groupOf(alloc, index[alloc])});
    }
    int64_t budget = gmBudget > 0 ? int64_t(gmBudget) : t->params.DefaultGMBudget;
    for (auto &[space, items] : bySpace) {
      int64_t capacity = space == MemorySpace::LM    ? t->params.LMBytes
                         : space == MemorySpace::ACC ? t->params.ACCBytes
                                                     : budget;
      // Local memories by next fit, unless that fragments them past their
      // capacity where first fit does not.
      int64_t peak = place(items, 64, space == MemorySpace::ARENA ? 0 : capacity);
      if (peak > capacity && space != MemorySpace::ARENA)
        peak = place(items, 64);
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
