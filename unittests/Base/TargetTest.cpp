//===- TargetTest.cpp - Target descriptions and their hashes --------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Hash.h"
#include "npuc/Base/Target.h"
#include "npuc/Base/Timing.h"

#include <gtest/gtest.h>

using namespace npuc;
using namespace npuc::target;

TEST(Hash, Fnv1a64KnownVectors) {
  // Published FNV-1a 64-bit test vectors.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(hex64(0xaf63dc4c8601ec8cull), "af63dc4c8601ec8c");
}

TEST(Hash, Hex0xIsShortest) {
  EXPECT_EQ(hex0x(0), "0x0");
  EXPECT_EQ(hex0x(0x1f), "0x1f");
  EXPECT_EQ(hex0x(0x10000), "0x10000");
  EXPECT_EQ(hex0x(~0ull), "0xffffffffffffffff");
}

TEST(Target, ParametersMatchTheDesignNote) {
  // Values from ../shared/design/npu-v1.md section 1.
  const TargetInfo *v1 = lookupTarget("npu-v1");
  const TargetInfo *tiny = lookupTarget("npu-v1-tiny");
  ASSERT_TRUE(v1 && tiny);
  EXPECT_EQ(v1->params.LMBytes, 1 << 20);
  EXPECT_EQ(tiny->params.LMBytes, 128 << 10);
  EXPECT_EQ(v1->params.ACCBytes, 256 << 10);
  EXPECT_EQ(tiny->params.ACCBytes, 32 << 10);
  EXPECT_EQ(v1->params.ScalarRegs, 16);
  EXPECT_EQ(tiny->params.ScalarRegs, 8);
  EXPECT_EQ(v1->params.FlagsPerPair, 8);
  EXPECT_EQ(tiny->params.FlagsPerPair, 2);
  // npu-v1.md sections 1 and 9: array sides per precision, and the peaks they give.
  EXPECT_EQ(v1->params.MatrixSideInt8, 64);
  EXPECT_EQ(v1->params.MatrixSideFp16, 32);
  EXPECT_EQ(v1->params.MatrixSideFp32, 16);
  EXPECT_EQ(tiny->params.MatrixSideInt8, 32);
  EXPECT_EQ(tiny->params.MatrixSideFp16, 16);
  EXPECT_EQ(tiny->params.MatrixSideFp32, 8);
  EXPECT_EQ(timing::peakMacsPerCycle(v1->params, isa::MmMode::I8I8), 4096);
  EXPECT_EQ(timing::peakMacsPerCycle(v1->params, isa::MmMode::F16), 1024);
  EXPECT_EQ(timing::peakMacsPerCycle(v1->params, isa::MmMode::F32), 256);
  EXPECT_EQ(timing::peakMacsPerCycle(tiny->params, isa::MmMode::U8I8), 1024);
  EXPECT_EQ(timing::peakMacsPerCycle(tiny->params, isa::MmMode::F16), 256);
  EXPECT_EQ(timing::peakMacsPerCycle(tiny->params, isa::MmMode::F32), 64);
  EXPECT_EQ(v1->params.DmaInFlight, 4);
  EXPECT_EQ(tiny->params.DmaInFlight, 2);
  EXPECT_EQ(v1->params.GMBurstBytes, 64);
  EXPECT_EQ(tiny->params.GMBurstBytes, 32);
  EXPECT_EQ(v1->params.VectorBytesPerCycle, 256);
  EXPECT_EQ(tiny->params.VectorBytesPerCycle, 64);
  EXPECT_EQ(v1->params.GMBytesPerCycle, 64);
  EXPECT_EQ(tiny->params.GMBytesPerCycle, 16);
  EXPECT_EQ(v1->params.DmaStartLatency, 200);
  EXPECT_EQ(v1->params.ClockMHz, 1000);
  EXPECT_EQ(v1->params.QueueDepth, 16);
  EXPECT_EQ(v1->params.LUTTables, 4);
  EXPECT_EQ(v1->params.LUTEntries, 512);
  EXPECT_EQ(v1->params.DefaultGMBudget, 256 << 20);
}

TEST(Target, HashCoversParametersAndIsStable) {
  const TargetInfo *v1 = lookupTarget("npu-v1");
  const TargetInfo *tiny = lookupTarget("npu-v1-tiny");
  EXPECT_NE(v1->hash(), tiny->hash());
  // Pinned: model files record the target hash, so a change to any target
  // parameter or to the ISA encoding must show up here and be made on purpose.
  // (Last change: the feeders of the depthwise windows, mm_dw_cfg, mm_dw, v_dw_cfg pt, pl, ih, iw.)
  EXPECT_EQ(v1->hashHex(), "cc3e71b0d5bd628d");
  EXPECT_EQ(tiny->hashHex(), "98dac6a0005f60f8");
  EXPECT_EQ(v1->hashHex().size(), 16u);
  std::string canonical = v1->canonical;
  for (const auto &[name, value] : parameters(*v1))
    EXPECT_NE(canonical.find(std::string(name) + "=" + std::to_string(value) + ";"),
              std::string::npos)
        << name;
  // The instruction encoding is part of the identity.
  EXPECT_NE(canonical.find("isa="), std::string::npos);
  EXPECT_NE(canonical.find("matmul"), std::string::npos);
  EXPECT_NE(canonical.find("v_quant"), std::string::npos);
}

TEST(Target, LookupAndNames) {
  EXPECT_EQ(lookupTarget("nope"), nullptr);
  EXPECT_EQ(targetNames(), "npu-v1, npu-v1-tiny");
  EXPECT_EQ(allTargets().size(), 2u);
}
