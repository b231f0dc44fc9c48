//===- ConvTiling.cpp - Tiles of dense window convolutions, by cost -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/ConvTiling.h"
#include "npuc/Base/Timing.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::emit::lowering::tiling;

namespace {

constexpr int64_t kExtentMax = isa::limit::MATMUL::m_max;

/// One iteration of a tile loop: `nc` output channels of one row group.
struct Iteration {
  uint64_t loads = 0, stores = 0, vector = 0, matrix = 0, drain = 0, gmBytes = 0;
  std::vector<uint64_t> loadBus, storeBus;  // per descriptor, in issue order
};

Iteration iteration(const ConvProblem &p, const ConvTiling &t, int64_t nc, const RowGroup &g,
                    const target::TargetParams &tp) {
  const DepthwiseProblem &w = p.window;
  Iteration it;
  auto move = [&](const timing::GMAccess &a, bool load) {
    uint64_t bus = timing::busBytes(tp, a);
    (load ? it.loads : it.stores) += timing::busCycles(tp, bus);
    (load ? it.loadBus : it.storeBus).push_back(bus);
    it.gmBytes += timing::dataBytes(a);
  };
  int64_t ex = w.inBytes, m = g.rows * w.OW;
  int64_t real = w.imageRows(g.rows) - g.padTop - g.padBottom;
  for (auto [c0, cc] : convChunks(p, t.chunk)) {
    ConvLayout l = convLayout(p, cc, nc, tp, t.stacked);
    auto image = [&](int64_t rows, int64_t rowStride) {
      timing::GMAccess a;  // per channel, `rows` whole input rows
      a.extent = {w.W, rows, cc, 1};
      a.stride = {ex, rowStride, w.H * w.W * ex, 0};
      a.elemBytes = unsigned(ex);
      move(a, true);
    };
    if (!t.stacked)
      image(real, w.W * ex);
    else
      for (int64_t kh = 0; kh < w.KH; ++kh) {  // the rows kernel row kh reaches
        StackedRows sr = stackedRows(w, g, kh);
        image(g.rows - sr.top - sr.bottom, w.sh * w.W * ex);
      }
    if (!t.resident)
      move(gmRuns(l.depth, nc * p.weightBytes, p.groups * p.outChannels * p.weightBytes,
                  p.weightBytes),
           true);
    int64_t kh = t.stacked ? w.KH : 1;
    it.vector += uint64_t(g.rows * (w.KH / kh)) *
                 timing::vectorCycles(tp, uint64_t(w.OW * w.KW * kh * cc), unsigned(ex));
    for (auto [from, columns] : gapClears(p, cc, t.stacked, m, tp))  // the gaps zeroed first
      it.vector += timing::vectorCycles(tp, uint64_t(m * columns), unsigned(ex));
    it.matrix += timing::matmulCycles(tp, w.mode, m, nc, l.depth);
  }
  if (w.bias)
    move(gmRuns(1, nc * kAccBytes, 0, kAccBytes), true);
  if (w.requantTable)
    move(gmRuns(1, nc * kParamBytes, 0, 1), true);
  if (w.requant)
    it.drain = timing::drainCycles(tp, m, nc);
  else if (w.bias)
    it.vector += timing::vectorCycles(tp, uint64_t(m * nc), kAccBytes);
  move(gmRuns(nc, m * w.outBytes, w.OH * w.OW * w.outBytes, w.outBytes), false);
  return it;
}

/// Candidate row tiles: the first few counts and the even splits into up to
/// 16 tiles.
std::vector<int64_t> rowCandidates(int64_t oh, int64_t limit) {
  std::set<int64_t> s;
  for (int64_t r = 1; r <= std::min<int64_t>(8, oh); ++r)
    s.insert(r);
  for (int64_t q = 1; q <= 16; ++q)
    s.insert(ceilDiv(oh, q));
  std::vector<int64_t> v;
  for (int64_t r : s)
    if (r <= limit)
      v.push_back(r);
  return v;
}

} // namespace

