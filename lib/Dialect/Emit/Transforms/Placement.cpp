//===- Placement.cpp - Buffers placed by liveness --------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Placement.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// The buffers of one tile loop's iterations form one group.
int64_t groupOf(AllocOp alloc, int64_t own) {
  if (auto tag = alloc->getAttrOfType<DenseI64ArrayAttr>(ForOp::kIterationTag))
    return tag[0];
  return -1 - own;
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

} // namespace

int64_t npuc::emit::lastUse(Value v, const DenseMap<Operation *, int64_t> &index) {
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

/// Places the intervals in order of their start among those live at the
/// same time. First fit in address order, or with `capacity`, next fit by
/// group: a group's search starts where the buffer before the group ended
/// and wraps around at the capacity, so a kernel's buffers do not take the
/// bytes the kernel before it has just released (its loads would wait for
/// that kernel's last reads); within a group (the iterations of one tile
/// loop) it is first fit from that start, so every iteration's buffers get
/// the same bytes and the code repeats (emit-hardware-loops). Returns the
/// bytes needed at the peak.
int64_t npuc::emit::place(std::vector<Interval> &items, int64_t align, int64_t capacity) {
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


Interval npuc::emit::intervalOf(AllocOp alloc, const DenseMap<Operation *, int64_t> &index) {
  int64_t at = index.lookup(alloc);
  return {alloc, at, std::max(lastUse(alloc.getBuffer(), index), at),
          alloc.getBuffer().getType().getSpanBytes(), groupOf(alloc, at)};
}

int64_t npuc::emit::placeLocal(std::vector<Interval> &items, int64_t capacity) {
  int64_t peak = place(items, kPlacementAlign, capacity);
  if (peak > capacity)
    peak = place(items, kPlacementAlign);
  return peak;
}

bool npuc::emit::straightLine(Block &body) {
  return llvm::none_of(body, [](Operation &op) { return llvm::isa<ForOp, HwLoopOp>(op); });
}

DenseMap<Operation *, int64_t> npuc::emit::number(Block &body) {
  DenseMap<Operation *, int64_t> index;
  int64_t i = 0;
  for (Operation &op : body)
    index[&op] = i++;
  return index;
}

std::vector<Interval> npuc::emit::localIntervals(Block &body,
                                                 const DenseMap<Operation *, int64_t> &index,
                                                 MemorySpace space) {
  std::vector<Interval> items;
  for (Operation &op : body)
    if (auto alloc = dyn_cast<AllocOp>(op);
        alloc && !alloc.getOffset() && alloc.getBuffer().getType().getSpace() == space)
      items.push_back(intervalOf(alloc, index));
  return items;
}

std::vector<int64_t> npuc::emit::liveBytes(Block &body, const DenseMap<Operation *, int64_t> &index,
                                           MemorySpace space) {
  std::vector<int64_t> live(index.size() + 1, 0);
  for (const Interval &it : localIntervals(body, index, space))
    live[size_t(it.start)] += it.size, live[size_t(it.end) + 1] -= it.size;
  for (size_t k = 1; k < live.size(); ++k)
    live[k] += live[k - 1];
  return live;
}
