//===- ElementwiseTiling.cpp - Tiles of elementwise loop nests, by cost ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/ElementwiseTiling.h"

#include "npuc/Base/Timing.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::emit::lowering::tiling;

std::optional<std::string> npuc::emit::lowering::canonicalize(const std::vector<int64_t> &shapeIn,
                                                              std::vector<EwAccess> ins,
                                                              EwAccess out, EwWork work,
                                                              ElementwiseProblem &p,
                                                              RowRule rows) {
  std::vector<int64_t> shape = shapeIn;
  std::vector<EwAccess *> all;
  for (EwAccess &a : ins)
    all.push_back(&a);
  all.push_back(&out);
  if (shape.empty()) {
    shape.push_back(1);
    for (EwAccess *a : all)
      a->strides.push_back(0);
  }
  // Size-1 dimensions move nothing, whatever their strides.
  for (int64_t i = int64_t(shape.size()) - 1; i >= 0 && shape.size() > 1; --i) {
    if (shape[size_t(i)] != 1)
      continue;
    shape.erase(shape.begin() + i);
    for (EwAccess *a : all)
      a->strides.erase(a->strides.begin() + i);
  }
  // Dimensions every operand walks contiguously merge, but for the rows
  // `rows` keeps.
  int64_t widest = 0;
  for (EwAccess *a : all)
    widest = std::max(widest, a->elemBytes);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i) {
    size_t u = size_t(i);
    int64_t run = shape[u + 1] * widest;
    if (rows.align > 0 && u + 2 == shape.size() && run >= rows.minBytes && run % rows.align != 0)
      continue;
    bool mergeable = std::all_of(all.begin(), all.end(), [&](EwAccess *a) {
      return a->strides[u] == a->strides[u + 1] * shape[u + 1];
    });
    if (!mergeable)
      continue;
    shape[u] *= shape[u + 1];
    shape.erase(shape.begin() + i + 1);
    for (EwAccess *a : all) {
      a->strides[u] = a->strides[u + 1];
      a->strides.erase(a->strides.begin() + i + 1);
    }
  }
  if (shape.size() > 4)
    return "has a " + std::to_string(shape.size()) +
           "-D iteration space after merging contiguous dimensions; the DMA moves at most 4";
  while (shape.size() < 4) {
    shape.insert(shape.begin(), 1);
    for (EwAccess *a : all)
      a->strides.insert(a->strides.begin(), 0);
  }
  for (EwAccess *a : all)
    a->perRow = a->perRow && a->strides[3] == 0;
  std::copy(shape.begin(), shape.end(), p.shape.begin());
  p.ins = std::move(ins);
  p.out = std::move(out);
  p.work = work;
  return std::nullopt;
}

ElementwiseProblem npuc::emit::lowering::rowProblem(int64_t rows, int64_t cols, const EwAccess &in,
                                                    const EwAccess &out, EwWork work) {
  ElementwiseProblem p;
  p.shape = {1, 1, rows, cols};
  p.ins = {in};
  p.out = out;
  p.work = work;
  p.fixed = {0, 0, 0, cols};
  return p;
}

ElementwiseProblem npuc::emit::lowering::columnProblem(int64_t outer, int64_t r, int64_t inner,
                                                       const EwAccess &in, const EwAccess &out,
                                                       EwWork work) {
  ElementwiseProblem p;
  p.shape = {1, outer, r, inner};
  p.ins = {in};
  p.out = out;
  p.out.oneRow = true;
  p.work = work;
  p.fixed = {1, 1, r, 0};
  return p;
}

namespace {
/// LM bytes of one row of a tile of `cols` columns: every tile's elements,
/// and per tile (inputs, result, scratch) up to a granule of row padding.
int64_t rowBytes(const ElementwiseProblem &p, int64_t cols, const target::TargetParams &tp) {
  int64_t tiles = int64_t(p.ins.size()) + 4;
  return cols * std::max<int64_t>(p.work.lmBytesPerElement, 1) + tp.VectorAlign * tiles;
}

timing::GMAccess access(const EwAccess &a, const std::array<int64_t, 4> &box) {
  timing::GMAccess g;
  for (size_t d = 0; d < 4; ++d) {
    g.extent[d] = (d == 3 && a.perRow) || (d == 2 && a.oneRow) ? 1 : box[d];
    g.stride[d] = a.strides[d];
  }
  g.elemBytes = unsigned(a.elemBytes);
  return g;
}
} // namespace

