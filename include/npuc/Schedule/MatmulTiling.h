//===- MatmulTiling.h - Tile shapes for MATRIX products, by cost ---*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The cost model of select-tiling for matrix products (after Vela's scheduler:
// propose, estimate, fit). Candidates are tile shapes (mt x nt over the
// result, kt along the reduction) and a buffer count; each is fitted against
// LM and ACC and the ISA's field limits, and estimated in cycles and GM bytes
// with the target's timing function (npuc::timing), the one npu-sim's clock
// calls. No MLIR: the problem is plain numbers, so the model is tested alone.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SCHEDULE_MATMULTILING_H
#define NPUC_SCHEDULE_MATMULTILING_H

#include "npuc/Base/ISA.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Base/Target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuc::emit::lowering {

/// What the cost models share (MatmulTiling, DepthwiseTiling, ConvTiling).
namespace tiling {
inline int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline constexpr int64_t kAccBytes = 4;     // int32 or f32 sums
inline constexpr int64_t kParamBytes = num::kRequantEntryBytes;  // one requantization table entry
inline constexpr int64_t kMaxBuffers = 2;   // rotating slots per tile
} // namespace tiling

/// Tiles of `tile` along a dimension of `extent`: the full ones (first 0),
/// then the remainder, each as {size, count, first}; empty parts left out.
struct TilePart {
  int64_t size, count, first;
};
inline std::vector<TilePart> tileParts(int64_t extent, int64_t tile) {
  std::vector<TilePart> parts;
  if (extent / tile)
    parts.push_back({tile, extent / tile, 0});
  if (extent % tile)
    parts.push_back({extent % tile, 1, extent / tile * tile});
  return parts;
}

/// The cost models' step per candidate (after Vela: fit, estimate, keep
/// the best): `t` is dropped when checkTiling names a reason, else estimated
/// and kept when `key` ranks it before `best`.
template <typename Problem, typename Tiling, typename Key>
void consider(const Problem &p, Tiling t, const target::TargetInfo &target,
              std::optional<Tiling> &best, const Key &key) {
  if (checkTiling(p, t, target))
    return;
  estimate(p, t, target);
  if (!best || key(t) < key(*best))
    best = t;
}

/// Slots of the ring a product's chunks along K take turns in, when K is
/// longer than one chunk (two: the next chunk's loads overlap this product).
inline constexpr int64_t kMatmulChunkRing = 2;

/// One matrix product as the lowering runs it: per batch, [M x K] x [K x N],
/// then the epilogue on each accumulator tile.
struct MatmulProblem {
  int64_t batch = 1, M = 1, N = 1, K = 1;
  int64_t aBytes = 1, bBytes = 1, outBytes = 1;  // element bytes of A, B, the result
  bool transA = false, transB = false, batchedB = false;
  bool batchedA = true;      // false: one A for every batch (a pointwise conv's weights)
  bool biasPerRow = false;   // the bias is per result row (a pointwise conv's channels)
  isa::MmMode mode = isa::MmMode::I8I8;
  bool bias = false;         // a [1, nt] int32/f32 row added
  bool requant = false;      // int32 -> outBytes on VECTOR
  bool requantTable = false; // per-channel parameters, 16 bytes per channel
  bool requantPerRow = false;
  bool scale = false;        // alpha != 1
  bool addend = false;       // Gemm's C, loaded per tile as f32
  /// B is a constant other products read too (an RNN's recurrent weights,
  /// read at every step): a tiling that holds all of B in one tile loads it
  /// once for all of them (emit-resident-constants keeps it in LM), so its
  /// load is not charged to this product.
  bool sharedB = false;
};

/// A choice: tiles of mt x nt results reducing kt at a time, `buffers`
/// rotating slots per tile, and what the model estimates for it.
struct MatmulTiling {
  int64_t mt = 0, nt = 0, kt = 0, buffers = 1;
  uint64_t cycles = 0, gmBytes = 0;
};

/// Whether `t` holds all of a shared B in one tile, loaded once for every
/// product that reads it (MatmulProblem::sharedB): the tiling's `resident`.
inline bool holdsSharedB(const MatmulProblem &p, const MatmulTiling &t) {
  return p.sharedB && t.nt >= p.N && t.kt >= p.K;
}

/// One loop of a product's result tiles: every tile of one shape, `m` rows
/// by `n` columns (a full tile or a remainder along each), over [batch, row
/// tiles, column tiles], rows outermost.
struct ProductLoop {
  TilePart m, n;
};
/// The loops a product's result tiles run in: the remainder tiles along M
/// and N are peeled into loops of their own (a loop's tiles share a shape),
/// full rows of tiles first. What estimate() charges and the lowering emits;
/// the order costs nothing the model could rank (no operand is reused
/// across iterations), so it is stated here, once.
std::vector<ProductLoop> productLoops(const MatmulProblem &p, const MatmulTiling &t);

/// LM and ACC bytes one iteration of the tile loop allocates (once per slot).
struct TileFootprint {
  int64_t lm = 0, acc = 0;
};
TileFootprint footprint(const MatmulProblem &p, const MatmulTiling &t,
                        const target::TargetInfo &target);

/// Why `t` cannot run `p` on `target` (ISA limits, LM, ACC), or nullopt.
std::optional<std::string> checkTiling(const MatmulProblem &p, const MatmulTiling &t,
                                       const target::TargetInfo &target);

/// Why tiles taking `f` do not fit `target`'s LM and ACC (the ACC bytes
/// named `accWhat`: accumulators, sums), or nullopt. Every cost model's fit.
std::optional<std::string> checkFits(const TileFootprint &f, const target::TargetInfo &target,
                                     const char *accWhat);

/// Candidate extents for a dimension of size `x` on an array of side `a`:
/// the whole dimension, powers of two times the side, and even splits
/// rounded up to the side; at most `limit`.
std::vector<int64_t> extentCandidates(int64_t x, int64_t a, int64_t limit);

/// Estimated cycles and GM bytes of `t` (fills t.cycles and t.gmBytes).
void estimate(const MatmulProblem &p, MatmulTiling &t, const target::TargetInfo &target);

/// The candidate with the fewest estimated cycles (then GM bytes, then the
/// fewest iterations), or nullopt when no candidate fits.
std::optional<MatmulTiling> chooseMatmulTiling(const MatmulProblem &p,
                                               const target::TargetInfo &target);

/// A convolution whose im2col tiles are gathered from GM, as the product it
/// is per batch and group ([OH * OW pixels] x [Cg * khw taps] x [Mg
/// channels]): its result tiles are whole output rows (mt a multiple of
/// `OW`) or a run of one row (mt < OW), its chunks along K whole windows of
/// input channels (kt a multiple of `khw`), and only a single chunk rotates
/// slots. The best candidate as chooseMatmulTiling ranks them, or nullopt.
std::optional<MatmulTiling> chooseIm2colTiling(const MatmulProblem &p, int64_t OW, int64_t khw,
                                               const target::TargetInfo &target);

} // namespace npuc::emit::lowering

#endif
