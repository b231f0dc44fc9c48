//===- MatmulTilingTest.cpp - The MATRIX product cost model, by hand ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every expected value is worked out by hand from the model's stated formulas
// (MatmulTiling.cpp), the timing function (npu-v1.md section 9, Timing.cpp)
// and the target parameters (Target.td), shown in the comments. Where a number
// would take a simulation to derive, a property is tested instead.
//
// npu-v1:      LM 1,048,576  ACC 262,144  A(int8/f16/f32) 64/32/16
//              GM 64 B/cycle, burst 64 B, DMA start 200, 4 in flight
//              VectorAlign 32, MatrixAlign 64
// npu-v1-tiny: LM 131,072    ACC 32,768   A(int8/f16/f32) 32/16/8
//              GM 16 B/cycle, burst 32 B, DMA start 200, 2 in flight
//              VectorAlign 32, MatrixAlign 64
// ISA: MATMUL m/n/k fields [1, 4095]; mm_cfg pitches at most 65,535 bytes.
//
//===----------------------------------------------------------------------===//

#include "npuc/Schedule/MatmulTiling.h"

#include "ScheduleTest.h"
#include "npuc/Base/Target.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace npuc;
using namespace npuc::emit::lowering;
using namespace npuc::schedule_test;

namespace {

/// An int8 x int8 product [M x K] x [K x N] with an int32 result (4 bytes).
MatmulProblem int8Product(int64_t M, int64_t N, int64_t K, int64_t outBytes = 4) {
  MatmulProblem p;
  p.M = M, p.N = N, p.K = K;
  p.aBytes = 1, p.bBytes = 1, p.outBytes = outBytes;
  p.mode = isa::MmMode::I8I8;
  return p;
}

MatmulTiling tile(int64_t mt, int64_t nt, int64_t kt, int64_t buffers) {
  MatmulTiling t;
  t.mt = mt, t.nt = nt, t.kt = kt, t.buffers = buffers;
  return t;
}

MatmulTiling estimated(const MatmulProblem &p, MatmulTiling t, const target::TargetInfo &target) {
  estimate(p, t, target);
  return t;
}

bool sameParts(const std::vector<TilePart> &got, const std::vector<TilePart> &want) {
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i].size != want[i].size || got[i].count != want[i].count ||
        got[i].first != want[i].first)
      return false;
  return true;
}
} // namespace

TEST(MatmulTiling, SharedArithmetic) {
  EXPECT_EQ(tiling::roundUp(65, 64), 128);
  EXPECT_EQ(tiling::roundUp(64, 64), 64);
  EXPECT_EQ(tiling::ceilDiv(65, 64), 2);
  EXPECT_EQ(tiling::ceilDiv(64, 64), 1);
  EXPECT_EQ(tiling::kAccBytes, 4);
  EXPECT_EQ(tiling::kParamBytes, 16);
  EXPECT_EQ(tiling::kMaxBuffers, 2);
}

TEST(MatmulTiling, TilePartsAreFullTilesThenTheRemainder) {
  // 10 by 4: two full tiles at 0 (and 4), then a tile of 10 % 4 = 2 at 8.
  EXPECT_TRUE(sameParts(tileParts(10, 4), {{4, 2, 0}, {2, 1, 8}}));
  // 8 by 4: no remainder part.
  EXPECT_TRUE(sameParts(tileParts(8, 4), {{4, 2, 0}}));
  // 3 by 4: no full tile; the remainder is the whole extent, at 0.
  EXPECT_TRUE(sameParts(tileParts(3, 4), {{3, 1, 0}}));
  // Nothing to tile: no parts.
  EXPECT_TRUE(tileParts(0, 4).empty());
}

