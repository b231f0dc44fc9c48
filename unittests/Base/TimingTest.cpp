//===- TimingTest.cpp - The timing function against npu-v1.md section 9 ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every expected value is worked out by hand from the formulas of
// npu-v1.md section 9 and the parameters of its table (shown in comments).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Base/Timing.h"

#include <gtest/gtest.h>

using namespace npuc;
using namespace npuc::timing;

namespace {
const TargetParams &v1() { return target::lookupTarget("npu-v1")->params; }
const TargetParams &tiny() { return target::lookupTarget("npu-v1-tiny")->params; }

GMAccess access(std::array<int64_t, 4> extent, std::array<int64_t, 4> stride, unsigned elem) {
  GMAccess a;
  a.extent = extent;
  a.stride = stride;
  a.elemBytes = elem;
  return a;
}
} // namespace

TEST(Timing, MatmulFollowsTheArrayGeometry) {
  // A depthwise-like [9 x 9] x [9 x 1] int8: one pass of an A = 64 array that
  // streams max(9, 64) rows, plus 2A fill and drain: 128 + 64.
  EXPECT_EQ(matmulCycles(v1(), isa::MmMode::I8I8, 9, 1, 9), 192u);
  // 512 x 2048 x 512 int8: 32 * 8 passes of 512 rows: 128 + 131072.
  EXPECT_EQ(matmulPasses(v1(), isa::MmMode::U8I8, 512, 2048), 256u);
  EXPECT_EQ(matmulCycles(v1(), isa::MmMode::U8I8, 512, 512, 2048), 131200u);
  // f32 on A = 16: ceil(33/16) * ceil(20/16) = 6 passes of 100 rows: 32 + 600.
  EXPECT_EQ(matmulCycles(v1(), isa::MmMode::F32, 100, 20, 33), 632u);
  // f16 on A = 32: one pass; m = 40 rows: 64 + 40.
  EXPECT_EQ(matmulCycles(v1(), isa::MmMode::F16, 40, 32, 32), 104u);
  // npu-v1-tiny int8, A = 32: a single row still pays a 32-row pass: 64 + 4 * 32.
  EXPECT_EQ(matmulCycles(tiny(), isa::MmMode::I8I8, 1, 64, 64), 192u);
}

TEST(Timing, VectorPaysItsStartAndItsWidestOperand) {
  // 4 + ceil(1000 * 4 / 256) = 4 + 16; tiny: 4 + ceil(1000 / 64) = 4 + 16.
  EXPECT_EQ(vectorCycles(v1(), 1000, 4), 20u);
  EXPECT_EQ(vectorCycles(tiny(), 1000, 1), 20u);
  EXPECT_EQ(vectorCycles(v1(), 256, 1), 5u);
  EXPECT_EQ(vectorCycles(v1(), 0, 4), 4u);
}

// V_DW: lanes / element bytes MACs per cycle. One output row of a 3x3
// depthwise layer over 32 channels of 112 columns is 32 * 112 * 9 = 32,256 MACs.
TEST(Timing, DepthwiseStreamsItsOperandsAtTheirWidth) {
  EXPECT_EQ(depthwiseCycles(v1(), 32256, 1), 4u + 126u);    // 256 int8 lanes
  EXPECT_EQ(depthwiseCycles(v1(), 32256, 4), 4u + 504u);    // fp32: 64 per cycle
  EXPECT_EQ(depthwiseCycles(tiny(), 32256, 1), 4u + 504u);  // 64 int8 lanes
  // Against the array: per channel a [112 x 9] x [9 x 1] product is one pass
  // of 112 rows plus fill and drain, 2 * 64 + 112 = 240 cycles, 32 of them
  // 7,680: 59x the VECTOR form.
  EXPECT_EQ(32 * matmulCycles(v1(), isa::MmMode::U8U8, 112, 1, 9), 7680u);
}

TEST(Timing, ArrayDepthwiseIsAProductOfTapsByChannels) {
  // MM_DW: k = taps down a column, n = channels across, m = output pixels.
  // 144 int8 channels, 3x3, 56 x 56 outputs: 2 * 64 + ceil(9/64) *
  // ceil(144/64) * 3136 = 128 + 3 * 3136 = 9536.
  EXPECT_EQ(arrayDepthwiseCycles(v1(), isa::MmMode::I8I8, 144, 9, 3136), 9536u);
  // fp32 (side 16): 32 + 1 * 9 * 3136 = 28256; tiny int8 (side 32):
  // 64 + 1 * 5 * 3136 = 15744.
  EXPECT_EQ(arrayDepthwiseCycles(v1(), isa::MmMode::F32, 144, 9, 3136), 28256u);
  EXPECT_EQ(arrayDepthwiseCycles(tiny(), isa::MmMode::I8I8, 144, 9, 3136), 15744u);
  // A 5x5 window on fp32: 25 taps take ceil(25/16) = 2 weight blocks per
  // 16 channels; a pass of fewer than A pixels still takes A cycles:
  // 32 + 2 * 1 * 16 = 64.
  EXPECT_EQ(arrayDepthwiseCycles(v1(), isa::MmMode::F32, 16, 25, 7), 64u);
}

