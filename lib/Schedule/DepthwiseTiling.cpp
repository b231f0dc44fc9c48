//===- DepthwiseTiling.cpp - Tiles of depthwise convolutions, by cost -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/DepthwiseTiling.h"
#include "npuc/Base/Timing.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::emit::lowering::tiling;

namespace {

constexpr int64_t kChannelsMax =
    std::min<int64_t>(isa::limit::V_SHAPE::rows_max, isa::limit::MM_OUT::m_max);
static_assert(kChannelsMax <= isa::limit::MM_DW::channels_max,
              "a tile's channels fit MM_DW's extent whenever they fit V_DW's grid");

/// Bias rows: contiguous for the output stage, one per VECTOR row otherwise.
int64_t biasPitch(const DepthwiseProblem &p, const target::TargetParams &tp) {
  return p.requant ? kAccBytes : tp.VectorAlign;
}

/// One iteration of a tile loop: `channels` channels of one row group.
struct Iteration {
  uint64_t loads = 0, stores = 0, vector = 0, array = 0, drain = 0, gmBytes = 0;
  std::vector<uint64_t> loadBus, storeBus;  // per descriptor, in issue order
};

/// The per-channel parameters of `channels` channels: taps, bias, table.
void parameterLoads(const DepthwiseProblem &p, int64_t channels,
                    const std::function<void(const timing::GMAccess &)> &move) {
  int64_t ex = p.inBytes, taps = p.KH * p.KW;
  for (const WindowBlock &w : depthwiseWindowBlocks(p)) {
    timing::GMAccess block;  // [channels][kh][kw] of the [channels][KH][KW] taps
    block.extent = {w.kw, w.kh, channels, 1};
    block.stride = {ex, p.KW * ex, taps * ex, 0};
    block.elemBytes = unsigned(ex);
    move(block);
  }
  if (p.bias)
    move(gmRuns(1, channels * kAccBytes, 0, kAccBytes));
  if (p.requantTable)
    move(gmRuns(1, channels * kParamBytes, 0, 1));
}

Iteration iteration(const DepthwiseProblem &p, int64_t channels, const RowGroup &g,
                    bool resident, bool onArray, const target::TargetParams &tp) {
  Iteration it;
  auto move = [&](const timing::GMAccess &a, bool load) {
    uint64_t bus = timing::busBytes(tp, a);
    (load ? it.loads : it.stores) += timing::busCycles(tp, bus);
    (load ? it.loadBus : it.storeBus).push_back(bus);
    it.gmBytes += timing::dataBytes(a);
  };
  int64_t real = p.imageRows(g.rows) - g.padTop - g.padBottom;
  int64_t ex = p.inBytes, taps = p.KH * p.KW;
  // The image: per channel, `real` whole input rows, contiguous in NCHW.
  timing::GMAccess image;
  image.extent = {p.W, real, channels, 1};
  image.stride = {ex, p.W * ex, p.H * p.W * ex, 0};
  image.elemBytes = unsigned(ex);
  move(image, true);
  uint64_t outputs = uint64_t(channels * g.rows * p.OW);
  if (p.pooling()) {
    // The image alone (in f32 once converted), then the epilogue's passes.
    uint64_t imageElems = uint64_t(channels * p.imageRows(g.rows) * p.paddedWidth());
    if (p.convertImage)
      it.vector += 3 * timing::vectorCycles(tp, imageElems, kAccBytes);
    it.vector += timing::depthwiseCycles(tp, outputs * uint64_t(taps),
                                         unsigned(p.convertImage ? kAccBytes : ex));
    it.vector += uint64_t(p.epiloguePasses) * timing::vectorCycles(tp, outputs, kAccBytes);
    move(gmRuns(channels, g.rows * p.OW * p.outBytes, p.OH * p.OW * p.outBytes, p.outBytes), false);
    return it;
  }
  if (!resident)
    parameterLoads(p, channels, [&](const timing::GMAccess &a) { move(a, true); });
  for (const WindowBlock &w : depthwiseWindowBlocks(p)) {
    if (onArray)
      it.array += timing::arrayDepthwiseCycles(tp, p.mode, channels, w.kh * w.kw, g.rows * p.OW);
    else
      it.vector += timing::depthwiseCycles(tp, outputs * uint64_t(w.kh * w.kw), unsigned(ex));
  }
  if (p.requant)
    it.drain = timing::drainCycles(tp, channels, g.rows * p.OW);
  else if (p.bias && !depthwiseFusesBias(p))
    it.vector += timing::vectorCycles(tp, outputs, kAccBytes);
  move(gmRuns(channels, g.rows * p.OW * p.outBytes, p.OH * p.OW * p.outBytes, p.outBytes), false);
  return it;
}

/// Candidate channel chunks: every channel, powers of two and even splits.
std::vector<int64_t> channelCandidates(int64_t c) {
  std::set<int64_t> s;
  for (int64_t q = 1; q <= 32; ++q)
    if (int64_t v = ceilDiv(c, q); v <= kChannelsMax)
      s.insert(v);
  for (int64_t v = 1; v < c && v <= kChannelsMax; v *= 2)
    s.insert(v);
  return {s.begin(), s.end()};
}

} // namespace