ConvLayout npuc::emit::lowering::convLayout(const ConvProblem &p, int64_t chunk,
                                            int64_t outChannels, const target::TargetParams &tp,
                                            bool stacked) {
  const DepthwiseProblem &w = p.window;
  ConvLayout l;
  int64_t ex = w.inBytes, kh = stacked ? w.KH : 1;
  l.block = roundUp(w.KW * kh * chunk * ex, tp.VectorAlign) / ex;
  l.depth = stacked ? l.block : w.KH * l.block;
  l.imagePitch = roundUp(w.paddedWidth() * kh * chunk * ex, tp.VectorAlign);
  l.lda = roundUp(l.depth * ex, tp.VectorAlign);
  l.ldb = roundUp(outChannels * p.weightBytes, tp.MatrixAlign);
  l.ldc = roundUp(outChannels * kAccBytes, tp.MatrixAlign);
  return l;
}

std::vector<std::pair<int64_t, int64_t>> npuc::emit::lowering::convChunks(const ConvProblem &p,
                                                                          int64_t chunk) {
  std::vector<std::pair<int64_t, int64_t>> chunks;
  for (int64_t c0 = 0; chunk > 0 && c0 < p.window.C; c0 += chunk)
    chunks.push_back({c0, std::min(chunk, p.window.C - c0)});
  return chunks;
}

std::vector<std::pair<int64_t, int64_t>> npuc::emit::lowering::gapClears(
    const ConvProblem &p, int64_t chunk, bool stacked, int64_t m, const target::TargetParams &tp) {
  const DepthwiseProblem &w = p.window;
  ConvLayout l = convLayout(p, chunk, 1, tp, stacked);
  int64_t ex = w.inBytes, run = w.KW * (stacked ? w.KH : 1) * chunk;
  int64_t perRow = tp.VectorAlign / ex;  // columns per 32 bytes
  std::vector<std::pair<int64_t, int64_t>> clears;
  if (run == l.block)
    return clears;
  uint64_t cost = 0;
  for (int64_t b = 0; b < l.depth / l.block; ++b) {
    int64_t from = (b * l.block + run) / perRow * perRow;
    clears.push_back({from, (b + 1) * l.block - from});
    cost += timing::vectorCycles(tp, uint64_t(m * clears.back().second), unsigned(ex));
  }
  if (timing::vectorCycles(tp, uint64_t(m * l.depth), unsigned(ex)) <= cost)
    return {{0, l.depth}};
  return clears;
}

int64_t npuc::emit::lowering::weightRows(const ConvProblem &p, int64_t chunk,
                                         const target::TargetParams &tp, bool stacked) {
  int64_t rows = 0;
  for (auto [c0, cc] : convChunks(p, chunk))
    rows += convLayout(p, cc, 1, tp, stacked).depth;
  return rows;
}

StackedRows npuc::emit::lowering::stackedRows(const DepthwiseProblem &w, const RowGroup &g,
                                              int64_t kh) {
  // Output row r reads the tile's padded image row r * sh + kh * dh; the
  // first g.padTop and the last g.padBottom of its imageRows(g.rows) rows
  // are padding.
  StackedRows s;
  int64_t last = w.imageRows(g.rows) - 1 - g.padBottom;
  for (int64_t r = 0; r < g.rows; ++r) {
    int64_t row = r * w.sh + kh * w.dh;
    s.top += row < g.padTop;
    s.bottom += row > last;
  }
  return s;
}

int64_t npuc::emit::lowering::convExtraAccSlots(const ConvProblem &p, const ConvTiling &t) {
  return p.window.bias && !p.window.requant && t.buffers > 1 ? 1 : 0;
}