TEST(MatmulTiling, ProductLoopsPeelTheRemaindersRowsFirst) {
  // M = 100 by mt = 64: one full row of tiles at 0, a remainder of 36 at 64;
  // N = 70 by nt = 32: two full columns of tiles at 0, a remainder of 6 at
  // 64. Four loops, each of one tile shape, the rows outermost.
  std::vector<ProductLoop> loops = productLoops(int8Product(100, 70, 8), tile(64, 32, 8, 1));
  ASSERT_EQ(loops.size(), 4u);
  const TilePart want[4][2] = {{{64, 1, 0}, {32, 2, 0}},
                               {{64, 1, 0}, {6, 1, 64}},
                               {{36, 1, 64}, {32, 2, 0}},
                               {{36, 1, 64}, {6, 1, 64}}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(sameParts({loops[i].m}, {want[i][0]})) << "loop " << i << " rows";
    EXPECT_TRUE(sameParts({loops[i].n}, {want[i][1]})) << "loop " << i << " columns";
  }
  // Tiles that divide the product: one loop; tiles larger than it: one
  // loop of one tile of the whole product.
  loops = productLoops(int8Product(128, 64, 8), tile(64, 32, 8, 1));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(sameParts({loops[0].m, loops[0].n}, {{64, 2, 0}, {32, 2, 0}}));
  loops = productLoops(int8Product(10, 20, 8), tile(64, 64, 8, 1));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(sameParts({loops[0].m, loops[0].n}, {{10, 1, 0}, {20, 1, 0}}));
}

TEST(MatmulTiling, ExtentCandidates) {
  using V = std::vector<int64_t>;
  // 100 on A = 64: the whole 100; powers 64 (128 is not < 100); every split
  // ceil(100/q) for q = 2..16 (50 .. 7) rounds up to 64.
  EXPECT_EQ(extentCandidates(100, 64, 4095), (V{64, 100}));
  // 256: the whole; powers 64, 128; splits 128 (q=2,3: 128, 86), 64 (q >= 4).
  EXPECT_EQ(extentCandidates(256, 64, 4095), (V{64, 128, 256}));
  // 48 < A: only the whole (64 is not < 48, nor is any split rounded to 64).
  EXPECT_EQ(extentCandidates(48, 64, 4095), (V{48}));
  // 300 above a limit of 200: not the whole; powers 64, 128 (256 > 200);
  // splits: q=2 150 -> 192, q=3 100 -> 128, q=4 75 -> 128, q>=5 -> 64.
  EXPECT_EQ(extentCandidates(300, 64, 200), (V{64, 128, 192}));
  // Nothing at or under the limit 50 (every candidate is >= 64): the fallback
  // max(1, min(100, 50 / 64 * 64 = 0)) = 1.
  EXPECT_EQ(extentCandidates(100, 64, 50), (V{1}));
  // A side of 1 (im2col's output rows): 5; powers 1, 2, 4; splits 3, 2, 2, 1...
  EXPECT_EQ(extentCandidates(5, 1, 4095), (V{1, 2, 3, 4, 5}));
}

TEST(MatmulTiling, FootprintOfARequantizedProductWithBias) {
  // int8 64 x 64 x 128 requantized to int8, a per-column int32 bias; tile
  // 64 x 64 x 128 (one chunk along K: no ring).
  MatmulProblem p = int8Product(64, 64, 128, /*outBytes=*/1);
  p.requant = true;
  p.bias = true;
  // A: slot(64 rows * roundUp(128 B, 64) = 8192) = 8192
  // B: slot(128 rows * roundUp(64 B, 64) = 8192) = 8192
  // result: slot(64 * roundUp(64 * 1, 32) = 4096) = 4096
  // bias: slot(roundUp(64 * 4 = 256, 32)) = 256
  // LM = 8192 + 8192 + 4096 + 256 = 20736; ACC = slot(64 * roundUp(256, 64)) = 16384.
  TileFootprint f = footprint(p, tile(64, 64, 128, 1), v1());
  EXPECT_EQ(f.lm, 20736);
  EXPECT_EQ(f.acc, 16384);
  // Two rotating slots double both: 41472 and 32768.
  f = footprint(p, tile(64, 64, 128, 2), v1());
  EXPECT_EQ(f.lm, 41472);
  EXPECT_EQ(f.acc, 32768);
  // Chunks of 64 along K = 128: the operands go to a ring of 2 of their own,
  // operands = slot(64 * 64) + slot(64 * 64) = 8192; per buffer 4096 + 256;
  // LM = 2 * 4352 + 2 * 8192 = 25088; ACC = 2 * 16384 = 32768.
  f = footprint(p, tile(64, 64, 64, 2), v1());
  EXPECT_EQ(f.lm, 25088);
  EXPECT_EQ(f.acc, 32768);
  // A per-column requantization table adds slot(64 * 16) = 1024 per buffer:
  // with chunks of 128 and one buffer, 20736 + 1024 = 21760.
  p.requantTable = true;
  EXPECT_EQ(footprint(p, tile(64, 64, 128, 1), v1()).lm, 21760);
}