std::vector<WindowBlock> npuc::emit::lowering::depthwiseWindowBlocks(const DepthwiseProblem &p) {
  std::vector<WindowBlock> blocks;
  constexpr int64_t kMax = isa::limit::V_DW_CFG::kh_max;
  static_assert(kMax == isa::limit::V_DW_CFG::kw_max, "one window limit");
  for (int64_t i0 = 0; i0 < p.KH; i0 += kMax)
    for (int64_t j0 = 0; j0 < p.KW; j0 += kMax)
      blocks.push_back({i0, j0, std::min(kMax, p.KH - i0), std::min(kMax, p.KW - j0)});
  return blocks;
}

std::vector<RowGroup> npuc::emit::lowering::depthwiseRowGroups(const DepthwiseProblem &p,
                                                               int64_t rows) {
  std::vector<RowGroup> groups;
  if (rows < 1)
    return groups;
  for (int64_t j = 0, tiles = ceilDiv(p.OH, rows); j < tiles; ++j) {
    RowGroup g;
    g.first = j, g.count = 1, g.rows = std::min(rows, p.OH - j * rows);
    int64_t top = j * rows * p.sh;  // the tile's first image row, padded coordinates
    g.padTop = std::max<int64_t>(0, p.padTop - top);
    g.padBottom = std::max<int64_t>(0, top + p.imageRows(g.rows) - (p.padTop + p.H));
    if (!groups.empty()) {
      RowGroup &last = groups.back();
      if (last.rows == g.rows && last.padTop == g.padTop && last.padBottom == g.padBottom) {
        ++last.count;
        continue;
      }
    }
    groups.push_back(g);
  }
  return groups;
}

std::optional<std::string> npuc::emit::lowering::checkRowGroups(const DepthwiseProblem &p,
                                                                int64_t rows) {
  for (const RowGroup &g : depthwiseRowGroups(p, rows))
    if (p.imageRows(g.rows) - g.padTop - g.padBottom < 1)
      return "row tile " + std::to_string(g.first) + " lies entirely in the padding";
  return std::nullopt;
}

timing::GMAccess npuc::emit::lowering::gmRuns(int64_t rows, int64_t cols, int64_t stride,
                                              int64_t elem) {
  timing::GMAccess a;
  a.extent = {cols / elem, rows, 1, 1};
  a.stride = {elem, stride, 0, 0};
  a.elemBytes = unsigned(elem);
  return a;
}

