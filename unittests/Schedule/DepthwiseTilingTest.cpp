//===- DepthwiseTilingTest.cpp - The depthwise cost model, by hand --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every expected value is worked out by hand from the model's stated formulas
// (DepthwiseTiling.cpp), the timing function (npu-v1.md section 9,
// Timing.cpp) and the target parameters (Target.td), shown in the comments.
//
// npu-v1:      LM 1,048,576  ACC 262,144  int8 array side 64 (the drain:
//              64 elements/cycle)  VECTOR 256 B/cycle  GM 64 B/cycle, burst
//              64 B, DMA start 200  VectorAlign 32, MatrixAlign 64
// npu-v1-tiny: int8 side 32  VECTOR 64 B/cycle  GM 16 B/cycle, burst 32 B
// ISA: v_dw_cfg strides/dilations [1, 15], window blocks at most 15 x 15;
//      dma_in_pad fields at most 255; mm_out n at most 4095.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/DepthwiseTiling.h"

#include "ScheduleTest.h"
#include "npuc/Base/Target.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::schedule_test;

namespace {

/// An int8 3x3 depthwise layer over C channels of HW x HW, stride 1, padding
/// 1 all round (so OH = OW = HW), requantized to int8 by the output stage.
DepthwiseProblem dw3x3(int64_t C, int64_t HW) {
  DepthwiseProblem p;
  p.C = C, p.H = p.W = HW;
  p.KH = p.KW = 3;
  p.padTop = p.padLeft = p.padBottom = p.padRight = 1;
  p.OH = p.OW = HW;
  p.inBytes = p.outBytes = 1;
  p.mode = isa::MmMode::I8I8;
  p.requant = true;
  return p;
}

/// An int8 1x1 "depthwise" layer (a per-channel scale) over C x H x W.
DepthwiseProblem dw1x1(int64_t C, int64_t H, int64_t W) {
  DepthwiseProblem p;
  p.C = C, p.H = H, p.W = W;
  p.OH = H, p.OW = W;
  p.inBytes = p.outBytes = 1;
  p.requant = true;
  return p;
}

DepthwiseTiling dwTile(int64_t channels, int64_t rows, int64_t buffers, bool resident = false) {
  DepthwiseTiling t;
  t.channels = channels, t.rows = rows, t.buffers = buffers, t.resident = resident;
  return t;
}

DepthwiseTiling estimated(const DepthwiseProblem &p, DepthwiseTiling t,
                          const target::TargetInfo &target) {
  estimate(p, t, target);
  return t;
}

std::string groups(const std::vector<RowGroup> &gs) {
  std::string s;
  for (const RowGroup &g : gs)
    s += "{" + std::to_string(g.first) + " x" + std::to_string(g.count) + ": " +
         std::to_string(g.rows) + " rows, pad " + std::to_string(g.padTop) + "/" +
         std::to_string(g.padBottom) + "}";
  return s;
}

std::string blocks(const std::vector<WindowBlock> &bs) {
  std::string s;
  for (const WindowBlock &b : bs)
    s += "{" + std::to_string(b.i0) + "," + std::to_string(b.j0) + " " + std::to_string(b.kh) +
         "x" + std::to_string(b.kw) + "}";
  return s;
}
} // namespace

TEST(DepthwiseTiling, RowGroups) {
  // dw3x3 over 8 x 8: a tile of r output rows reaches (r - 1) + 2 + 1 = r + 2
  // padded input rows, starting at padded row j * r.
  DepthwiseProblem p = dw3x3(4, 8);
  // Tiles of 3: rows 0-2 start in the top padding (1 row); rows 3-5 reach
  // padded rows 3..7 (no padding); rows 6-7 (2 rows) reach 6..9, and row 9
  // is the bottom padding (1 + 8 = 9 real rows end at 8).
  EXPECT_EQ(groups(depthwiseRowGroups(p, 3)),
            "{0 x1: 3 rows, pad 1/0}{1 x1: 3 rows, pad 0/0}{2 x1: 2 rows, pad 0/1}");
  // One tile of 8 takes both paddings.
  EXPECT_EQ(groups(depthwiseRowGroups(p, 8)), "{0 x1: 8 rows, pad 1/1}");
  // Tiles of 1: the first and the last pad, the six between are one group.
  EXPECT_EQ(groups(depthwiseRowGroups(p, 1)),
            "{0 x1: 1 rows, pad 1/0}{1 x6: 1 rows, pad 0/0}{7 x1: 1 rows, pad 0/1}");
  EXPECT_TRUE(depthwiseRowGroups(p, 0).empty());
}

