//===- TensorFileTest.cpp - Tensors in logical order ----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// gatherTensor reads a tensor in logical (row-major) order whatever its
// physical layout (contract L4, the order npu-sim's dumps and outputs are
// written in). Each layout here is built by hand: the region's bytes are the
// element's logical index at the physical address the layout gives it, and
// filler elsewhere.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/TensorFile.h"

#include <gtest/gtest.h>

using namespace npuc;

namespace {
model::TensorDesc desc(std::vector<int64_t> shape, std::vector<int64_t> strides, uint64_t offset) {
  model::TensorDesc t;
  t.name = "t";
  t.dtype = model::DType::U8;
  t.shape = std::move(shape);
  t.strides = std::move(strides);
  t.offset = offset;
  return t;
}

std::vector<uint8_t> gathered(const model::TensorDesc &t, const std::vector<uint8_t> &region) {
  HostTensor out;
  std::string error;
  EXPECT_TRUE(gatherTensor(t, region, out, error)) << error;
  EXPECT_EQ(out.shape, t.shape);
  return out.data;
}

std::vector<uint8_t> iota(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = uint8_t(i);
  return v;
}
} // namespace

// Rows of 3 bytes at a 32-byte pitch, 8 bytes into the region.
TEST(TensorFile, PaddedRowPitch) {
  std::vector<uint8_t> region(8 + 2 * 32, 0xee);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      region[8 + r * 32 + c] = uint8_t(r * 3 + c);
  EXPECT_EQ(gathered(desc({2, 3}, {32, 1}, 8), region), iota(6));
}

// A [2, 3] tensor stored transposed: element (i, j) at j * 2 + i.
TEST(TensorFile, TransposingStrides) {
  std::vector<uint8_t> region(6);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      region[j * 2 + i] = uint8_t(i * 3 + j);
  EXPECT_EQ(gathered(desc({2, 3}, {1, 2}, 0), region), iota(6));
}

// NCHW with C = 6 stored in blocks of 4 channels (NC/4HW4c, the second block
// padded): element (c, h, w) at (c / 4) * block + (h * W + w) * 4 + c % 4,
// seen as the 5-D logical view [C/4 blocks, 4, H, W] over the first 6
// channels, i.e. one 4-D descriptor per block.
TEST(TensorFile, ChannelBlocks) {
  const int C = 6, H = 2, W = 3, block = H * W * 4;
  std::vector<uint8_t> region(2 * block, 0xee);
  for (int c = 0; c < C; ++c)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w)
        region[(c / 4) * block + (h * W + w) * 4 + c % 4] = uint8_t((c * H + h) * W + w);
  std::vector<uint8_t> whole;
  for (int b = 0; b < 2; ++b) {
    int channels = std::min(4, C - 4 * b);
    std::vector<uint8_t> part =
        gathered(desc({channels, H, W}, {1, W * 4, 4}, uint64_t(b * block)), region);
    whole.insert(whole.end(), part.begin(), part.end());
  }
  EXPECT_EQ(whole, iota(C * H * W));
}

// A broadcast (stride 0) reads the same element again.
TEST(TensorFile, BroadcastStride) {
  std::vector<uint8_t> region{7, 9};
  EXPECT_EQ(gathered(desc({3, 2}, {0, 1}, 0), region), (std::vector<uint8_t>{7, 9, 7, 9, 7, 9}));
}

TEST(TensorFile, OutsideTheRegionIsAnError) {
  std::vector<uint8_t> region(10);
  HostTensor out;
  std::string error;
  EXPECT_FALSE(gatherTensor(desc({2, 3}, {8, 1}, 2), region, out, error));
  EXPECT_EQ(error, "'t' spans [2, 13) of a 10-byte region");
}