DepthwisePitches npuc::emit::lowering::depthwisePitches(const DepthwiseProblem &p, int64_t rows,
                                                        const target::TargetParams &tp) {
  DepthwisePitches d;
  d.image = p.imageRows(rows) * p.paddedWidth() * p.inBytes;
  d.acc = roundUp(rows * p.OW * kAccBytes, tp.MatrixAlign);
  d.out = roundUp(rows * p.OW * p.outBytes, tp.VectorAlign);
  d.plain = roundUp(std::min(p.imageRows(rows), p.H) * p.W * p.inBytes, tp.VectorAlign);
  return d;
}

ResidentPitches npuc::emit::lowering::residentPitches(const DepthwiseProblem &p, int64_t channels,
                                                      const target::TargetParams &tp) {
  ResidentPitches r;
  r.taps = roundUp(channels * p.KH * p.KW * p.inBytes, tp.VectorAlign);
  if (p.bias)
    r.bias = roundUp(channels * biasPitch(p, tp), tp.VectorAlign);
  if (p.requantTable)
    r.params = roundUp(channels * kParamBytes, tp.VectorAlign);
  return r;
}

bool npuc::emit::lowering::residentAllowed(const DepthwiseProblem &p) {
  return !p.pooling() && depthwiseWindowBlocks(p).size() == 1;
}

std::optional<std::string> npuc::emit::lowering::checkFeeder(const DepthwiseProblem &p) {
  namespace L = isa::limit;
  static_assert(L::V_DW_CFG::pt_max == L::MM_DW_CFG::pt_max &&
                    L::V_DW_CFG::ih_max <= L::MM_DW_CFG::ih_max &&
                    L::V_DW_CFG::iw_max <= L::MM_DW_CFG::iw_max,
                "the v_dw_cfg padding fields are the narrower");
  if (p.pooling())
    return "pooling takes no padding from the feeder";
  if (depthwiseWindowBlocks(p).size() != 1)
    return "the feeder pads a window of one block (at most 15 x 15)";
  if (p.padTop > L::V_DW_CFG::pt_max || p.padLeft > L::V_DW_CFG::pl_max ||
      p.padBottom > L::V_DW_CFG::pt_max || p.padRight > L::V_DW_CFG::pl_max)
    return "padding beyond " + std::to_string(L::V_DW_CFG::pt_max) +
           " exceeds the feeder's (v_dw_cfg, mm_dw_cfg pt and pl)";
  if (p.H > L::V_DW_CFG::ih_max || p.W > L::V_DW_CFG::iw_max)
    return "an image of " + std::to_string(p.H) + "x" + std::to_string(p.W) +
           " exceeds the feeder's extents (v_dw_cfg ih, iw)";
  return std::nullopt;
}

std::optional<std::string> npuc::emit::lowering::checkArray(const DepthwiseProblem &p) {
  if (p.pooling())
    return "the array's depthwise mode multiplies and accumulates: pooling runs on VECTOR";
  if (std::optional<std::string> why = checkFeeder(p))
    return why;
  if (p.OW > isa::limit::MM_DW::cols_max)
    return std::to_string(p.OW) + " output columns exceed the mm_dw extent";
  return std::nullopt;
}

TileFootprint npuc::emit::lowering::footprint(const DepthwiseProblem &p, const DepthwiseTiling &t,
                                              const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  auto slot = [&](int64_t bytes) { return roundUp(bytes, tp.MatrixAlign); };
  int64_t c = std::min(t.channels, p.C), rows = std::min(t.rows, p.OH);
  DepthwisePitches pitch = depthwisePitches(p, rows, tp);
  TileFootprint f;
  f.lm = slot(c * (feederPads(p) ? pitch.plain : pitch.image));
  if (p.pooling()) {
    // The results and up to two f32 scratch tiles of them in LM, the result
    // at its width, a row of divisors; the image again in f32 if converted.
    int64_t f32Row = roundUp(rows * p.OW * kAccBytes, tp.VectorAlign);
    f.lm += slot(c * pitch.acc) + 2 * slot(c * f32Row) + slot(c * pitch.out) + slot(f32Row);
    if (p.convertImage)
      f.lm += slot(c * p.imageRows(rows) * roundUp(p.paddedWidth() * kAccBytes, tp.VectorAlign));
    f.lm *= t.buffers;
    return f;
  }
  if (!t.resident) {
    for (const WindowBlock &w : depthwiseWindowBlocks(p))
      f.lm += slot(c * w.kh * w.kw * p.inBytes);
    if (p.bias)
      f.lm += slot(c * biasPitch(p, tp));
    if (p.requantTable)
      f.lm += slot(c * kParamBytes);
  }
  if (p.requant || p.outBytes < kAccBytes)  // requantized, or fp32 stored as fp16
    f.lm += slot(c * pitch.out);
  f.acc = slot(c * pitch.acc);
  f.lm *= t.buffers;
  f.acc *= t.buffers;
  if (t.resident) {
    // Once, for every chunk.
    ResidentPitches r = residentPitches(p, c, tp);
    int64_t chunks = ceilDiv(p.C, c);
    for (int64_t pitch : {r.taps, r.bias, r.params})
      if (pitch)
        f.lm += slot(chunks * pitch);
  }
  return f;
}

