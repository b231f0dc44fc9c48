//===- MatmulTiling.cpp - Tile shapes for MATRIX products, by cost --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/MatmulTiling.h"
#include "npuc/Base/Timing.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::emit::lowering::tiling;

namespace {

constexpr int64_t kExtentMax = isa::limit::MATMUL::m_max;

/// A 2-D GM view (rows x cols at byte strides) as the DMA sees it.
timing::GMAccess access2D(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride,
                          int64_t elem) {
  timing::GMAccess a;
  a.extent = {cols, rows, 1, 1};
  a.stride = {colStride, rowStride, 0, 0};
  a.elemBytes = unsigned(elem);
  return a;
}

/// One iteration of the tile loop: an mc x nc result tile.
struct Iteration {
  uint64_t loads = 0, firstLoad = 0, stores = 0, matrix = 0, vector = 0;
  uint64_t drain = 0;  // the MATRIX output stage, overlapped with the next pass
  uint64_t gmBytes = 0;
  std::vector<uint64_t> loadBus, storeBus;  // per descriptor, in issue order
  int64_t chunks = 0;
};

Iteration iteration(const MatmulProblem &p, const MatmulTiling &t, int64_t mc, int64_t nc,
                    const target::TargetParams &tp) {
  Iteration it;
  auto move = [&](const timing::GMAccess &a, bool load) {
    uint64_t bus = timing::busBytes(tp, a);
    uint64_t cycles = timing::busCycles(tp, bus);
    (load ? it.loads : it.stores) += cycles;
    (load ? it.loadBus : it.storeBus).push_back(bus);
    it.gmBytes += timing::dataBytes(a);
    return cycles;
  };
  // Full chunks of kt, then the remainder (no loop over K: K may be large).
  int64_t full = p.K / t.kt, rest = p.K % t.kt;
  for (auto [kc, n] : {std::pair{t.kt, full}, std::pair{rest, int64_t(rest > 0)}}) {
    if (n == 0 || kc == 0)
      continue;
    Iteration one;
    std::swap(one, it);
    move(p.transA ? access2D(mc, kc, p.aBytes, p.M * p.aBytes, p.aBytes)
                  : access2D(mc, kc, p.K * p.aBytes, p.aBytes, p.aBytes),
         true);
    if (!holdsSharedB(p, t))
      move(p.transB ? access2D(kc, nc, p.bBytes, p.K * p.bBytes, p.bBytes)
                    : access2D(kc, nc, p.N * p.bBytes, p.bBytes, p.bBytes),
           true);
    std::swap(one, it);
    if (it.chunks == 0)
      it.firstLoad = one.loads;
    it.loads += uint64_t(n) * one.loads;
    for (int64_t i = 0; i < n; ++i)
      it.loadBus.insert(it.loadBus.end(), one.loadBus.begin(), one.loadBus.end());
    it.gmBytes += uint64_t(n) * one.gmBytes;
    it.matrix += uint64_t(n) * timing::matmulCycles(tp, p.mode, mc, nc, kc);
    it.chunks += n;
  }
  uint64_t tile = uint64_t(mc * nc);
  // A requantized product drains through the MATRIX output stage (bias
  // included); a float one adds its bias on VECTOR.
  bool stage = p.requant;
  if (stage)
    it.drain = timing::drainCycles(tp, mc, nc);
  if (p.scale)
    it.vector += timing::vectorCycles(tp, tile, kAccBytes);
  if (p.addend) {
    // Gemm's C is loaded with the first chunk's operands (MatrixKernels.cpp),
    // so a ring of chunks does not hide it behind the products.
    it.firstLoad += move(access2D(mc, nc, nc * kAccBytes, kAccBytes, kAccBytes), true);
    it.vector += timing::vectorCycles(tp, tile, kAccBytes);
  }
  if (p.bias) {
    move(p.biasPerRow ? access2D(mc, 1, kAccBytes, kAccBytes, kAccBytes)
                      : access2D(1, nc, 0, kAccBytes, kAccBytes),
         true);
    if (!stage)
      it.vector += timing::vectorCycles(tp, tile, kAccBytes);
  }
  if (p.requant) {
    if (p.requantTable) {
      int64_t n = p.requantPerRow ? mc : nc;
      move(access2D(n, kParamBytes, kParamBytes, 1, 1), true);
    }
    if (!stage)
      it.vector += timing::vectorCycles(tp, tile, kAccBytes);
  }
  move(access2D(mc, nc, p.N * p.outBytes, p.outBytes, p.outBytes), false);
  return it;
}

} // namespace