TileFootprint npuc::emit::lowering::footprint(const ConvProblem &p, const ConvTiling &t,
                                              const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  const DepthwiseProblem &w = p.window;
  auto slot = [&](int64_t bytes) { return roundUp(bytes, tp.MatrixAlign); };
  int64_t rows = std::min(t.rows, w.OH), nc = std::min(t.outChannels, p.outChannels);
  int64_t m = rows * w.OW;
  ConvLayout l = convLayout(p, std::min(t.chunk, w.C), nc, tp, t.stacked);
  TileFootprint f;
  // One chunk's image, im2col tile and weights (a later chunk reuses them).
  int64_t imageRows = t.stacked ? rows : w.imageRows(rows);
  f.lm = slot(imageRows * l.imagePitch) + slot(m * l.lda) + (t.resident ? 0 : slot(l.depth * l.ldb));
  if (w.requant || w.outBytes < kAccBytes)  // requantized, or fp32 stored as fp16
    f.lm += slot(m * roundUp(nc * w.outBytes, tp.VectorAlign));
  if (w.bias)
    f.lm += slot(roundUp(nc * kAccBytes, tp.VectorAlign));
  if (w.requantTable)
    f.lm += slot(nc * kParamBytes);
  f.acc = slot(m * l.ldc);
  f.lm *= t.buffers;
  f.acc *= t.buffers + convExtraAccSlots(p, t);
  if (l.block != w.KW * (t.stacked ? w.KH : 1) * std::min(t.chunk, w.C))
    f.lm += slot(l.depth * w.inBytes);  // the row of zeros the gaps are cleared from
  if (t.resident)
    f.lm += slot(weightRows(p, std::min(t.chunk, w.C), tp, t.stacked) * p.groups *
                 p.outChannels * p.weightBytes);
  return f;
}

std::optional<std::string> npuc::emit::lowering::checkTiling(const ConvProblem &p,
                                                             const ConvTiling &t,
                                                             const target::TargetInfo &target) {
  auto str = [](int64_t v) { return std::to_string(v); };
  namespace L = isa::limit;
  const DepthwiseProblem &w = p.window;
  const target::TargetParams &tp = target.params;
  if (w.dw != 1)
    return "a dilated row (dilation " + str(w.dw) + ") is not one run of the image";
  for (int64_t v : {w.padTop, w.padLeft, w.padBottom, w.padRight})
    if (v > L::DMA_IN_PAD::lo0_max)
      return "padding " + str(v) + " exceeds the dma_in_pad fields (" + str(L::DMA_IN_PAD::lo0_max) + ")";
  if (t.rows < 1 || t.rows > w.OH || t.outChannels < 1 || t.outChannels > p.outChannels ||
      t.chunk < 1 || t.chunk > w.C)
    return "tile " + str(t.rows) + " rows x " + str(t.outChannels) + " channels (chunks of " +
           str(t.chunk) + ") is outside [1, " + str(w.OH) + "] x [1, " + str(p.outChannels) +
           "] ([1, " + str(w.C) + "])";
  if (t.buffers < 1 || t.buffers > (t.chunk < w.C ? 1 : kMaxBuffers))
    return "buffers " + str(t.buffers) + " is outside [1, " +
           str(t.chunk < w.C ? 1 : kMaxBuffers) + "]";
  int64_t m = t.rows * w.OW;
  ConvLayout l = convLayout(p, t.chunk, t.outChannels, tp, t.stacked);
  int64_t kh = t.stacked ? w.KH : 1;
  if (m > kExtentMax || t.outChannels > kExtentMax || l.depth > kExtentMax ||
      m > L::MM_OUT::m_max || t.outChannels > L::MM_OUT::n_max)
    return "the product " + str(m) + "x" + str(l.depth) + " by " + str(l.depth) + "x" +
           str(t.outChannels) + " exceeds the matmul and mm_out extents (" + str(kExtentMax) + ")";
  int64_t ex = w.inBytes;
  if (l.lda > L::MM_CFG::lda_max || l.ldb > L::MM_CFG::ldb_max || l.ldc > L::MM_CFG::ldc_max ||
      w.OW > L::V_SHAPE::rows_max || w.KW * kh * t.chunk > L::V_SHAPE::cols_max ||
      w.sw * kh * t.chunk * ex > L::V_SHAPE::a_pitch_max || l.lda > L::V_SHAPE::d_pitch_max)
    return "a row pitch exceeds the mm_cfg or v_shape fields";
  if (w.W > L::DMA_IN_SHAPE::n0_max || w.H > L::DMA_IN_SHAPE::n1_max ||
      t.chunk > L::DMA_IN_SHAPE::n2_max || w.H * w.W * ex > L::DMA_IN_SSTRIDE::s2_max ||
      l.imagePitch > L::DMA_IN_DSTRIDE::s1_max || kh * t.chunk * ex > L::DMA_IN_DSTRIDE::s2_max ||
      w.sh * w.W * ex > L::DMA_IN_SSTRIDE::s1_max)
    return "the image exceeds the DMA fields";
  if (t.resident) {
    // A tile's block of the resident weights starts on the MATRIX
    // alignment: every row, every group's and every channel tile's columns.
    int64_t ew = p.weightBytes, rowBytes = p.groups * p.outChannels * ew;
    if (rowBytes % tp.MatrixAlign || (t.outChannels * ew) % tp.MatrixAlign ||
        (p.outChannels * ew) % tp.MatrixAlign || rowBytes > L::MM_CFG::ldb_max)
      return "resident weights need rows, group and channel tiles of whole " +
             str(tp.MatrixAlign) + "-byte blocks and rows within the mm_cfg field";
  }
  if (std::optional<std::string> why = checkRowGroups(w, t.rows))
    return why;
  if (t.stacked)
    for (const RowGroup &g : depthwiseRowGroups(w, t.rows))
      for (int64_t k = 0; k < w.KH; ++k)
        if (StackedRows s = stackedRows(w, g, k); s.top + s.bottom >= g.rows)
          return "kernel row " + str(k) + " of row tile " + str(g.first) +
                 " reads only padding, which a stacked image has no DMA for";
  return checkFits(footprint(p, t, target), target, "sums");
}