std::optional<std::string> npuc::emit::lowering::checkTiling(const DepthwiseProblem &p,
                                                             const DepthwiseTiling &t,
                                                             const target::TargetInfo &target) {
  auto str = [](int64_t v) { return std::to_string(v); };
  namespace L = isa::limit;
  for (int64_t v : {p.sh, p.sw, p.dh, p.dw})
    if (v < L::V_DW_CFG::sh_min || v > L::V_DW_CFG::sh_max)
      return "stride or dilation " + str(v) + " is outside the v_dw_cfg fields [" +
             str(L::V_DW_CFG::sh_min) + ", " + str(L::V_DW_CFG::sh_max) + "]";
  for (int64_t v : {p.padTop, p.padLeft, p.padBottom, p.padRight})
    if (v > L::DMA_IN_PAD::lo0_max)
      return "padding " + str(v) + " exceeds the dma_in_pad fields (" + str(L::DMA_IN_PAD::lo0_max) + ")";
  if (t.channels < 1 || t.channels > std::min(p.C, kChannelsMax) || t.rows < 1 ||
      t.rows > std::min<int64_t>(p.OH, L::V_DW_CFG::orows_max))
    return "tile " + str(t.channels) + " channels x " + str(t.rows) + " rows is outside [1, " +
           str(std::min(p.C, kChannelsMax)) + "] x [1, " +
           str(std::min<int64_t>(p.OH, L::V_DW_CFG::orows_max)) + "]";
  if (t.buffers < 1 || t.buffers > kMaxBuffers)
    return "buffers " + str(t.buffers) + " is outside [1, " + str(kMaxBuffers) + "]";
  if (t.resident && !residentAllowed(p))
    return "resident parameters need a multiply-accumulate whose window is one v_dw block";
  if (t.matrix)
    if (std::optional<std::string> why = checkArray(p))
      return why;
  const target::TargetParams &tp = target.params;
  DepthwisePitches pitch = depthwisePitches(p, t.rows, tp);
  if (p.OW > L::V_SHAPE::cols_max || (p.requant && t.rows * p.OW > L::MM_OUT::n_max) ||
      (p.pooling() && t.rows * p.OW > L::V_SHAPE::cols_max))
    return str(t.rows) + " rows of " + str(p.OW) + " outputs exceed the v_shape and mm_out "
           "extents (" + str(L::MM_OUT::n_max) + ")";
  if (p.paddedWidth() * p.inBytes > L::V_DW_CFG::lda_max || pitch.image > L::V_SHAPE::a_pitch_max ||
      pitch.acc > L::MM_CFG::ldc_max || pitch.out > L::MM_RQ_CFG::ldd_max ||
      p.H * p.W * p.inBytes > L::DMA_IN_SSTRIDE::s0_max || p.W > L::DMA_IN_SHAPE::n0_max)
    return "a row or channel pitch exceeds the v_dw_cfg, v_shape, mm_cfg or DMA fields";
  if (p.convertImage &&
      (roundUp(p.paddedWidth() * kAccBytes, tp.VectorAlign) > L::V_DW_CFG::lda_max ||
       t.channels * p.imageRows(t.rows) > L::V_SHAPE::rows_max))
    return "the image converted to f32 exceeds the v_dw_cfg and v_shape fields";
  if (std::optional<std::string> why = checkRowGroups(p, t.rows))
    return why;
  return checkFits(footprint(p, t, target), target, "sums");
}