TEST(DepthwiseTiling, CheckRowGroupsRefusesATileOfPaddingOnly) {
  // 1x1 window, 2 input rows under 2 rows of top padding: OH = 4. A tile of
  // one row at the top reaches one padded row (row 0): 1 - 2 padding < 1.
  DepthwiseProblem p = dw1x1(1, 2, 4);
  p.padTop = 2;
  p.OH = 4;
  EXPECT_EQ(reason(checkRowGroups(p, 1)), "row tile 0 lies entirely in the padding");
  // A tile of all 4 rows reaches 4 padded rows, 2 of them real.
  EXPECT_EQ(reason(checkRowGroups(p, 4)), kFits);
}

TEST(DepthwiseTiling, WindowBlocksAndRuns) {
  // A 3x3 window is one block; 16x16 is four (15 + 1 each way).
  EXPECT_EQ(blocks(depthwiseWindowBlocks(dw3x3(1, 8))), "{0,0 3x3}");
  DepthwiseProblem big = dw3x3(1, 32);
  big.KH = big.KW = 16;
  EXPECT_EQ(blocks(depthwiseWindowBlocks(big)), "{0,0 15x15}{0,15 15x1}{15,0 1x15}{15,15 1x1}");
  EXPECT_TRUE(residentAllowed(dw3x3(1, 8)));
  EXPECT_FALSE(residentAllowed(big));
  DepthwiseProblem pool = dw3x3(1, 8);
  pool.window = isa::WindowFunc::MAX;
  EXPECT_FALSE(residentAllowed(pool));

  // gmRuns: 3 runs of 16 bytes, 100 apart, as 4-byte elements.
  timing::GMAccess a = gmRuns(3, 16, 100, 4);
  EXPECT_EQ(a.extent, (std::array<int64_t, 4>{4, 3, 1, 1}));
  EXPECT_EQ(a.stride, (std::array<int64_t, 4>{4, 100, 0, 0}));
  EXPECT_EQ(a.elemBytes, 4u);

  // The bias rides on the v_dw only for a float result without the stage.
  DepthwiseProblem f = dw3x3(1, 8);
  f.mode = isa::MmMode::F32, f.requant = false;
  EXPECT_TRUE(depthwiseFusesBias(f));
  EXPECT_FALSE(depthwiseFusesBias(dw3x3(1, 8)));
}

TEST(DepthwiseTiling, Pitches) {
  DepthwiseProblem p = dw3x3(4, 8);
  // 8 rows: image (8 - 1 + 2 + 1 = 10 rows) x (8 + 2 = 10 columns) x 1 B = 100;
  // accumulators roundUp(8 * 8 * 4, 64) = 256; result roundUp(64, 32) = 64.
  DepthwisePitches d = depthwisePitches(p, 8, v1().params);
  EXPECT_EQ(d.image, 100);
  EXPECT_EQ(d.acc, 256);
  EXPECT_EQ(d.out, 64);
  // 3 rows: image 5 x 10 = 50; acc roundUp(96, 64) = 128; out roundUp(24, 32) = 32.
  d = depthwisePitches(p, 3, v1().params);
  EXPECT_EQ(d.image, 50);
  EXPECT_EQ(d.acc, 128);
  EXPECT_EQ(d.out, 32);

  // Resident parameters of 4 channels: taps roundUp(4 * 9, 32) = 64; an int32
  // bias for the stage, 4 B each: roundUp(16, 32) = 32; a table roundUp(4 *
  // 16, 32) = 64.
  p.bias = p.requantTable = true;
  ResidentPitches r = residentPitches(p, 4, v1().params);
  EXPECT_EQ(r.taps, 64);
  EXPECT_EQ(r.bias, 32);
  EXPECT_EQ(r.params, 64);
  // Without the stage the bias is one per VECTOR row: roundUp(4 * 32, 32) = 128.
  p.requant = p.requantTable = false;
  r = residentPitches(p, 4, v1().params);
  EXPECT_EQ(r.bias, 128);
  EXPECT_EQ(r.params, 0);
}

