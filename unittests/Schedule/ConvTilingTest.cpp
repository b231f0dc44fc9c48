//===- ConvTilingTest.cpp - The convolution cost model, by hand -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every expected value is worked out by hand from the model's stated formulas
// (ConvTiling.cpp), the timing function (npu-v1.md section 9, Timing.cpp) and
// the target parameters (Target.td), shown in the comments. chooseConvTiling
// (two rankings and a GM slack) is left to the lit tests.
//
// npu-v1: int8 array side 64  VECTOR 256 B/cycle  GM 64 B/cycle, burst 64 B,
//         DMA start 200  VectorAlign 32, MatrixAlign 64
// ISA: MATMUL m/n/k and mm_out m/n fields at most 4095.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/ConvTiling.h"

#include "ScheduleTest.h"
#include "npuc/Base/Target.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::schedule_test;

namespace {

using Spans = std::vector<std::pair<int64_t, int64_t>>;

/// An int8 3x3 convolution, one group of C input channels of HW x HW,
/// stride 1, padding 1 all round (OH = OW = HW), `outChannels` int8 outputs
/// requantized by the output stage.
ConvProblem conv3x3(int64_t C, int64_t HW, int64_t outChannels) {
  ConvProblem p;
  DepthwiseProblem &w = p.window;
  w.C = C, w.H = w.W = HW;
  w.KH = w.KW = 3;
  w.padTop = w.padLeft = w.padBottom = w.padRight = 1;
  w.OH = w.OW = HW;
  w.inBytes = w.outBytes = 1;
  w.mode = isa::MmMode::I8I8;
  w.requant = true;
  p.outChannels = outChannels;
  p.weightBytes = 1;
  return p;
}

ConvTiling convTile(int64_t rows, int64_t outChannels, int64_t chunk, int64_t buffers,
                    bool stacked = false, bool resident = false) {
  ConvTiling t;
  t.rows = rows, t.outChannels = outChannels, t.chunk = chunk, t.buffers = buffers;
  t.stacked = stacked, t.resident = resident;
  return t;
}

ConvTiling estimated(const ConvProblem &p, ConvTiling t) {
  estimate(p, t, v1());
  return t;
}
} // namespace

TEST(ConvTiling, ChunksAndLayout) {
  ConvProblem p = conv3x3(3, 4, 8);
  EXPECT_EQ(convChunks(p, 2), (Spans{{0, 2}, {2, 1}}));
  EXPECT_EQ(convChunks(p, 3), (Spans{{0, 3}}));
  EXPECT_TRUE(convChunks(p, 0).empty());

  // 3 channels, 8 outputs: a kernel row's run is KW * chunk = 9 int8, padded
  // to a 32 B block; K = KH * 32 = 96. The image row: 6 padded pixels x 3 =
  // 18 B -> 32. lda roundUp(96, 32) = 96; ldb roundUp(8, 64) = 64; ldc
  // roundUp(8 * 4, 64) = 64.
  ConvLayout l = convLayout(p, 3, 8, v1().params);
  EXPECT_EQ(l.block, 32);
  EXPECT_EQ(l.depth, 96);
  EXPECT_EQ(l.imagePitch, 32);
  EXPECT_EQ(l.lda, 96);
  EXPECT_EQ(l.ldb, 64);
  EXPECT_EQ(l.ldc, 64);
  // Stacked: the whole window, 3 * 3 * 3 = 27, padded once to 32 = K. The
  // image row holds KH x 3 channels per pixel: 6 * 9 = 54 -> 64; lda 32.
  l = convLayout(p, 3, 8, v1().params, /*stacked=*/true);
  EXPECT_EQ(l.block, 32);
  EXPECT_EQ(l.depth, 32);
  EXPECT_EQ(l.imagePitch, 64);
  EXPECT_EQ(l.lda, 32);

  // 64 channels, 100 outputs: block roundUp(192, 32) = 192, K 576; image
  // roundUp(6 * 64, 32) = 384; ldb roundUp(100, 64) = 128; ldc roundUp(400, 64) = 448.
  l = convLayout(conv3x3(64, 4, 100), 64, 100, v1().params);
  EXPECT_EQ(l.block, 192);
  EXPECT_EQ(l.depth, 576);
  EXPECT_EQ(l.imagePitch, 384);
  EXPECT_EQ(l.lda, 576);
  EXPECT_EQ(l.ldb, 128);
  EXPECT_EQ(l.ldc, 448);

  // Weight rows: chunks of 2 and 1 are a K of 96 each (192); one chunk of 3
  // is 96; stacked, 32.
  EXPECT_EQ(weightRows(p, 2, v1().params, false), 192);
  EXPECT_EQ(weightRows(p, 3, v1().params, false), 96);
  EXPECT_EQ(weightRows(p, 3, v1().params, true), 32);
}