TEST(MatmulTiling, FootprintPadsRowsAndClampsToTheProblem) {
  // int8 10 x 10 x 10, int32 result (kept in ACC, nothing in LM for it). A
  // 64 x 64 x 64 tile is clamped to 10 x 10 x 10, and K = 10 is no ring.
  // A: slot(10 * roundUp(10, 64) = 640) = 640; B: slot(10 * 64) = 640.
  // ACC: slot(10 * roundUp(10 * 4, 64) = 640) = 640.
  TileFootprint f = footprint(int8Product(10, 10, 10), tile(64, 64, 64, 1), v1());
  EXPECT_EQ(f.lm, 1280);
  EXPECT_EQ(f.acc, 640);

  // f16 32 x 32 x 32 stored as f16: A and B slot(32 * roundUp(64, 64)) = 2048
  // each; the f16 result slot(32 * roundUp(32 * 2, 32) = 2048); LM 6144.
  // ACC: slot(32 * roundUp(32 * 4, 64) = 4096).
  MatmulProblem h;
  h.M = h.N = h.K = 32;
  h.aBytes = h.bBytes = h.outBytes = 2;
  h.mode = isa::MmMode::F16;
  f = footprint(h, tile(32, 32, 32, 1), v1());
  EXPECT_EQ(f.lm, 6144);
  EXPECT_EQ(f.acc, 4096);

  // f32 16 x 16 x 16 with a per-row bias and Gemm's addend C: A and B
  // slot(16 * roundUp(64, 64)) = 1024 each; bias slot(16 * 4 = 64) = 64;
  // addend slot(16 * roundUp(64, 32)) = 1024; LM 3136. ACC slot(16 * 64) = 1024.
  MatmulProblem g;
  g.M = g.N = g.K = 16;
  g.aBytes = g.bBytes = g.outBytes = 4;
  g.mode = isa::MmMode::F32;
  g.bias = g.biasPerRow = g.addend = true;
  f = footprint(g, tile(16, 16, 16, 1), v1());
  EXPECT_EQ(f.lm, 3136);
  EXPECT_EQ(f.acc, 1024);
}

TEST(MatmulTiling, CheckTilingRefusesTheIsaFields) {
  MatmulProblem p = int8Product(64, 64, 64);
  EXPECT_EQ(reason(checkTiling(p, tile(64, 64, 64, 1), v1())), kFits);
  // MATMUL's m, n, k fields hold [1, 4095].
  EXPECT_EQ(reason(checkTiling(p, tile(4096, 64, 64, 1), v1())),
            "tile 4096x64x64 is outside the MATRIX extent fields [1, 4095]");
  EXPECT_EQ(reason(checkTiling(p, tile(64, 0, 64, 1), v1())),
            "tile 64x0x64 is outside the MATRIX extent fields [1, 4095]");
  EXPECT_EQ(reason(checkTiling(p, tile(64, 64, 4096, 1), v1())),
            "tile 64x64x4096 is outside the MATRIX extent fields [1, 4095]");
  // At most two rotating slots.
  EXPECT_EQ(reason(checkTiling(p, tile(64, 64, 64, 3), v1())), "buffers 3 is outside [1, 2]");
  EXPECT_EQ(reason(checkTiling(p, tile(64, 64, 64, 0), v1())), "buffers 0 is outside [1, 2]");
}