TEST(DepthwiseTiling, Footprint) {
  DepthwiseProblem p = dw3x3(4, 8);
  // The feeder pads, so the image is the 8 real rows of 8 B, 64 per channel
  // (plain). 4 channels x 8 rows, one buffer: image slot(4 * 64) = 256; taps
  // slot(4 * 9) = 64; result slot(4 * 64) = 256: LM 576. ACC slot(4 * 256) = 1024.
  TileFootprint f = footprint(p, dwTile(4, 8, 1), v1());
  EXPECT_EQ(f.lm, 576);
  EXPECT_EQ(f.acc, 1024);
  // 2 channels, two buffers: per buffer image slot(128) = 128, taps
  // slot(18) = 64, result slot(128) = 128: 2 * 320 = 640. ACC 2 * slot(512) = 1024.
  f = footprint(p, dwTile(2, 8, 2), v1());
  EXPECT_EQ(f.lm, 640);
  EXPECT_EQ(f.acc, 1024);
  // Resident taps instead: 2 * (128 + 128) = 512, plus the taps of both
  // chunks once: slot(2 chunks * roundUp(18, 32)) = 64. 576.
  f = footprint(p, dwTile(2, 8, 2, /*resident=*/true), v1());
  EXPECT_EQ(f.lm, 576);
  EXPECT_EQ(f.acc, 1024);
  // A window of 16 x 16 is two blocks, which the feeder does not pad: the
  // image is padded on its way in, one output row reaching 16 rows of
  // 8 + 2 x 15 = 38 padded columns.
  DepthwiseProblem q = p;
  q.KH = q.KW = 16;
  q.padTop = q.padLeft = q.padBottom = q.padRight = 15;
  q.OH = q.OW = 8 + 30 - 16 + 1;
  EXPECT_EQ(depthwisePitches(q, 1, v1().params).image, 16 * 38);
}

TEST(DepthwiseTiling, CheckTilingRefusesTheIsaFields) {
  DepthwiseProblem p = dw3x3(4, 8);
  EXPECT_EQ(reason(checkTiling(p, dwTile(4, 8, 1), v1())), kFits);
  DepthwiseProblem q = p;
  q.sh = 16;
  EXPECT_EQ(reason(checkTiling(q, dwTile(4, 8, 1), v1())),
            "stride or dilation 16 is outside the v_dw_cfg fields [1, 15]");
  q = p;
  q.padTop = 256;
  EXPECT_EQ(reason(checkTiling(q, dwTile(4, 8, 1), v1())),
            "padding 256 exceeds the dma_in_pad fields (255)");
  EXPECT_EQ(reason(checkTiling(p, dwTile(5, 8, 1), v1())),
            "tile 5 channels x 8 rows is outside [1, 4] x [1, 8]");
  EXPECT_EQ(reason(checkTiling(p, dwTile(4, 9, 1), v1())),
            "tile 4 channels x 9 rows is outside [1, 4] x [1, 8]");
  EXPECT_EQ(reason(checkTiling(p, dwTile(4, 8, 3), v1())), "buffers 3 is outside [1, 2]");
  q = p;
  q.window = isa::WindowFunc::MAX;
  EXPECT_EQ(reason(checkTiling(q, dwTile(4, 8, 1, /*resident=*/true), v1())),
            "resident parameters need a multiply-accumulate whose window is one v_dw block");

  // The output stage drains rows * OW results per channel: mm_out's n field
  // holds 4095. 1x1 over 64 x 64: 63 rows (4032) fit, 64 rows (4096) do not.
  DepthwiseProblem wide = dw1x1(1, 64, 64);
  EXPECT_EQ(reason(checkTiling(wide, dwTile(1, 63, 1), v1())), kFits);
  EXPECT_EQ(reason(checkTiling(wide, dwTile(1, 64, 1), v1())),
            "64 rows of 64 outputs exceed the v_shape and mm_out extents (4095)");
}