TileFootprint npuc::emit::lowering::footprint(const ElementwiseProblem &p,
                                              const ElementwiseTiling &t,
                                              const target::TargetInfo &target) {
  TileFootprint f;
  int64_t rows = t.tile[0] * t.tile[1] * (t.tile[2] + p.padRows);
  f.lm = t.buffers * rows * rowBytes(p, t.tile[3], target.params);
  // An operand that is one row for the whole tile (LayerNorm's scale and
  // bias) is a [1, cols] tile per buffer, plus its f32 form when narrower.
  for (const EwAccess &a : p.ins)
    if (a.oneRow)
      f.lm += t.buffers * (roundUp(t.tile[3] * a.elemBytes, target.params.VectorAlign) +
                           (a.elemBytes < 4 ? roundUp(t.tile[3] * 4, target.params.VectorAlign) : 0));
  // The partials, and the reduced row and its stored form.
  if (p.partials)
    f.lm += (ceilDiv(p.shape[3], t.tile[3]) + 2) *
            roundUp(t.rows() * 4, target.params.VectorAlign);
  return f;
}

std::optional<std::string> npuc::emit::lowering::checkTiling(const ElementwiseProblem &p,
                                                             const ElementwiseTiling &t,
                                                             const target::TargetInfo &target) {
  if (p.fixed[3] && t.tile[3] != p.fixed[3])
    return "its tile cuts rows of " + std::to_string(p.shape[3]) + " to " +
           std::to_string(t.tile[3]) + "; the body needs them whole";
  for (size_t d = 0; d < 4; ++d)
    if (p.maxTile[d] && t.tile[d] > p.maxTile[d])
      return "its tile's dimension " + std::to_string(d) + " (" + std::to_string(t.tile[d]) +
             ") exceeds the body's " + std::to_string(p.maxTile[d]);
  for (size_t d = 0; d < 3; ++d)
    if (p.fixed[d] && t.tile[d] != p.fixed[d])
      return "its tile's dimension " + std::to_string(d) + " is " + std::to_string(t.tile[d]) +
             "; the body needs " + std::to_string(p.fixed[d]);
  for (size_t d = 0; d < 4; ++d)
    if (t.tile[d] < 1 || t.tile[d] > p.shape[d])
      return "its tile's dimension " + std::to_string(d) + " (" + std::to_string(t.tile[d]) +
             ") is outside [1, " + std::to_string(p.shape[d]) + "]";
  if (p.partials && ceilDiv(p.shape[3], t.tile[3]) > kVectorExtentMax)
    return "its " + std::to_string(ceilDiv(p.shape[3], t.tile[3])) +
           " partials per row exceed VECTOR's " + std::to_string(kVectorExtentMax) + " rows";
  if (t.buffers < 1 || t.buffers > p.maxBuffers)
    return "it takes " + std::to_string(t.buffers) + " buffers; at most " +
           std::to_string(p.maxBuffers);
  if (p.rowsFirst && t.tile[1] > 1 && t.tile[2] < p.shape[2])
    return "its tile takes " + std::to_string(t.tile[1]) + " planes of " +
           std::to_string(t.tile[2]) + " of their " + std::to_string(p.shape[2]) + " rows";
  if (t.tile[3] > kVectorExtentMax || t.rows() > kVectorExtentMax)
    return "its tiles are " + std::to_string(t.rows()) + " x " + std::to_string(t.tile[3]) +
           "; VECTOR takes at most " + std::to_string(kVectorExtentMax) + " x " +
           std::to_string(kVectorExtentMax);
  return checkFits(footprint(p, t, target), target, "accumulators");
}