TEST(ConvTiling, GapClears) {
  ConvProblem p = conv3x3(3, 4, 8);
  // 3 blocks of 32 with 9-byte runs: per block from 0 (the last 32 B boundary
  // at or below the run's end), 32 columns each: 3 * (4 + ceil(16 * 32 / 256))
  // = 18 cycles for 16 rows; the whole row at once 4 + ceil(16 * 96 / 256) =
  // 10 is cheaper.
  EXPECT_EQ(gapClears(p, 3, false, 16, v1().params), (Spans{{0, 96}}));
  // Stacked: one block of 32, run 27: one clear of 32 either way; the tie
  // goes to the whole row.
  EXPECT_EQ(gapClears(p, 3, true, 16, v1().params), (Spans{{0, 32}}));

  // 20 channels: runs of 60 in blocks of 64 (K 192). Per block, from the
  // boundary below the run's end (32, 96, 160), 32 columns each. 256 rows:
  // 3 * (4 + 8192 / 256) = 108 cycles against the whole row's 4 + 49152 / 256
  // = 196: the three clears. 16 rows: 3 * (4 + 2) = 18 against 4 + 12 = 16.
  ConvProblem q = conv3x3(20, 16, 8);
  EXPECT_EQ(gapClears(q, 20, false, 256, v1().params), (Spans{{32, 32}, {96, 32}, {160, 32}}));
  EXPECT_EQ(gapClears(q, 20, false, 16, v1().params), (Spans{{0, 192}}));

  // A 1x1 window of 32 channels fills its block: nothing to clear.
  ConvProblem r = conv3x3(32, 4, 8);
  r.window.KH = r.window.KW = 1;
  r.window.padTop = r.window.padLeft = r.window.padBottom = r.window.padRight = 0;
  EXPECT_TRUE(gapClears(r, 32, false, 16, v1().params).empty());
}

TEST(ConvTiling, StackedRowsAndExtraAccSlots) {
  ConvProblem p = conv3x3(3, 4, 8);
  // One row tile of all 4 output rows: 6 padded image rows, the first and the
  // last padding (image rows 1..4 are real). Output row r reads image row
  // r + kh: kernel row 0 reads row 0 (padding) for r = 0; kernel row 2 reads
  // row 5 (padding) for r = 3.
  RowGroup g;
  g.first = 0, g.count = 1, g.rows = 4, g.padTop = 1, g.padBottom = 1;
  StackedRows s = stackedRows(p.window, g, 0);
  EXPECT_EQ(s.top, 1);
  EXPECT_EQ(s.bottom, 0);
  s = stackedRows(p.window, g, 1);
  EXPECT_EQ(s.top, 0);
  EXPECT_EQ(s.bottom, 0);
  s = stackedRows(p.window, g, 2);
  EXPECT_EQ(s.top, 0);
  EXPECT_EQ(s.bottom, 1);

  // A float bias broadcast into the accumulators takes one more ACC slot in a
  // pipelined loop; not with the output stage, nor with one buffer.
  ConvProblem f = p;
  f.window.requant = false, f.window.bias = true;
  EXPECT_EQ(convExtraAccSlots(f, convTile(4, 8, 3, 2)), 1);
  EXPECT_EQ(convExtraAccSlots(f, convTile(4, 8, 3, 1)), 0);
  p.window.bias = true;
  EXPECT_EQ(convExtraAccSlots(p, convTile(4, 8, 3, 2)), 0);
}

TEST(ConvTiling, Footprint) {
  ConvProblem p = conv3x3(3, 4, 8);
  // 4 rows x 8 outputs, one chunk of 3, one buffer; m = 16 pixels.
  //   image: 6 rows x 32 = 192 -> slot 192; im2col: 16 x lda 96 = 1536;
  //   weights: 96 x ldb 64 = 6144; result: 16 x roundUp(8, 32) = 512;
  //   the row of zeros for the gaps: slot(96) = 128.
  //   LM 192 + 1536 + 6144 + 512 + 128 = 8512. ACC 16 x ldc 64 = 1024.
  TileFootprint f = footprint(p, convTile(4, 8, 3, 1), v1());
  EXPECT_EQ(f.lm, 8512);
  EXPECT_EQ(f.acc, 1024);
  // Stacked: image 4 rows x 64 = 256; im2col 16 x 32 = 512; weights 32 x 64
  // = 2048; result 512; zeros slot(32) = 64. LM 3392; ACC 1024.
  f = footprint(p, convTile(4, 8, 3, 1, /*stacked=*/true), v1());
  EXPECT_EQ(f.lm, 3392);
  EXPECT_EQ(f.acc, 1024);
}