void npuc::emit::lowering::estimate(const ConvProblem &p, ConvTiling &t,
                                    const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  const DepthwiseProblem &w = p.window;
  uint64_t latency = uint64_t(tp.DmaStartLatency), cycles = 0, bytes = 0;
  int64_t full = p.outChannels / t.outChannels, rest = p.outChannels % t.outChannels;
  std::vector<RowGroup> groups = depthwiseRowGroups(w, t.rows);
  for (auto [nc, tiles] : {std::pair{t.outChannels, full}, std::pair{rest, int64_t(rest > 0)}})
    for (const RowGroup &g : groups) {
      uint64_t count = uint64_t(w.N * p.groups * tiles * g.count);
      if (count == 0 || nc == 0)
        continue;
      Iteration it = iteration(p, t, nc, g, tp);
      uint64_t once = latency + it.loads + it.vector + it.matrix + it.drain + latency + it.stores;
      if (t.buffers == 1) {
        bytes += count * it.gmBytes;
        cycles += count * once;  // loads, gathers, products, drain, store in turn
        continue;
      }
      // Rotating slots: the next tile's loads and gathers and the last
      // tile's store run under this tile's products. The row tiles run
      // innermost, so a channel tile's weights go into the same slots again:
      // emit-elide-reloads keeps only the first load of each slot.
      auto steadyOf = [&](const Iteration &x) {
        return std::max({x.vector, std::max(x.matrix, x.drain),
                         timing::dmaSteadyCycles(tp, x.loadBus, x.storeBus)});
      };
      ConvTiling without = t;
      without.resident = true;  // the same iteration, its weights not loaded
      Iteration lean = iteration(p, without, nc, g, tp);
      uint64_t runs = uint64_t(w.N * p.groups * tiles);
      uint64_t loaded = t.resident ? 0 : runs * uint64_t(std::min<int64_t>(g.count, t.buffers));
      bytes += count * lean.gmBytes + loaded * (it.gmBytes - lean.gmBytes);
      cycles += (count - loaded) * steadyOf(lean) + loaded * steadyOf(it) + once;
    }
  if (t.resident) {
    // The weights, once, before the first tile's products.
    timing::GMAccess a = gmRuns(1, weightRows(p, t.chunk, tp, t.stacked) * p.groups *
                                       p.outChannels * p.weightBytes,
                                0, p.weightBytes);
    bytes += timing::dataBytes(a);
    cycles += latency + timing::busCycles(tp, timing::busBytes(tp, a));
  }
  t.cycles = cycles;
  t.gmBytes = bytes;
}

