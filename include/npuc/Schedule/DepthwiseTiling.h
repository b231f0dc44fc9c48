//===- DepthwiseTiling.h - Tiles of depthwise convolutions, by cost -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The cost model of select-tiling for depthwise convolutions, which run on
// VECTOR (V_DW) or the array's depthwise mode (MM_DW), whichever the
// estimate prices cheaper, and drain through the MATRIX output stage. A tile is a chunk
// of channels by a run of whole output rows: its image (the input rows the
// window reaches, padded on the way in) is one DMA of contiguous rows per
// channel. Candidates are fitted against LM, ACC and the ISA's fields and
// estimated with npuc::timing, like MatmulTiling.h. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SCHEDULE_DEPTHWISETILING_H
#define NPUC_SCHEDULE_DEPTHWISETILING_H

#include "npuc/Schedule/MatmulTiling.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Timing.h"

#include <vector>

namespace npuc::emit::lowering {

/// One depthwise convolution (NCHW, one input and one output channel per
/// group) as the lowering runs it.
struct DepthwiseProblem {
  int64_t N = 1, C = 1, H = 1, W = 1;    // the input, unpadded
  int64_t KH = 1, KW = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t OH = 1, OW = 1;
  int64_t inBytes = 1, outBytes = 1;     // element bytes of the input and the result
  isa::MmMode mode = isa::MmMode::I8I8;
  bool bias = false, requant = false, requantTable = false;
  /// Pooling: V_DW's MAX or SUM over the image alone (no taps); the results
  /// land in LM and `epiloguePasses` 4-byte VECTOR passes over them follow
  /// (casts, a divisor, requantization). With `convertImage` the image is
  /// dequantized to f32 first (three passes over it).
  /// What V_DW computes over a window (the ISA's WindowFunc).
  isa::WindowFunc window = isa::WindowFunc::MAC;
  int64_t epiloguePasses = 0;
  bool convertImage = false;
  bool pooling() const { return window != isa::WindowFunc::MAC; }
  int64_t paddedWidth() const { return W + padLeft + padRight; }
  /// Input rows (padded coordinates) that `rows` output rows reach.
  int64_t imageRows(int64_t rows) const { return (rows - 1) * sh + (KH - 1) * dh + 1; }
};

/// A choice: chunks of `channels` channels by `rows` output rows, `buffers`
/// rotating slots per tile, and what the model estimates for it. With
/// `resident`, every channel's taps, bias and requantization table are loaded
/// into LM once, before the tile loops, instead of per tile: a tile then
/// starts one descriptor instead of four, so the next tile's image need not
/// wait for a descriptor slot behind this one's small loads.
/// With `matrix`, the sums run on the array's depthwise mode (MM_DW) instead
/// of VECTOR's V_DW.
struct DepthwiseTiling {
  int64_t channels = 0, rows = 0, buffers = 1;
  uint64_t cycles = 0, gmBytes = 0;
  bool resident = false, matrix = false;
};

/// Consecutive row tiles of one shape: tiles first .. first + count - 1 have
/// `rows` output rows and take padTop and padBottom rows of padding.
struct RowGroup {
  int64_t first = 0, count = 0, rows = 0, padTop = 0, padBottom = 0;
};
/// The row tiles of `rows` output rows each (the last may be shorter), in order.
std::vector<RowGroup> depthwiseRowGroups(const DepthwiseProblem &p, int64_t rows);
/// Why row tiles of `rows` cannot run (one lies entirely in the padding), or
/// nullopt.
std::optional<std::string> checkRowGroups(const DepthwiseProblem &p, int64_t rows);
/// A GM access of `rows` runs of `cols` contiguous bytes, `stride` apart, as
/// `elem`-byte elements.
timing::GMAccess gmRuns(int64_t rows, int64_t cols, int64_t stride, int64_t elem);

/// A block of the window V_DW's fields can hold (at most kh_max x kw_max
/// taps): rows i0.. and columns j0.. of the window. A larger window is
/// several V_DW that accumulate, each with its taps loaded as a block.
struct WindowBlock {
  int64_t i0 = 0, j0 = 0, kh = 1, kw = 1;
};
std::vector<WindowBlock> depthwiseWindowBlocks(const DepthwiseProblem &p);

/// Whether the bias (and a Relu) ride on the v_dw itself: a float result,
/// no output stage.
inline bool depthwiseFusesBias(const DepthwiseProblem &p) {
  return !p.requant && (p.mode == isa::MmMode::F32 || p.mode == isa::MmMode::F16);
}

/// Byte pitches of one tile of `channels` x `rows`: the image's channel
/// pitch, the accumulators' and the requantized result's row (channel) pitch.
/// `plain` is the channel pitch of an unpadded image (the feeder pads): the
/// real rows a tile reaches, at most, on a VECTOR boundary.
struct DepthwisePitches {
  int64_t image = 0, acc = 0, out = 0, plain = 0;
};
DepthwisePitches depthwisePitches(const DepthwiseProblem &p, int64_t rows,
                                  const target::TargetParams &tp);

/// Byte pitches, per chunk of `channels`, of the resident taps, bias and
/// requantization table (each chunk starts on a VECTOR boundary); zero for
/// what the problem does not have.
struct ResidentPitches {
  int64_t taps = 0, bias = 0, params = 0;
};
ResidentPitches residentPitches(const DepthwiseProblem &p, int64_t channels,
                                const target::TargetParams &tp);
/// Whether a tiling may keep the parameters resident: a multiply-accumulate
/// (not pooling) whose window is one V_DW block.
bool residentAllowed(const DepthwiseProblem &p);
/// Why the feeder of V_DW and MM_DW cannot pad `p`'s image (pooling, a
/// window of several blocks, padding or an image beyond its fields), or
/// nullopt: then a tile's image is the input's real rows alone, one
/// contiguous run per channel, and the instruction pads.
std::optional<std::string> checkFeeder(const DepthwiseProblem &p);
inline bool feederPads(const DepthwiseProblem &p) { return !checkFeeder(p); }
/// Why the array's depthwise mode cannot run `p`, or nullopt: a
/// multiply-accumulate its feeder pads, within MM_DW's extents.
std::optional<std::string> checkArray(const DepthwiseProblem &p);

TileFootprint footprint(const DepthwiseProblem &p, const DepthwiseTiling &t,
                        const target::TargetInfo &target);
std::optional<std::string> checkTiling(const DepthwiseProblem &p, const DepthwiseTiling &t,
                                       const target::TargetInfo &target);
void estimate(const DepthwiseProblem &p, DepthwiseTiling &t, const target::TargetInfo &target);
/// The candidate with the fewest estimated cycles (then GM bytes, then the
/// fewest iterations, then fewer buffers), or nullopt when none fits.
std::optional<DepthwiseTiling> chooseDepthwiseTiling(const DepthwiseProblem &p,
                                                     const target::TargetInfo &target);

} // namespace npuc::emit::lowering

#endif
