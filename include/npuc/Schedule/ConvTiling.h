//===- ConvTiling.h - Tiles of dense window convolutions, by cost -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The cost model of select-tiling for dense and grouped convolutions whose
// window is gathered in LM (every conv but the depthwise and pointwise kinds).
// Per tile, a row tile of one group's image arrives channels innermost (HWC),
// padded on the way into LM; VECTOR copies, per output row and kernel row, the
// KW x channels run each output pixel reaches into an im2col tile (one copy of
// OW rows); MATRIX multiplies it by the weights, reordered at compile time to
// [chunk][kh][kw, c (+ gap)][M]; the output stage drains it. Each kernel row's
// run is padded to the VECTOR alignment inside the im2col row (the weights'
// gap rows are the weight zero point, or 0.0: they add nothing; the tile is
// zeroed first, so that no gap holds a NaN or LM never written).
// No MLIR: the problem is plain numbers, so the model is tested alone.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SCHEDULE_CONVTILING_H
#define NPUC_SCHEDULE_CONVTILING_H

#include "npuc/Schedule/DepthwiseTiling.h"

namespace npuc::emit::lowering {

/// One dense or grouped convolution: the window geometry of one group
/// (`window.C` is the group's input channels, `window.mode` the MATRIX mode)
/// and the group's output channels.
struct ConvProblem {
  DepthwiseProblem window;
  int64_t groups = 1, outChannels = 1;  // per group
  int64_t weightBytes = 1;
};

/// A choice: tiles of `rows` whole output rows by `outChannels` output
/// channels, the group's input channels in chunks of `chunk`, and `buffers`
/// rotating slots (one when there are several chunks).
/// With `stacked`, the image holds one row per output row, each pixel
/// carrying the KH input rows the window reaches (KH DMAs per chunk, one per
/// kernel row): an output pixel's whole window, KW x KH x chunk elements, is
/// one contiguous run, so an im2col row is one run padded once, not KH runs
/// padded each (a first layer of 3 channels: K = 27 -> 32, not 3 x 32).
/// With `resident`, all the weights (every chunk, every output channel) are
/// loaded into LM once, before the tile loops, in the layout they have in GM
/// (rows of K, the group's output channels across), and a tile's products
/// read their block in place: no tile loads weights again.
struct ConvTiling {
  int64_t rows = 0, outChannels = 0, chunk = 0, buffers = 1;
  uint64_t cycles = 0, gmBytes = 0;
  bool stacked = false;
  bool resident = false;
};

/// The layout of one chunk's tiles in LM.
struct ConvLayout {
  int64_t block = 0;       // elements per kernel row in an im2col row (KW * chunk, padded;
                           // stacked: the whole window, KW * KH * chunk, padded)
  int64_t depth = 0;       // the product's K: KH * block (stacked: block)
  int64_t imagePitch = 0;  // bytes per image row (Wp pixels of `chunk` channels, or of
                           // KH x `chunk` stacked, padded)
  int64_t lda = 0, ldb = 0, ldc = 0;
};
ConvLayout convLayout(const ConvProblem &p, int64_t chunk, int64_t outChannels,
                      const target::TargetParams &tp, bool stacked = false);
/// The columns of an `m`-row im2col tile that a chunk of `chunk` channels
/// leaves as gaps, as the VECTOR clears them before the gathers, (first
/// column, columns): per block, from the last 32-byte boundary in its run to
/// the block's end, or the whole row in one clear when that costs fewer
/// VECTOR cycles. Empty when the runs fill their blocks.
std::vector<std::pair<int64_t, int64_t>> gapClears(const ConvProblem &p, int64_t chunk,
                                                   bool stacked, int64_t m,
                                                   const target::TargetParams &tp);
/// Stacked images: of a row tile's `g.rows` output rows, how many read the
/// top and the bottom padding through kernel row `kh` (they are filled on
/// the way into LM; the rows between come from GM).
struct StackedRows {
  int64_t top = 0, bottom = 0;
};
StackedRows stackedRows(const DepthwiseProblem &w, const RowGroup &g, int64_t kh);

/// The chunks of the group's input channels, in order: (first, size).
std::vector<std::pair<int64_t, int64_t>> convChunks(const ConvProblem &p, int64_t chunk);
/// The rows of the reordered weights (every chunk's K, gaps included); each
/// row holds every output channel of every group.
int64_t weightRows(const ConvProblem &p, int64_t chunk, const target::TargetParams &tp,
                   bool stacked);

/// Slots of the accumulator tile beyond the loop's buffers: one when a float
/// bias is broadcast into it ahead of the products of a pipelined loop.
int64_t convExtraAccSlots(const ConvProblem &p, const ConvTiling &t);

TileFootprint footprint(const ConvProblem &p, const ConvTiling &t, const target::TargetInfo &target);

/// Why `t` cannot run `p` on `target` (ISA fields, LM, ACC), or nullopt.
std::optional<std::string> checkTiling(const ConvProblem &p, const ConvTiling &t,
                                       const target::TargetInfo &target);

/// Estimated cycles and GM bytes of `t` (fills t.cycles and t.gmBytes).
void estimate(const ConvProblem &p, ConvTiling &t, const target::TargetInfo &target);

/// The candidate with the fewest estimated cycles (then GM bytes, then the
/// fewest iterations); but of the candidates within kGmSlackPercent of those
/// cycles, the one that moves the fewest GM bytes. nullopt when none fits.
inline constexpr uint64_t kGmSlackPercent = 5;
std::optional<ConvTiling> chooseConvTiling(const ConvProblem &p, const target::TargetInfo &target);

} // namespace npuc::emit::lowering

#endif
