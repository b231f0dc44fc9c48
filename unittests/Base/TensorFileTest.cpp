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

#include <cstring>

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

// Boundary types (docs/model-format.md): int64 narrows to int32 with a range
// check naming the tensor, the element and its value; bool is 0/1 bytes;
// uint16 widens; on the way out int32 widens to int64 and an int8 that is not
// 0 or 1 is not a bool.
TEST(TensorFile, BoundaryNarrowingAndWidening) {
  model::TensorDesc t = desc({3}, {4}, 0);
  t.name = "ids";
  t.dtype = model::DType::I32;
  t.boundary = model::DType::I64;
  HostTensor in;
  in.dtype = model::DType::I64;
  in.shape = {3};
  for (int64_t v : {int64_t(7), int64_t(-2), int64_t(1) << 31})
    for (int b = 0; b < 8; ++b)
      in.data.push_back(uint8_t(uint64_t(v) >> (8 * b)));
  std::vector<uint8_t> stored;
  std::string error;
  EXPECT_FALSE(narrowToStorage(t, in, stored, error));
  EXPECT_EQ(error, "element 2 = 2147483648 of int64 tensor 'ids' is outside int32, the type it "
                   "is narrowed to on the NPU");
  in.data.resize(16);
  in.shape = {2};
  t.shape = {2};
  ASSERT_TRUE(narrowToStorage(t, in, stored, error)) << error;
  EXPECT_EQ(stored, (std::vector<uint8_t>{7, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff}));
  HostTensor out;
  ASSERT_TRUE(widenFromStorage(t, stored, out, error)) << error;
  EXPECT_EQ(out.dtype, model::DType::I64);
  EXPECT_EQ(out.data, in.data);

  model::TensorDesc m = desc({3}, {1}, 0);
  m.name = "mask";
  m.dtype = model::DType::I8;
  m.boundary = model::DType::Bool;
  HostTensor mask;
  mask.dtype = model::DType::Bool;
  mask.shape = {3};
  mask.data = {1, 0, 2};  // any non-zero byte is true
  ASSERT_TRUE(narrowToStorage(m, mask, stored, error)) << error;
  EXPECT_EQ(stored, (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_FALSE(widenFromStorage(m, {1, 0, 3}, out, error));
  EXPECT_EQ(error, "element 2 = 3 of output 'mask' does not fit its type bool");

  model::TensorDesc u = desc({1}, {4}, 0);
  u.dtype = model::DType::I32;
  u.boundary = model::DType::U16;
  HostTensor h;
  h.dtype = model::DType::U16;
  h.shape = {1};
  h.data = {0xff, 0xff};
  ASSERT_TRUE(narrowToStorage(u, h, stored, error)) << error;
  EXPECT_EQ(stored, (std::vector<uint8_t>{0xff, 0xff, 0, 0}));
}

// ONNX TensorProto files of the boundary types: int64_data and bool's
// int32_data (packed), as onnx.numpy_helper writes them without raw_data.
TEST(TensorFile, BoundaryTypeTensorProtos) {
  // dims: [2]; data_type 7 (INT64); int64_data packed [5, -1].
  std::vector<uint8_t> pb = {0x08, 0x02, 0x10, 0x07, 0x3a, 0x0b, 0x05,
                             0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  HostTensor t;
  std::string error;
  ASSERT_TRUE(parseTensorProto(pb.data(), pb.size(), t, error)) << error;
  EXPECT_EQ(t.dtype, model::DType::I64);
  ASSERT_EQ(t.data.size(), 16u);
  EXPECT_EQ(t.data[0], 5);
  EXPECT_EQ(t.data[8], 0xff);
  EXPECT_EQ(t.data[15], 0xff);
  // dims: [3]; data_type 9 (BOOL); int32_data packed [1, 0, 1].
  std::vector<uint8_t> b = {0x08, 0x03, 0x10, 0x09, 0x2a, 0x03, 0x01, 0x00, 0x01};
  ASSERT_TRUE(parseTensorProto(b.data(), b.size(), t, error)) << error;
  EXPECT_EQ(t.dtype, model::DType::Bool);
  EXPECT_EQ(t.data, (std::vector<uint8_t>{1, 0, 1}));
}

// float64 (format 1.3) is stored as float32: rounded to nearest on binding,
// a finite value beyond float32 refused naming the element, widened exactly.
TEST(TensorFile, Float64BoundaryRoundsAndWidens) {
  model::TensorDesc t = desc({3}, {4}, 0);
  t.name = "x";
  t.dtype = model::DType::F32;
  t.boundary = model::DType::F64;
  HostTensor in;
  in.dtype = model::DType::F64;
  in.shape = {3};
  const double values[] = {0.1, -2.5, 1e300};
  in.data.resize(sizeof(values));
  std::memcpy(in.data.data(), values, sizeof(values));
  std::vector<uint8_t> stored;
  std::string error;
  EXPECT_FALSE(narrowToStorage(t, in, stored, error));
  EXPECT_NE(error.find("element 2 = "), std::string::npos) << error;
  EXPECT_NE(error.find("of float64 tensor 'x' is outside float32"), std::string::npos) << error;
  in.data.resize(16);
  in.shape = {2};
  t.shape = {2};
  ASSERT_TRUE(narrowToStorage(t, in, stored, error)) << error;
  ASSERT_EQ(stored.size(), 8u);
  float f[2];
  std::memcpy(f, stored.data(), 8);
  EXPECT_EQ(f[0], 0.1f);  // the nearest float32
  EXPECT_EQ(f[1], -2.5f);
  HostTensor out;
  ASSERT_TRUE(widenFromStorage(t, stored, out, error)) << error;
  EXPECT_EQ(out.dtype, model::DType::F64);
  double d[2];
  ASSERT_EQ(out.data.size(), 16u);
  std::memcpy(d, out.data.data(), 16);
  EXPECT_EQ(d[0], double(0.1f));
  EXPECT_EQ(d[1], -2.5);
}

// A DOUBLE TensorProto with packed double_data, and a .npy of '<f8'.
TEST(TensorFile, Float64Files) {
  // dims: [2]; data_type 11 (DOUBLE); double_data packed [1.5, -0.25].
  std::vector<uint8_t> pb = {0x08, 0x02, 0x10, 0x0b, 0x52, 0x10};
  for (double v : {1.5, -0.25}) {
    uint8_t b[8];
    std::memcpy(b, &v, 8);
    pb.insert(pb.end(), b, b + 8);
  }
  HostTensor t;
  std::string error;
  ASSERT_TRUE(parseTensorProto(pb.data(), pb.size(), t, error)) << error;
  EXPECT_EQ(t.dtype, model::DType::F64);
  ASSERT_EQ(t.data.size(), 16u);
  double d;
  std::memcpy(&d, t.data.data() + 8, 8);
  EXPECT_EQ(d, -0.25);
  std::vector<uint8_t> npy = serializeNpy(t);
  HostTensor back;
  ASSERT_TRUE(parseNpy(npy.data(), npy.size(), back, error)) << error;
  EXPECT_EQ(back.dtype, model::DType::F64);
  EXPECT_EQ(back.data, t.data);
}