std::optional<ConvTiling> npuc::emit::lowering::chooseConvTiling(const ConvProblem &p,
                                                                 const target::TargetInfo &target) {
  const DepthwiseProblem &w = p.window;
  int64_t a = timing::arraySide(target.params, w.mode);
  std::optional<ConvTiling> best;
  auto key = [&](const ConvTiling &t) {
    uint64_t iterations = uint64_t(ceilDiv(w.OH, t.rows) * ceilDiv(p.outChannels, t.outChannels) *
                                   ceilDiv(w.C, t.chunk));
    return std::make_tuple(t.cycles, t.gmBytes, iterations, t.buffers, t.stacked);
  };
  // Chunks: even splits of the group's channels whose window fits the K
  // field, the fewest first (at most 8 of them, then halvings).
  std::set<int64_t> chunks;
  auto fits = [&](int64_t c) { return convLayout(p, c, 1, target.params).depth <= kExtentMax; };
  for (int64_t q = 1; q <= w.C && chunks.size() < 8; ++q)
    if (int64_t c = ceilDiv(w.C, q); fits(c))
      chunks.insert(c);
  for (int64_t c = w.C; c >= 1; c /= 2)
    if (fits(c))
      chunks.insert(c);
  std::vector<int64_t> rows = rowCandidates(w.OH, std::max<int64_t>(1, kExtentMax / std::max<int64_t>(1, w.OW)));
  // Every chunk size: fewer chunks mean fewer loads and products, but on a
  // small LM they leave room only for a few output rows per tile, and every
  // row tile reads the weights again (unless they are resident).
  // Every candidate that fits, estimated once; then the two rankings.
  std::vector<ConvTiling> fitting;
  for (auto it = chunks.rbegin(); it != chunks.rend(); ++it) {
    int64_t chunk = *it;
    // Stacked only where it saves passes of the array: the window's runs,
    // each padded, would need more blocks of K than the window padded once.
    auto passes = [&](bool stacked) {
      return ceilDiv(convLayout(p, chunk, 1, target.params, stacked).depth, a);
    };
    for (bool stacked : {false, true}) {
      if (stacked && (w.KH == 1 || passes(true) >= passes(false)))
        continue;
      for (int64_t nc : extentCandidates(p.outChannels, a, kExtentMax))
        for (int64_t r : rows)
          for (int64_t buffers = 1; buffers <= kMaxBuffers; ++buffers)
            for (bool resident : {false, true}) {
              ConvTiling t{r, nc, chunk, buffers, 0, 0, stacked, resident};
              // The memories first: most candidates fail there, and the
              // reason checkTiling words is only wanted for a diagnostic.
              TileFootprint f = footprint(p, t, target);
              if (f.lm > target.params.LMBytes || f.acc > target.params.ACCBytes ||
                  checkTiling(p, t, target))
                continue;
              estimate(p, t, target);
              fitting.push_back(t);
            }
    }
  }
  for (const ConvTiling &t : fitting)
    if (!best || key(t) < key(*best))
      best = t;
  if (!best)
    return best;
  // GM traffic, within a slack of the fewest cycles: a layer bound by its
  // products moves its weights once rather than once per row tile.
  uint64_t limit = best->cycles + best->cycles * kGmSlackPercent / 100;
  auto leanKey = [&](const ConvTiling &t) {
    return std::make_tuple(t.cycles > limit, t.gmBytes, key(t));
  };
  std::optional<ConvTiling> lean;
  for (const ConvTiling &t : fitting)
    if (!lean || leanKey(t) < leanKey(*lean))
      lean = t;
  return lean;
}