std::vector<int64_t> npuc::emit::lowering::extentCandidates(int64_t x, int64_t a, int64_t limit) {
  std::set<int64_t> c;
  if (x <= limit)
    c.insert(x);
  for (int64_t v = a; v < x && v <= limit; v *= 2)
    c.insert(v);
  for (int64_t q = 2; q <= 16; ++q)
    if (int64_t v = roundUp(ceilDiv(x, q), a); v < x && v <= limit)
      c.insert(v);
  if (c.empty())
    c.insert(std::max<int64_t>(1, std::min(x, limit / a * a)));
  return {c.begin(), c.end()};
}

std::optional<std::string> npuc::emit::lowering::checkFits(const TileFootprint &f,
                                                           const target::TargetInfo &target,
                                                           const char *accWhat) {
  const target::TargetParams &tp = target.params;
  if (f.lm > tp.LMBytes)
    return "its tiles take " + std::to_string(f.lm) + " bytes of LM; " + target.name + " has " +
           std::to_string(tp.LMBytes);
  if (f.acc > tp.ACCBytes)
    return std::string("its ") + accWhat + " take " + std::to_string(f.acc) + " bytes of ACC; " +
           target.name + " has " + std::to_string(tp.ACCBytes);
  return std::nullopt;
}

TileFootprint npuc::emit::lowering::footprint(const MatmulProblem &p, const MatmulTiling &t,
                                              const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  int64_t ma = tp.MatrixAlign, va = tp.VectorAlign;
  int64_t mt = std::min(t.mt, p.M), nt = std::min(t.nt, p.N), kt = std::min(t.kt, p.K);
  // Each allocation is one slot, rounded up to the MATRIX alignment.
  auto slot = [&](int64_t bytes) { return roundUp(bytes, ma); };
  TileFootprint f;
  // A and B: per iteration (rotating with the loop's buffers) for one chunk
  // along K, in a ring of their own for several.
  int64_t operands = slot(mt * roundUp(kt * p.aBytes, ma)) + slot(kt * roundUp(nt * p.bBytes, ma));
  bool ring = p.K > kt;
  if (!ring)
    f.lm += operands;
  // The requantized result, or an fp32 accumulator stored as fp16, in LM.
  if (p.requant || p.outBytes < kAccBytes)
    f.lm += slot(mt * roundUp(nt * p.outBytes, va));
  if (p.bias)
    f.lm += slot(p.biasPerRow ? mt * kAccBytes : roundUp(nt * kAccBytes, va));
  if (p.requantTable)
    f.lm += slot((p.requantPerRow ? mt : nt) * kParamBytes);
  if (p.addend)
    f.lm += slot(mt * roundUp(nt * kAccBytes, va));
  f.acc = slot(mt * roundUp(nt * kAccBytes, ma));
  f.lm *= t.buffers;
  f.acc *= t.buffers;
  if (ring)
    f.lm += kMatmulChunkRing * operands;
  return f;
}

std::optional<std::string> npuc::emit::lowering::checkTiling(const MatmulProblem &p,
                                                             const MatmulTiling &t,
                                                             const target::TargetInfo &target) {
  auto str = [](int64_t v) { return std::to_string(v); };
  if (t.mt < 1 || t.nt < 1 || t.kt < 1 || t.mt > kExtentMax || t.nt > kExtentMax ||
      t.kt > kExtentMax)
    return "tile " + str(t.mt) + "x" + str(t.nt) + "x" + str(t.kt) +
           " is outside the MATRIX extent fields [1, " + str(kExtentMax) + "]";
  if (t.buffers < 1 || t.buffers > kMaxBuffers)
    return "buffers " + str(t.buffers) + " is outside [1, " + str(kMaxBuffers) + "]";
  const target::TargetParams &tp = target.params;
  int64_t kt = std::min(t.kt, p.K), nt = std::min(t.nt, p.N);
  if (roundUp(kt * p.aBytes, tp.MatrixAlign) > isa::limit::MM_CFG::lda_max ||
      roundUp(nt * p.bBytes, tp.MatrixAlign) > isa::limit::MM_CFG::ldb_max ||
      roundUp(nt * kAccBytes, tp.MatrixAlign) > isa::limit::MM_CFG::ldc_max)
    return "a tile row pitch exceeds the mm_cfg pitch fields (" +
           str(isa::limit::MM_CFG::lda_max) + " bytes)";
  return checkFits(footprint(p, t, target), target, "accumulators");
}