void npuc::emit::lowering::estimate(const DepthwiseProblem &p, DepthwiseTiling &t,
                                    const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  uint64_t latency = uint64_t(tp.DmaStartLatency), cycles = 0, bytes = 0;
  if (t.resident) {
    // The parameters of every channel, once, before the first tile.
    uint64_t bus = 0;
    parameterLoads(p, p.C, [&](const timing::GMAccess &a) {
      bus += timing::busCycles(tp, timing::busBytes(tp, a));
      bytes += timing::dataBytes(a);
    });
    cycles += latency + bus;
  }
  int64_t full = p.C / t.channels, rest = p.C % t.channels;
  std::vector<RowGroup> groups = depthwiseRowGroups(p, t.rows);
  for (auto [c, chunks] : {std::pair{t.channels, full}, std::pair{rest, int64_t(rest > 0)}})
    for (const RowGroup &g : groups) {
      uint64_t count = uint64_t(p.N * chunks * g.count);
      if (count == 0 || c == 0)
        continue;
      Iteration it = iteration(p, c, g, t.resident, t.matrix, tp);
      bytes += count * it.gmBytes;
      if (t.buffers == 1) {
        // In order: loads, the product, the drain, the store.
        cycles += count * (latency + it.loads + it.vector + it.array + it.drain + latency + it.stores);
        continue;
      }
      // Rotating slots: neighbouring iterations' transfers share the bus
      // while VECTOR and MATRIX work on this one, as fast as each DMA
      // engine's descriptor slots allow; the first loads and the last
      // product, drain and store are not hidden.
      // A slot is loaded again only once the product of the tile it held is
      // done: a load's start, its transfer and a product take turns on each
      // slot, so `buffers` tiles take at least that long.
      // On the array, the output stage drains one tile while the array
      // computes the next.
      uint64_t compute = it.vector + it.array;
      uint64_t turn = (latency + it.loads + compute + uint64_t(t.buffers) - 1) / uint64_t(t.buffers);
      uint64_t steady = std::max({it.vector, it.array, it.drain, turn,
                                  timing::dmaSteadyCycles(tp, it.loadBus, it.storeBus)});
      cycles += count * steady + latency + it.loads + compute + it.drain + latency + it.stores;
    }
  t.cycles = cycles;
  t.gmBytes = bytes;
}

std::optional<DepthwiseTiling> npuc::emit::lowering::chooseDepthwiseTiling(
    const DepthwiseProblem &p, const target::TargetInfo &target) {
  std::optional<DepthwiseTiling> best;
  auto key = [&](const DepthwiseTiling &t) {
    uint64_t iterations = uint64_t(ceilDiv(p.C, t.channels) * ceilDiv(p.OH, t.rows));
    return std::make_tuple(t.cycles, t.gmBytes, iterations, t.buffers, t.resident, t.matrix);
  };
  int64_t maxRows = std::min<int64_t>(p.OH, isa::limit::V_DW_CFG::orows_max);
  for (bool matrix : {false, true}) {
    if (matrix && checkArray(p))
      continue;
    for (bool resident : {false, true}) {
      if (resident && !residentAllowed(p))
        continue;
      for (int64_t c : channelCandidates(p.C))
        for (int64_t rows = 1; rows <= maxRows; ++rows)
          for (int64_t buffers = 1; buffers <= kMaxBuffers; ++buffers)
            consider(p, DepthwiseTiling{c, rows, buffers, 0, 0, resident, matrix}, target, best,
                     key);
    }
  }
  return best;
}