TEST(DepthwiseTiling, CheckTilingFitsAccExactlyAndNotOneChannelMore) {
  // 1x1 over 16 x 64: 16 rows of 64 int32 sums = roundUp(4096, 64) = 4096
  // bytes per channel; 64 channels = 262,144, npu-v1's ACC exactly. LM:
  // image slot(64 * 1024) + taps slot(64) + result slot(64 * 1024) = 131,136.
  EXPECT_EQ(reason(checkTiling(dw1x1(64, 16, 64), dwTile(64, 16, 1), v1())), kFits);
  // 65 channels: 266,240.
  EXPECT_EQ(reason(checkTiling(dw1x1(65, 16, 64), dwTile(65, 16, 1), v1())),
            "its sums take 266240 bytes of ACC; npu-v1 has 262144");
}

TEST(DepthwiseTiling, EstimateOneTile) {
  // dw3x3 over 2 channels of 4 x 4 (padded 6 x 6), one tile of 2 channels x
  // 4 rows, one buffer, on npu-v1. The tile reaches 6 padded rows, 1 + 1 of
  // them padding: 4 real rows.
  //   image: 2 channels x 4 rows x 4 B, contiguous: 32 B, one 64 B burst -> 1.
  //   taps: 2 x 3 x 3 contiguous: 18 B, one burst -> 1.        Loads 2.
  //   V_DW: 2 * 4 * 4 = 32 outputs x 9 taps = 288 MACs at 256 per cycle:
  //     4 + ceil(288 / 256) = 6.
  //   drain: 2 channels x 16 results, ceil(32 / 64) = 1.
  //   store: 2 x 16 B contiguous, 32 B -> 1.
  //   200 + 2 + 6 + 1 + 200 + 1 = 410; GM 32 + 18 + 32 = 82.
  DepthwiseTiling t = estimated(dw3x3(2, 4), dwTile(2, 4, 1), v1());
  EXPECT_EQ(t.cycles, 410u);
  EXPECT_EQ(t.gmBytes, 82u);

  // The same on npu-v1-tiny: image 32 B at 16 B/cycle -> 2; taps one 32 B
  // burst -> 2; V_DW 4 + ceil(288 / 64) = 9; drain ceil(32 / 32) = 1; store 2.
  // 200 + 4 + 9 + 1 + 200 + 2 = 416.
  t = estimated(dw3x3(2, 4), dwTile(2, 4, 1), tiny());
  EXPECT_EQ(t.cycles, 416u);
  EXPECT_EQ(t.gmBytes, 82u);

  // Resident taps: loaded once first (200 + 1 = 201), the tile then loads
  // only its image: 200 + 1 + 6 + 1 + 200 + 1 = 409. 610; the same 82 B.
  t = estimated(dw3x3(2, 4), dwTile(2, 4, 1, /*resident=*/true), v1());
  EXPECT_EQ(t.cycles, 610u);
  EXPECT_EQ(t.gmBytes, 82u);
}

TEST(DepthwiseTiling, EstimateOnTheArray) {
  // EstimateOneTile's tile on the array's depthwise mode: the loads, drain
  // and store as there (2, 1, 1); MM_DW is a product of k = 9 taps, n = 2
  // channels, m = 16 pixels: 2 * 64 + 1 * 1 * max(16, 64) = 192.
  // 200 + 2 + 192 + 1 + 200 + 1 = 596: VECTOR's 410 is cheaper here.
  DepthwiseTiling on = dwTile(2, 4, 1);
  on.matrix = true;
  DepthwiseTiling t = estimated(dw3x3(2, 4), on, v1());
  EXPECT_EQ(t.cycles, 596u);
  EXPECT_EQ(t.gmBytes, 82u);
  // 64 channels of 32 x 32 in one tile, one buffer: the image 64 x 32 rows
  // x 32 B, contiguous: 65,536 B -> 1,024 cycles; taps 576 B -> 9; loads
  // 1,033. The drain 65,536 results -> 1,024; the store 65,536 B -> 1,024.
  // VECTOR: 65,536 outputs x 9 = 589,824 MACs -> 4 + 2,304 = 2,308;
  //   200 + 1,033 + 2,308 + 1,024 + 200 + 1,024 = 5,789.
  // The array: 128 + 1 * 1 * 1,024 = 1,152;
  //   200 + 1,033 + 1,152 + 1,024 + 200 + 1,024 = 4,633.
  DepthwiseProblem big = dw3x3(64, 32);
  EXPECT_EQ(estimated(big, dwTile(64, 32, 1), v1()).cycles, 5789u);
  on = dwTile(64, 32, 1);
  on.matrix = true;
  EXPECT_EQ(estimated(big, on, v1()).cycles, 4633u);
  EXPECT_EQ(checkTiling(big, on, v1()), std::nullopt);
  // Pooling has no taps for the array.
  DepthwiseProblem pool = dw3x3(2, 4);
  pool.window = isa::WindowFunc::MAX;
  on = dwTile(2, 4, 1);
  on.matrix = true;
  EXPECT_NE(checkTiling(pool, on, v1()), std::nullopt);
}