TEST(ConvTiling, CheckTilingRefusals) {
  ConvProblem p = conv3x3(3, 4, 8);
  EXPECT_EQ(reason(checkTiling(p, convTile(4, 8, 3, 1), v1())), kFits);
  EXPECT_EQ(reason(checkTiling(p, convTile(4, 8, 3, 1, /*stacked=*/true), v1())), kFits);
  ConvProblem q = p;
  q.window.dw = 2;
  EXPECT_EQ(reason(checkTiling(q, convTile(4, 8, 3, 1), v1())),
            "a dilated row (dilation 2) is not one run of the image");
  q = p;
  q.window.padLeft = 256;
  EXPECT_EQ(reason(checkTiling(q, convTile(4, 8, 3, 1), v1())),
            "padding 256 exceeds the dma_in_pad fields (255)");
  EXPECT_EQ(reason(checkTiling(p, convTile(5, 8, 3, 1), v1())),
            "tile 5 rows x 8 channels (chunks of 3) is outside [1, 4] x [1, 8] ([1, 3])");
  // Several chunks take one buffer.
  EXPECT_EQ(reason(checkTiling(p, convTile(4, 8, 2, 2), v1())), "buffers 2 is outside [1, 1]");
  EXPECT_EQ(reason(checkTiling(p, convTile(4, 8, 2, 1), v1())), kFits);
  // 2048 channels in one chunk: K = 3 * roundUp(3 * 2048, 32) = 18,432 > 4095.
  EXPECT_EQ(reason(checkTiling(conv3x3(2048, 4, 8), convTile(4, 8, 2048, 1), v1())),
            "the product 16x18432 by 18432x8 exceeds the matmul and mm_out extents (4095)");
  // Resident weights need rows of whole 64 B blocks: 8 int8 outputs are 8 B.
  EXPECT_EQ(reason(checkTiling(p, convTile(4, 8, 3, 1, false, /*resident=*/true), v1())),
            "resident weights need rows, group and channel tiles of whole 64-byte blocks and "
            "rows within the mm_cfg field");
  // Stacked, one output row per tile: the first tile's kernel row 0 reads
  // only the top padding.
  EXPECT_EQ(reason(checkTiling(p, convTile(1, 8, 3, 1, /*stacked=*/true), v1())),
            "kernel row 0 of row tile 0 reads only padding, which a stacked image has no DMA "
            "for");
}

TEST(ConvTiling, EstimateOneTile) {
  ConvProblem p = conv3x3(3, 4, 8);
  // One tile: 4 rows x 8 outputs, one chunk of 3, one buffer; m = 16.
  //   image: 3 channels x 4 real rows x 4 B contiguous = 48 B, a burst -> 1.
  //   weights: 96 rows x 8 B contiguous = 768 B -> 12.            Loads 13.
  //   gathers: 4 rows x 3 kernel rows x (4 + ceil(4 * 3 * 3 / 256)) = 12 x 5
  //     = 60; gap clear (GapClears) 10.                            VECTOR 70.
  //   MATRIX: 2 * 64 + ceil(96 / 64) * ceil(8 / 64) = 2 passes * 64 = 256.
  //   drain: ceil(16 * 8 / 64) = 2.  store: 8 x 16 B contiguous, 128 B -> 2.
  //   200 + 13 + 70 + 256 + 2 + 200 + 2 = 743; GM 48 + 768 + 128 = 944.
  ConvTiling t = estimated(p, convTile(4, 8, 3, 1));
  EXPECT_EQ(t.cycles, 743u);
  EXPECT_EQ(t.gmBytes, 944u);
  // Stacked: per kernel row 0, 1, 2 the image rows it reaches, 3, 4, 3 rows
  // of 3 channels: 3 runs of 12 B (3 bursts, 3 cycles, 36 B), one run of 48 B
  // (1, 48 B), 3 runs (3, 36 B); weights 32 x 8 = 256 B -> 4.       Loads 11.
  //   gathers: 4 rows x (4 + ceil(4 * 3 * 3 * 3 / 256)) = 20; clear 4 +
  //   ceil(16 * 32 / 256) = 6.                                        VECTOR 26.
  //   MATRIX: 128 + 1 pass * 64 = 192. Drain 2, store 2.
  //   200 + 11 + 26 + 192 + 2 + 200 + 2 = 633; GM 120 + 256 + 128 = 504.
  t = estimated(p, convTile(4, 8, 3, 1, /*stacked=*/true));
  EXPECT_EQ(t.cycles, 633u);
  EXPECT_EQ(t.gmBytes, 504u);
}