std::vector<ProductLoop> npuc::emit::lowering::productLoops(const MatmulProblem &p,
                                                            const MatmulTiling &t) {
  std::vector<ProductLoop> loops;
  for (const TilePart &m : tileParts(p.M, t.mt))
    for (const TilePart &n : tileParts(p.N, t.nt))
      loops.push_back({m, n});
  return loops;
}

void npuc::emit::lowering::estimate(const MatmulProblem &p, MatmulTiling &t,
                                    const target::TargetInfo &target) {
  const target::TargetParams &tp = target.params;
  uint64_t latency = uint64_t(tp.DmaStartLatency);
  uint64_t cycles = 0, bytes = 0;
  for (const ProductLoop &loop : productLoops(p, t)) {
    int64_t mc = loop.m.size, nc = loop.n.size;
    uint64_t count = uint64_t(p.batch * loop.m.count * loop.n.count);
    if (count == 0)
      continue;
    Iteration it = iteration(p, t, mc, nc, tp);
    bytes += count * it.gmBytes;
    if (t.buffers == 1) {
      // In order: loads, products, epilogue, store, each waiting for the
      // last; with several chunks the ring overlaps the later chunks'
      // loads with the earlier chunks' products.
      uint64_t body = it.chunks > 1
                          ? it.firstLoad + std::max(it.loads - it.firstLoad, it.matrix)
                          : it.loads + it.matrix;
      cycles += count * (latency + body + it.drain + it.vector + latency + it.stores);
      continue;
    }
    // Rotating slots: the loads and stores of neighbouring iterations share
    // the bus while MATRIX and VECTOR work on this one, as fast as each DMA
    // engine's descriptor slots allow; the loop's first loads and its last
    // epilogue and store are not hidden.
    uint64_t steady = std::max({std::max(it.matrix, it.drain), it.vector,
                                timing::dmaSteadyCycles(tp, it.loadBus, it.storeBus)});
    cycles += count * steady + latency + it.firstLoad + it.drain + it.vector + latency + it.stores;
  }
  t.cycles = cycles;
  t.gmBytes = bytes;
}

std::optional<MatmulTiling> npuc::emit::lowering::chooseMatmulTiling(
    const MatmulProblem &p, const target::TargetInfo &target) {
  int64_t a = timing::arraySide(target.params, p.mode);
  std::optional<MatmulTiling> best;
  auto key = [&](const MatmulTiling &t) {
    uint64_t iterations = uint64_t(ceilDiv(p.M, t.mt) * ceilDiv(p.N, t.nt) * ceilDiv(p.K, t.kt));
    return std::make_tuple(t.cycles, t.gmBytes, iterations, t.buffers);
  };
  for (int64_t mt : extentCandidates(p.M, a, kExtentMax))
    for (int64_t nt : extentCandidates(p.N, a, kExtentMax))
      for (int64_t kt : extentCandidates(p.K, a, kExtentMax))
        for (int64_t buffers = 1; buffers <= kMaxBuffers; ++buffers)
          consider(p, MatmulTiling{mt, nt, kt, buffers, 0, 0}, target, best, key);
  return best;
}

std::optional<MatmulTiling> npuc::emit::lowering::chooseIm2colTiling(
    const MatmulProblem &p, int64_t OW, int64_t khw, const target::TargetInfo &target) {
  int64_t a = timing::arraySide(target.params, p.mode);
  if (OW < 1 || khw < 1 || p.M % OW != 0 || p.K % khw != 0)
    return std::nullopt;
  int64_t OH = p.M / OW, Cg = p.K / khw;
  std::vector<int64_t> rowTiles;
  for (int64_t wc : extentCandidates(OW, a, kExtentMax))
    if (wc < OW)
      rowTiles.push_back(wc);
  if (OW <= kExtentMax)
    for (int64_t T : extentCandidates(OH, 1, kExtentMax / OW))
      rowTiles.push_back(T * OW);
  std::optional<MatmulTiling> best;
  auto key = [&](const MatmulTiling &t) {
    uint64_t iterations = uint64_t(ceilDiv(p.M, t.mt) * ceilDiv(p.N, t.nt) * ceilDiv(p.K, t.kt));
    return std::make_tuple(t.cycles, t.gmBytes, iterations, t.buffers);
  };
  for (int64_t mt : rowTiles)
    for (int64_t nt : extentCandidates(p.N, a, kExtentMax))
      for (int64_t kc : extentCandidates(Cg, 1, std::max<int64_t>(1, kExtentMax / khw)))
        for (int64_t buffers = 1; buffers <= (kc >= Cg ? kMaxBuffers : 1); ++buffers)
          consider(p, MatmulTiling{mt, nt, kc * khw, buffers, 0, 0}, target, best, key);
  return best;
}