TEST(MatmulTiling, CheckTilingFitsAccExactlyAndNotOneRowMore) {
  // int8 256 x 256 x 64, int32 result. ACC per tile row: roundUp(256 * 4, 64)
  // = 1024 bytes; 256 rows take 262,144 = npu-v1's ACC exactly. LM:
  // slot(256 * 64) + slot(64 * 256) = 32768, far below.
  EXPECT_EQ(reason(checkTiling(int8Product(256, 256, 64), tile(256, 256, 64, 1), v1())), kFits);
  // One row more: 257 * 1024 = 263,168.
  EXPECT_EQ(reason(checkTiling(int8Product(257, 256, 64), tile(257, 256, 64, 1), v1())),
            "its accumulators take 263168 bytes of ACC; npu-v1 has 262144");
  // A 257-row tile of a 256-row problem is clamped to 256: it fits.
  EXPECT_EQ(reason(checkTiling(int8Product(256, 256, 64), tile(257, 256, 64, 1), v1())), kFits);
  // Two slots of the exact fit: 2 * 262,144.
  EXPECT_EQ(reason(checkTiling(int8Product(256, 256, 64), tile(256, 256, 64, 2), v1())),
            "its accumulators take 524288 bytes of ACC; npu-v1 has 262144");

  // npu-v1-tiny: 32 rows of 256 int32 sums = 32 * 1024 = 32,768, its ACC
  // exactly (LM: slot(32 * roundUp(32, 64)) + slot(32 * 256) = 10240).
  EXPECT_EQ(reason(checkTiling(int8Product(32, 256, 32), tile(32, 256, 32, 1), tiny())), kFits);
  EXPECT_EQ(reason(checkTiling(int8Product(33, 256, 32), tile(33, 256, 32, 1), tiny())),
            "its accumulators take 33792 bytes of ACC; npu-v1-tiny has 32768");
  // The same tile on npu-v1 fits.
  EXPECT_EQ(reason(checkTiling(int8Product(33, 256, 32), tile(33, 256, 32, 1), v1())), kFits);
}

TEST(MatmulTiling, CheckTilingFitsLmExactlyAndNotOneRowMore) {
  // f32 64 x 64 x 1024 in one chunk, two slots. A: slot(64 * roundUp(1024 * 4,
  // 64)) = 262,144; B: slot(1024 * roundUp(64 * 4, 64)) = 262,144; per slot
  // 524,288, two slots 1,048,576 = npu-v1's LM exactly. ACC 2 * 64 * 256 = 32768.
  MatmulProblem p;
  p.M = 64, p.N = 64, p.K = 1024;
  p.aBytes = p.bBytes = p.outBytes = 4;
  p.mode = isa::MmMode::F32;
  EXPECT_EQ(reason(checkTiling(p, tile(64, 64, 1024, 2), v1())), kFits);
  // One row more of A: slot(65 * 4096) = 266,240; (266,240 + 262,144) * 2 = 1,056,768.
  p.M = 65;
  EXPECT_EQ(reason(checkTiling(p, tile(65, 64, 1024, 2), v1())),
            "its tiles take 1056768 bytes of LM; npu-v1 has 1048576");
  // With one slot it fits again (528,384).
  EXPECT_EQ(reason(checkTiling(p, tile(65, 64, 1024, 1), v1())), kFits);
}

TEST(MatmulTiling, CheckFits) {
  TileFootprint f;
  f.lm = 1048576, f.acc = 262144;  // npu-v1 exactly
  EXPECT_EQ(reason(checkFits(f, v1(), "accumulators")), kFits);
  f.lm = 1048577;
  EXPECT_EQ(reason(checkFits(f, v1(), "accumulators")),
            "its tiles take 1048577 bytes of LM; npu-v1 has 1048576");
  // LM is named first when both overflow.
  f.acc = 262145;
  EXPECT_EQ(reason(checkFits(f, v1(), "sums")),
            "its tiles take 1048577 bytes of LM; npu-v1 has 1048576");
  f.lm = 0;
  EXPECT_EQ(reason(checkFits(f, v1(), "sums")),
            "its sums take 262145 bytes of ACC; npu-v1 has 262144");
  // npu-v1-tiny: 131,072 and 32,768.
  f.lm = 131072, f.acc = 32768;
  EXPECT_EQ(reason(checkFits(f, tiny(), "sums")), kFits);
  f.acc = 32769;
  EXPECT_EQ(reason(checkFits(f, tiny(), "sums")),
            "its sums take 32769 bytes of ACC; npu-v1-tiny has 32768");
}