TEST(Timing, EveryContiguousRunCostsABurst) {
  // One contiguous run of 1000 bytes.
  EXPECT_EQ(busBytes(v1(), access({1000, 1, 1, 1}, {1, 0, 0, 0}, 1)), 1000u);
  // Ten 16-byte rows 100 bytes apart: ten runs of at least 64 bytes.
  EXPECT_EQ(busBytes(v1(), access({16, 10, 1, 1}, {1, 100, 0, 0}, 1)), 640u);
  EXPECT_EQ(busBytes(tiny(), access({16, 10, 1, 1}, {1, 100, 0, 0}, 1)), 320u);
  // The same rows back to back are one run of 160 bytes.
  EXPECT_EQ(busBytes(v1(), access({16, 10, 1, 1}, {1, 16, 0, 0}, 1)), 160u);
  // A gather of eight 4-byte elements: a burst each.
  EXPECT_EQ(busBytes(v1(), access({8, 1, 1, 1}, {400, 0, 0, 0}, 4)), 512u);
  EXPECT_EQ(dataBytes(access({8, 1, 1, 1}, {400, 0, 0, 0}, 4)), 32u);
  // Extents of one do not break a run, whatever their stride.
  EXPECT_EQ(busBytes(v1(), access({16, 1, 4, 1}, {1, 999, 16, 0}, 1)), 64u);
  // A transposing view (the inner dimension 16 bytes apart, the outer 1)
  // moves in run order, the 1-byte stride innermost: its 160 bytes are one
  // run, as they would be read row by row, not ten bursts of one byte each.
  EXPECT_EQ(busBytes(v1(), access({10, 16, 1, 1}, {16, 1, 0, 0}, 1)), 160u);
  EXPECT_EQ((runOrder(access({10, 16, 1, 1}, {16, 1, 0, 0}, 1))), (std::array<int, 4>{1, 0, 2, 3}));
  // Broadcast (stride 0) dimensions move outermost; ties keep their order.
  EXPECT_EQ((runOrder(access({4, 8, 2, 1}, {0, 1, 1, 0}, 1))), (std::array<int, 4>{1, 2, 0, 3}));
  // Nothing to move costs nothing on the bus.
  EXPECT_EQ(busBytes(v1(), access({0, 4, 1, 1}, {1, 16, 0, 0}, 1)), 0u);
  // 1000 bytes at 64 bytes per cycle.
  EXPECT_EQ(busCycles(v1(), 1000), 16u);
}

TEST(Timing, DescriptorsInFlightHideTheStartLatency) {
  // npu-v1: 200-cycle start, 64 bytes per cycle, 4 descriptors in flight.
  DmaTimeline t(v1());
  uint64_t done[5];
  for (uint64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.nextStart(DmaTimeline::In, i), i);
    done[i] = t.start(DmaTimeline::In, i, 6400).done;  // 100 bus cycles each
  }
  // The first pays the latency; the next three wait only for the bus.
  EXPECT_EQ(done[0], 300u);
  EXPECT_EQ(done[1], 400u);
  EXPECT_EQ(done[2], 500u);
  EXPECT_EQ(done[3], 600u);
  // A fifth waits for the first to finish, then for the bus.
  EXPECT_EQ(t.nextStart(DmaTimeline::In, 4), 300u);
  DmaTimeline::Transfer fifth = t.start(DmaTimeline::In, 300, 6400);
  EXPECT_EQ(fifth.dataStart, 600u);
  EXPECT_EQ(fifth.done, 700u);
  // DMA_OUT has its own descriptors but shares the bus.
  EXPECT_EQ(t.nextStart(DmaTimeline::Out, 10), 10u);
  EXPECT_EQ(t.start(DmaTimeline::Out, 10, 640).done, 710u);
  EXPECT_EQ(t.drained(DmaTimeline::In), 700u);
  EXPECT_EQ(t.drained(DmaTimeline::Out), 710u);
}

TEST(Timing, SteadyDmaCyclesFollowTheTimeline) {
  // npu-v1: 200-cycle start, 64 bytes per cycle, 4 descriptors in flight.
  // A depthwise tile: one image of 12,544 bytes (196 bus cycles) and three
  // small loads of one burst each. The small ones queue on the bus behind
  // the image and hold three of the four slots, so the next image starts
  // only when this one is done: 200 + 196 per tile, the latency never hidden.
  EXPECT_EQ(dmaSteadyCycles(v1(), {12544, 64, 64, 64}, {}), 396u);
  // The image alone: the slots hide the latency and the bus bounds it.
  EXPECT_EQ(dmaSteadyCycles(v1(), {12544}, {}), 196u);
  // Eight large loads (1,536 bus cycles each) hide every start behind the
  // transfers ahead of them: the bus alone, 8 * 1,536.
  EXPECT_EQ(dmaSteadyCycles(v1(), std::vector<uint64_t>(8, 98304), {}), 12288u);
  // Loads and stores share the bus: 196 + 49.
  EXPECT_EQ(dmaSteadyCycles(v1(), {12544}, {3136}), 245u);
  // Two loads and a store, the loads' engine free to run ahead: never less
  // than the bus time of one repetition, 256 + 1 + 256.
  EXPECT_EQ(dmaSteadyCycles(v1(), {16384, 64}, {16384}), 513u);
  // npu-v1-tiny keeps two in flight (16 bytes per cycle): two descriptors of
  // 100 cycles each take 200 + 100 per repetition, one slot each.
  EXPECT_EQ(dmaSteadyCycles(tiny(), {1600, 1600}, {}), 300u);
  EXPECT_EQ(dmaSteadyCycles(v1(), {}, {}), 0u);
}

TEST(Timing, AloneADescriptorPaysItsLatency) {
  DmaTimeline t(v1());
  EXPECT_EQ(t.start(DmaTimeline::In, 0, 64).done, 201u);
  // npu-v1-tiny keeps two in flight: the third waits for the first.
  DmaTimeline s(tiny());
  uint64_t first = s.start(DmaTimeline::In, 0, 16).done;  // 200 + 1
  s.start(DmaTimeline::In, 1, 16);
  EXPECT_EQ(first, 201u);
  EXPECT_EQ(s.nextStart(DmaTimeline::In, 2), 201u);
}