TEST(DepthwiseTiling, TheArrayPadsInItsFeeder) {
  // On the array the image is the real rows alone: a tile of 4 output rows
  // of dw3x3(2, 8) reaches 6 padded rows, at most 6 real ones: 6 x 8 B = 48,
  // on a VECTOR boundary 64 (the padded image: 6 x 10 = 60 B).
  DepthwisePitches d = depthwisePitches(dw3x3(2, 8), 4, v1().params);
  EXPECT_EQ(d.plain, 64);
  EXPECT_EQ(d.image, 60);
  // Its feeder holds padding up to 15 and a window of one block.
  EXPECT_EQ(checkArray(dw3x3(2, 8)), std::nullopt);
  DepthwiseProblem wide = dw3x3(2, 8);
  wide.padLeft = 16;
  EXPECT_NE(checkArray(wide), std::nullopt);
  DepthwiseProblem big = dw3x3(2, 40);
  big.KH = big.KW = 16;
  EXPECT_NE(checkArray(big), std::nullopt);
}

TEST(DepthwiseTiling, EstimateSplitTiles) {
  DepthwiseProblem p = dw3x3(2, 4);
  // One channel per tile: two tiles of image 16 B (1), taps 9 B (1), V_DW
  // 4 + ceil(144 / 256) = 5, drain ceil(16 / 64) = 1, store 16 B (1):
  // 2 * (200 + 2 + 5 + 1 + 200 + 1) = 818; GM 2 * (16 + 9 + 16) = 82.
  DepthwiseTiling t = estimated(p, dwTile(1, 4, 1), v1());
  EXPECT_EQ(t.cycles, 818u);
  EXPECT_EQ(t.gmBytes, 82u);
  // Two rows per tile: each tile reaches 4 padded rows, one of them padding:
  // image 2 channels x 3 rows x 4 B, two runs of 12 B (16 apart) -> 2 bursts,
  // 128 bus B -> 2 cycles, 24 B; taps 1 cycle, 18 B; V_DW 16 outputs x 9 =
  // 144 MACs -> 5; drain ceil(16 / 64) = 1; store 2 runs of 8 B -> 2, 16 B.
  // 2 * (200 + 3 + 5 + 1 + 200 + 2) = 822; GM 2 * (24 + 18 + 16) = 116 (the
  // taps twice, the middle image rows twice).
  t = estimated(p, dwTile(2, 2, 1), v1());
  EXPECT_EQ(t.cycles, 822u);
  EXPECT_EQ(t.gmBytes, 116u);
}

TEST(DepthwiseTiling, ChooseOneTileForASmallLayer) {
  // dw3x3(2, 4) on npu-v1: the whole layer in one tile, one buffer, 410 cycles
  // (EstimateOneTile). Any other tiling has two or more tiles, each paying
  // 2 x 200 in order (>= 800), or, double-buffered, a steady state of at
  // least half a tile's turn (>= 100) per tile on top of the last tile's 400
  // (>= 600); one tile with two buffers adds that steady state (>= 514);
  // resident taps add 201 (610).
  std::optional<DepthwiseTiling> t = chooseDepthwiseTiling(dw3x3(2, 4), v1());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->channels, 2);
  EXPECT_EQ(t->rows, 4);
  EXPECT_EQ(t->buffers, 1);
  EXPECT_FALSE(t->resident);
  EXPECT_EQ(t->cycles, 410u);
  EXPECT_EQ(t->gmBytes, 82u);
}