TEST(MatmulTiling, EstimateOneTileOnNpuV1) {
  // int8 64 x 64 x 64, int32 result, one 64 x 64 x 64 tile, one buffer.
  // A: 64 rows of 64 B, 64 apart: one run of 4096 B -> 4096 / 64 = 64 cycles.
  // B: the same, 64 cycles. Loads 128.
  // MATRIX: 2A + ceil(64/64) * ceil(64/64) passes * max(64, 64) = 128 + 64 = 192.
  // Store: 64 rows of 64 int32 (256 B), 256 apart: one run of 16,384 B -> 256.
  // In order: 200 + (128 + 192) + 200 + 256 = 976.
  // GM: 4096 + 4096 + 16384 = 24,576 (A + B + C, each moved once).
  MatmulTiling t = estimated(int8Product(64, 64, 64), tile(64, 64, 64, 1), v1());
  EXPECT_EQ(t.cycles, 976u);
  EXPECT_EQ(t.gmBytes, 24576u);
  // A transposed A (rows 1 B apart, columns 64 B apart) moves in run order,
  // the 1-byte stride innermost: still one run of 4096 B, the same estimate.
  MatmulProblem p = int8Product(64, 64, 64);
  p.transA = true;
  t = estimated(p, tile(64, 64, 64, 1), v1());
  EXPECT_EQ(t.cycles, 976u);
  EXPECT_EQ(t.gmBytes, 24576u);
}

TEST(MatmulTiling, EstimateARemainderOfRows) {
  // int8 100 x 64 x 64, tiles 64 x 64 x 64: one tile of 64 rows (976 cycles,
  // 24,576 B as above) and one of 36 rows:
  //   A: 36 rows of 64 B contiguous, 2304 B -> 36 cycles; B 4096 B -> 64.
  //   MATRIX: 128 + 1 pass * max(36, 64) = 192.
  //   Store: 36 rows of 256 B contiguous, 9216 B -> 144.
  //   200 + (100 + 192) + 200 + 144 = 836; GM 2304 + 4096 + 9216 = 15,616.
  // Total 976 + 836 = 1812 cycles; 24,576 + 15,616 = 40,192 B
  // (= A 6400 + B 4096 twice + C 25,600).
  MatmulTiling t = estimated(int8Product(100, 64, 64), tile(64, 64, 64, 1), v1());
  EXPECT_EQ(t.cycles, 1812u);
  EXPECT_EQ(t.gmBytes, 40192u);
}

TEST(MatmulTiling, EstimateNarrowTilesPayBursts) {
  // int8 64 x 64 x 64, tiles 64 x 32 x 64: two tiles along N.
  //   A: 64 x 64 contiguous, 4096 B -> 64 cycles (loaded again per tile).
  //   B: 64 runs of 32 B (64 apart), each a 64 B burst: 4096 bus B -> 64; data 2048.
  //   MATRIX: 128 + ceil(64/64) * ceil(32/64) = 1 pass * 64 = 192.
  //   Store: 64 runs of 32 int32 = 128 B (256 apart): 8192 B -> 128.
  //   Per tile 200 + (128 + 192) + 200 + 128 = 848; two: 1696.
  // GM: 2 * (4096 + 2048 + 8192) = 28,672 (A twice + B + C).
  MatmulTiling t = estimated(int8Product(64, 64, 64), tile(64, 32, 64, 1), v1());
  EXPECT_EQ(t.cycles, 1696u);
  EXPECT_EQ(t.gmBytes, 28672u);
}

TEST(MatmulTiling, EstimateChunksAlongK) {
  MatmulProblem p = int8Product(64, 64, 128);
  // Chunks of 64 along K = 128, one buffer:
  //   per chunk A: 64 runs of 64 B (128 apart) = 4096 bus B -> 64; B: 4096 B -> 64.
  //   firstLoad 128, loads 2 * 128 = 256; MATRIX 2 * 192 = 384.
  //   Body: firstLoad + max(loads - firstLoad, MATRIX) = 128 + max(128, 384) = 512.
  //   Store 16,384 B -> 256. 200 + 512 + 200 + 256 = 1168.
  //   GM: 2 * 8192 + 16,384 = 32,768.
  MatmulTiling t = estimated(p, tile(64, 64, 64, 1), v1());
  EXPECT_EQ(t.cycles, 1168u);
  EXPECT_EQ(t.gmBytes, 32768u);
  // One chunk of 128: A 8192 B -> 128, B 8192 B -> 128; MATRIX 128 + 2 passes
  // * 64 = 256; 200 + (256 + 256) + 200 + 256 = 1168, GM 32,768 again.
  t = estimated(p, tile(64, 64, 128, 1), v1());
  EXPECT_EQ(t.cycles, 1168u);
  EXPECT_EQ(t.gmBytes, 32768u);
}

