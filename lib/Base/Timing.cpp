//===- Timing.cpp - NPU timing by geometry --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Timing.h"

#include <algorithm>

using namespace npuc;
using namespace npuc::timing;

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t positive(int64_t v) { return v > 0 ? uint64_t(v) : 0; }
unsigned inFlight(const TargetParams &t) {
  return unsigned(std::clamp<int64_t>(t.DmaInFlight, 1, 16));
}
} // namespace

int64_t timing::arraySide(const TargetParams &t, isa::MmMode mode) {
  switch (mode) {
  case isa::MmMode::F32:
    return t.MatrixSideFp32;
  case isa::MmMode::F16:
    return t.MatrixSideFp16;
  default:
    return t.MatrixSideInt8;
  }
}

int64_t timing::peakMacsPerCycle(const TargetParams &t, isa::MmMode mode) {
  int64_t a = arraySide(t, mode);
  return a * a;
}

uint64_t timing::matmulPasses(const TargetParams &t, isa::MmMode mode, int64_t n, int64_t k) {
  uint64_t a = uint64_t(arraySide(t, mode));
  return ceilDiv(positive(k), a) * ceilDiv(positive(n), a);
}

uint64_t timing::matmulCycles(const TargetParams &t, isa::MmMode mode, int64_t m, int64_t n,
                              int64_t k) {
  uint64_t a = uint64_t(arraySide(t, mode));
  return 2 * a + matmulPasses(t, mode, n, k) * std::max(positive(m), a);
}

uint64_t timing::drainCycles(const TargetParams &t, int64_t m, int64_t n) {
  return ceilDiv(positive(m) * positive(n), uint64_t(t.MatrixSideInt8));
}

uint64_t timing::vectorCycles(const TargetParams &t, uint64_t elements, unsigned widestBytes) {
  return 4 + ceilDiv(elements * widestBytes, uint64_t(t.VectorBytesPerCycle));
}

uint64_t timing::depthwiseCycles(const TargetParams &t, uint64_t macs, unsigned elemBytes) {
  return vectorCycles(t, macs, elemBytes);
}

uint64_t timing::arrayDepthwiseCycles(const TargetParams &t, isa::MmMode mode, int64_t channels,
                                      int64_t taps, int64_t pixels) {
  return matmulCycles(t, mode, pixels, channels, taps);
}

uint64_t timing::dataBytes(const GMAccess &a) {
  uint64_t n = a.elemBytes;
  for (int64_t e : a.extent)
    n *= positive(e);
  return n;
}

std::array<int, 4> timing::runOrder(const GMAccess &a) {
  auto key = [&](int d) {
    int64_t s = a.stride[size_t(d)];
    return a.extent[size_t(d)] <= 1 || s == 0 ? INT64_MAX : s < 0 ? -s : s;
  };
  std::array<int, 4> order{0, 1, 2, 3};
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key(x) < key(y); });
  return order;
}

uint64_t timing::busBytes(const TargetParams &t, const GMAccess &a) {
  if (dataBytes(a) == 0)
    return 0;
  // In the order the DMA moves them, merge dimensions from the innermost
  // while each continues the run before it; the ones left over count the runs.
  uint64_t run = a.elemBytes, runs = 1;
  bool merging = true;
  for (int d : runOrder(a)) {
    uint64_t n = positive(a.extent[size_t(d)]);
    if (n == 1)
      continue;
    if (merging && a.stride[size_t(d)] == int64_t(run))
      run *= n;
    else {
      merging = false;
      runs *= n;
    }
  }
  return runs * std::max(run, uint64_t(t.GMBurstBytes));
}

uint64_t timing::gatherBusBytes(const TargetParams &t, const GMAccess &box, uint64_t rows) {
  GMAccess one = box;
  one.extent[3] = 1;
  return rows * busBytes(t, one);
}

uint64_t timing::busCycles(const TargetParams &t, uint64_t bytes) {
  return ceilDiv(bytes, uint64_t(t.GMBytesPerCycle));
}

uint64_t DmaTimeline::nextStart(EngineIndex engine, uint64_t time) const {
  // The slot the next descriptor takes holds the descriptor DmaInFlight back.
  return std::max(time, ring[engine][head[engine]]);
}

DmaTimeline::Transfer DmaTimeline::start(EngineIndex engine, uint64_t start, uint64_t bytes) {
  Transfer x;
  x.dataStart = std::max(start + uint64_t(t.DmaStartLatency), busFree);
  x.done = x.dataStart + busCycles(t, bytes);
  busFree = x.done;
  ring[engine][head[engine]] = x.done;
  head[engine] = (head[engine] + 1) % inFlight(t);
  last[engine] = std::max(last[engine], x.done);
  return x;
}

uint64_t timing::dmaSteadyCycles(const TargetParams &t, const std::vector<uint64_t> &in,
                                 const std::vector<uint64_t> &out) {
  // Enough repetitions for the slots to reach their steady pattern; the
  // period is measured over the later ones, per engine, by when each
  // repetition's descriptors are done.
  constexpr unsigned kReps = 8, kWarm = 3;
  DmaTimeline dma(t);
  const std::vector<uint64_t> *lists[2] = {&in, &out};
  size_t next[2] = {0, 0};
  uint64_t cursor[2] = {0, 0};
  std::array<std::array<uint64_t, kReps>, 2> done{};
  for (;;) {
    // The engine whose next descriptor can start first goes first: the two
    // queues run free of each other and share the bus in start order.
    int pick = -1;
    uint64_t when = 0;
    for (int e = 0; e < 2; ++e) {
      if (next[e] == lists[e]->size() * kReps)
        continue;
      uint64_t s = dma.nextStart(DmaTimeline::EngineIndex(e), cursor[e]);
      if (pick < 0 || s < when)
        pick = e, when = s;
    }
    if (pick < 0)
      break;
    const std::vector<uint64_t> &list = *lists[pick];
    size_t rep = next[pick] / list.size();
    DmaTimeline::Transfer x =
        dma.start(DmaTimeline::EngineIndex(pick), when, list[next[pick] % list.size()]);
    done[pick][rep] = std::max(done[pick][rep], x.done);
    cursor[pick] = when + kIssueCycles;
    ++next[pick];
  }
  // The engines run free of each other here, so one may take more than its
  // share of the bus early and leave the other alone later; a repetition can
  // never take less than its bytes on the one bus both share.
  uint64_t period = 0, bus = 0;
  for (int e = 0; e < 2; ++e) {
    for (uint64_t bytes : *lists[e])
      bus += busCycles(t, bytes);
    if (!lists[e]->empty())
      period = std::max(period, ceilDiv(done[e][kReps - 1] - done[e][kWarm - 1], kReps - kWarm));
  }
  return std::max(period, bus);
}