void npuc::emit::lowering::estimate(const ElementwiseProblem &p, ElementwiseTiling &t,
                                    const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  uint64_t latency = uint64_t(tp.DmaStartLatency);
  // Per dimension: the full tiles, then the remainder.
  std::vector<TilePart> parts[4];
  for (size_t d = 0; d < 4; ++d)
    parts[d] = tileParts(p.shape[d], t.tile[d]);
  uint64_t cycles = 0, bytes = 0;
  for (const TilePart &a : parts[0])
    for (const TilePart &b : parts[1])
      for (const TilePart &c : parts[2])
        for (const TilePart &d : parts[3]) {
          std::array<int64_t, 4> box{a.size, b.size, c.size, d.size};
          uint64_t count = uint64_t(a.count * b.count * c.count * d.count);
          std::vector<uint64_t> loadBus, storeBus;
          uint64_t loads = 0, stores = 0, data = 0;
          for (const EwAccess &in : p.ins) {
            timing::GMAccess g = access(in, box);
            loadBus.push_back(timing::busBytes(tp, g));
            loads += timing::busCycles(tp, loadBus.back());
            data += timing::dataBytes(g);
          }
          timing::GMAccess g = access(p.out, box);
          storeBus.push_back(timing::busBytes(tp, g));
          stores = timing::busCycles(tp, storeBus.back());
          data += timing::dataBytes(g);
          uint64_t elements = uint64_t(box[0] * box[1] * box[2] * box[3]);
          uint64_t vector =
              uint64_t(p.work.vectorPasses) * timing::vectorCycles(tp, elements, 4);
          bytes += count * data;
          uint64_t once = latency + loads + vector + latency + stores;
          if (t.buffers == 1 || count == 1) {
            // In order: loads, the body, the store, each waiting for the last.
            cycles += count * once;
            continue;
          }
          // Rotating slots: the next tile's loads and the last tile's store
          // share the bus while VECTOR works on this one; the first loads
          // and the last store are not hidden. A slot (its result too: the
          // body writes its inputs' tiles) is loaded again only once its
          // store is done, so `buffers` tiles take at least one tile's whole
          // turn: load start, loads, the body, store start, the store.
          uint64_t turn = ceilDiv(once, uint64_t(t.buffers));
          uint64_t steady =
              std::max({vector, turn, timing::dmaSteadyCycles(tp, loadBus, storeBus)});
          cycles += (count - 1) * steady + once;
        }
  t.cycles = cycles;
  t.gmBytes = bytes;
}

std::optional<ElementwiseTiling> npuc::emit::lowering::chooseElementwiseTiling(
    const ElementwiseProblem &p, const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  if (p.empty())
    return std::nullopt;
  int64_t widest = p.out.elemBytes;
  for (const EwAccess &a : p.ins)
    widest = std::max(widest, a.elemBytes);
  int64_t granule = std::max<int64_t>(1, tp.VectorAlign / widest);
  auto key = [&](const ElementwiseTiling &t) {
    uint64_t tiles = 1;
    for (size_t d = 0; d < 4; ++d)
      tiles *= uint64_t(ceilDiv(p.shape[d], t.tile[d]));
    return std::make_tuple(t.cycles, t.gmBytes, tiles, t.buffers);
  };
  // Rows: boxes over dimensions 0..2 filled in each order of the dimensions
  // (a dimension grows past 1 only once the ones before it in the order are
  // whole), up to a budget of rows: each power of two, and the most that fit.
  static const std::array<std::array<size_t, 3>, 6> kOrders{
      {{2, 1, 0}, {2, 0, 1}, {1, 2, 0}, {1, 0, 2}, {0, 2, 1}, {0, 1, 2}}};
  std::optional<ElementwiseTiling> best;
  std::set<std::array<int64_t, 5>> seen;
  std::vector<int64_t> columns = p.fixed[3]
                                    ? std::vector<int64_t>{p.fixed[3]}
                                    : extentCandidates(p.shape[3], granule,
                                                       p.maxTile[3] ? std::min(p.maxTile[3], kVectorExtentMax)
                                                                    : kVectorExtentMax);
  for (int64_t cols : columns)
    for (int64_t buffers = 1; buffers <= p.maxBuffers; ++buffers) {
      int64_t most = std::min<int64_t>(kVectorExtentMax,
                                       tp.LMBytes / (buffers * rowBytes(p, cols, tp)));
      if (most < 1)
        continue;
      std::vector<int64_t> budgets{most};
      for (int64_t r = 1; r < most; r *= 2)
        budgets.push_back(r);
      for (int64_t budget : budgets)
        for (const auto &order : kOrders) {
          if (p.rowsFirst && order != kOrders[0])
            continue;
          ElementwiseTiling t;
          t.tile[3] = cols;
          t.buffers = buffers;
          int64_t rows = 1;
          bool whole = true;
          for (size_t d : order) {
            t.tile[d] = p.fixed[d] ? p.fixed[d]
                        : whole    ? std::max<int64_t>(1, std::min({p.shape[d], budget / rows,
                                                                       p.maxTile[d] ? p.maxTile[d] : p.shape[d]}))
                                   : 1;
            rows *= t.tile[d];
            whole = whole && t.tile[d] == p.shape[d];
          }
          if (!seen.insert({t.tile[0], t.tile[1], t.tile[2], t.tile[3], buffers}).second)
            continue;
          consider(p, t, target, best, key);
        }
    }
  return best;
}