TEST(MatmulTiling, EstimateOnNpuV1TinyWithTheOutputStage) {
  // npu-v1-tiny, int8 32 x 32 x 32 requantized to int8 through the output
  // stage, a per-column int32 bias; one 32 x 32 x 32 tile, one buffer.
  //   A: 1024 B contiguous -> 1024 / 16 = 64 cycles; B: 64.
  //   bias: 32 int32 = 128 B (>= the 32 B burst) -> 8.   Loads 136.
  //   MATRIX: 2 * 32 + 1 pass * max(32, 32) = 96.
  //   Drain: ceil(32 * 32 / 32) = 32 (bias in the stage: no VECTOR pass).
  //   Store: 1024 B -> 64.
  //   200 + (136 + 96) + 32 + 200 + 64 = 728.
  // GM: 1024 + 1024 + 128 + 1024 = 3200.
  MatmulProblem p = int8Product(32, 32, 32, /*outBytes=*/1);
  p.requant = true;
  p.bias = true;
  MatmulTiling t = estimated(p, tile(32, 32, 32, 1), tiny());
  EXPECT_EQ(t.cycles, 728u);
  EXPECT_EQ(t.gmBytes, 3200u);
}

TEST(MatmulTiling, EstimateDoubleBuffered) {
  // int8 256 x 64 x 64 in four 64 x 64 x 64 tiles (each as in
  // EstimateOneTileOnNpuV1: loads 128 as descriptors of 4096 + 4096 bus B,
  // MATRIX 192, store 256 as one descriptor of 16,384 B).
  MatmulProblem p = int8Product(256, 64, 64);
  // One buffer: 4 * 976 = 3904.
  MatmulTiling one = estimated(p, tile(64, 64, 64, 1), v1());
  EXPECT_EQ(one.cycles, 3904u);
  // Two: steady = max(MATRIX 192, dmaSteadyCycles({4096, 4096}, {16384})).
  // The DMA term is at least the bus time of one repetition, 64 + 64 + 256 =
  // 384; worked through the timeline by hand, both engines' periods (284
  // and 320) stay under it, so it is 384. Cycles: 4 * 384 + (200 + firstLoad
  // 128 + 200 + 256) = 1536 + 784 = 2320.
  MatmulTiling two = estimated(p, tile(64, 64, 64, 2), v1());
  EXPECT_EQ(two.cycles, 2320u);
  // Property, whatever the DMA term: never below 4 * 384 + 784 = 2320, and
  // overlapping beats the in-order loop here.
  EXPECT_GE(two.cycles, 2320u);
  EXPECT_LT(two.cycles, one.cycles);
  // The bytes do not depend on the buffers: A 16,384 + B 4096 * 4 + C 65,536.
  EXPECT_EQ(one.gmBytes, 98304u);
  EXPECT_EQ(two.gmBytes, 98304u);
}

TEST(MatmulTiling, MoreKNeverCostsLess) {
  // A fixed 64 x 64 x 64 tiling, K growing (with remainders): cycles never
  // fall and the GM bytes grow (A and B grow with K, C does not).
  uint64_t cycles = 0, bytes = 0;
  for (int64_t K : {32, 64, 96, 128, 160, 192, 256, 320, 1000}) {
    MatmulTiling t = estimated(int8Product(64, 64, K), tile(64, 64, 64, 1), v1());
    EXPECT_GE(t.cycles, cycles) << "K = " << K;
    EXPECT_GT(t.gmBytes, bytes) << "K = " << K;
    // A single 64 x 64 result tile moves A, B and C once each:
    // 64 * K + K * 64 + 64 * 64 * 4 bytes.
    EXPECT_EQ(t.gmBytes, uint64_t(64 * K + K * 64 + 16384)) << "K = " << K;
    cycles = t.cycles, bytes = t.gmBytes;
  }
}

TEST(MatmulTiling, ChooseTheOnlyShapeOfASmallProduct) {
  // int8 64 x 64 x 64 on npu-v1: every extent's candidates are {64} (64 is
  // not < 64, and every split rounds up to 64), so the choice is the buffers.
  // One buffer: 976 (EstimateOneTileOnNpuV1). Two: steady >= the bus time of
  // the DMAs, 64 + 64 + 256 = 384, plus 200 + 128 + 200 + 256 = 784: >= 1168.
  std::optional<MatmulTiling> t = chooseMatmulTiling(int8Product(64, 64, 64), v1());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->mt, 64);
  EXPECT_EQ(t->nt, 64);
  EXPECT_EQ(t->kt, 64);
  EXPECT_EQ(t->buffers, 1);
  EXPECT_EQ(t->cycles, 976u);
  EXPECT_EQ(t->gmBytes, 24576u);
}

TEST(MatmulTiling, ChooseTheFewestIterationsOnATie) {
  // int8 64 x 64 x 128 on npu-v1: mt, nt in {64}; kt in {64, 128}.
  //   kt 64, 1 buffer: 1168 cycles, 32,768 B, 2 iterations (EstimateChunksAlongK).
  //   kt 128, 1 buffer: 1168 cycles, 32,768 B, 1 iteration.
  //   kt 128, 2 buffers: steady >= bus 128 + 128 + 256 = 512 -> >= 512 + 200
  //     + 256 + 200 + 256 = 1424.
  //   kt 64, 2 buffers: steady >= bus 4 * 64 + 256 = 512 -> >= 512 + 200 + 128
  //     + 200 + 256 = 1296.
  // Cycles and bytes tie; the fewest iterations decide: one chunk of 128.
  std::optional<MatmulTiling> t = chooseMatmulTiling(int8Product(64, 64, 128), v1());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->mt, 64);
  EXPECT_EQ(t->nt, 64);
  EXPECT_EQ(t->kt, 128);
  EXPECT_EQ(t->buffers, 1);
  EXPECT_EQ(t->cycles, 1168u);
  EXPECT_EQ(t->gmBytes, 32768u);
}

TEST(MatmulTiling, ASharedBHeldWholeIsNotChargedItsLoad) {
  // int8 64 x 64 x 64, one tile, one buffer (EstimateOneTileOnNpuV1: 976
  // cycles, 24,576 B). With B shared and held whole (nt = N, kt = K), B's
  // 64 cycles and 4096 B are not this product's: 976 - 64 = 912 cycles,
  // 24,576 - 4096 = 20,480 B. A tile of half of B's columns holds only part
  // of it: charged as before (both tiles load their half).
  MatmulProblem p = int8Product(64, 64, 64);
  p.sharedB = true;
  MatmulTiling whole = estimated(p, tile(64, 64, 64, 1), v1());
  EXPECT_TRUE(holdsSharedB(p, whole));
  EXPECT_EQ(whole.cycles, 912u);
  EXPECT_EQ(whole.gmBytes, 20480u);
  MatmulTiling half = estimated(p, tile(64, 32, 64, 1), v1());
  EXPECT_FALSE(holdsSharedB(p, half));
  p.sharedB = false;
  MatmulTiling unshared = estimated(p, tile(64, 32, 64, 1), v1());
  EXPECT_EQ(half.cycles, unshared.cycles);
  EXPECT_EQ(half.gmBytes, unshared.gmBytes);
}

TEST(MatmulTiling, ARecurrentStepHoldsItsSharedWeightsWhole) {
  // An LSTM step on npu-v1: h [1 x 64] x R^T [64 x 256], f32. Unshared, the
  // model streams R in column tiles; shared (every step reads R), it holds
  // all of R in one tile, whose load the first step pays once for all.
  MatmulProblem p;
  p.M = 1, p.N = 256, p.K = 64;
  p.aBytes = p.bBytes = p.outBytes = 4;
  p.mode = isa::MmMode::F32;
  std::optional<MatmulTiling> streamed = chooseMatmulTiling(p, v1());
  ASSERT_TRUE(streamed.has_value());
  EXPECT_FALSE(streamed->nt >= 256 && streamed->kt >= 64 && streamed->buffers == 1);
  p.sharedB = true;
  std::optional<MatmulTiling> held = chooseMatmulTiling(p, v1());
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->nt, 256);
  EXPECT_EQ(held->kt, 64);
  EXPECT_TRUE(holdsSharedB(p, *held));
  EXPECT_LT(held->gmBytes, streamed->gmBytes);
}
