//===- ModelFileTest.cpp - Writing and validating model files -------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Hash.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Target.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

using namespace npuc;
using namespace npuc::model;

namespace {
Model sampleModel() {
  const target::TargetInfo *t = target::lookupTarget("npu-v1");
  Model m;
  m.targetName = t->name;
  m.targetHash = t->hash();
  isa::Inst end;
  end.desc = isa::lookup(uint8_t(isa::Opcode::END));
  isa::Inst li;
  li.desc = isa::lookup(uint8_t(isa::Opcode::LI));
  li.fields = {3, -5};
  for (const isa::Inst &inst : {li, end}) {
    isa::Word w;
    EXPECT_TRUE(isa::encode(inst, w));
    m.code.insert(m.code.end(), w.begin(), w.end());
  }
  m.constants = {1, 2, 3, 4, 5, 6, 7, 8};
  m.inputSize = 64;
  m.outputSize = 64;
  TensorDesc in;
  in.role = Role::Input;
  in.region = uint8_t(isa::Region::INPUT);
  in.dtype = DType::I8;
  in.name = "x";
  in.shape = {3, 7};
  in.strides = {8, 1};
  in.quant = Quant::PerAxis;
  in.axis = 0;
  in.scales = {0.5f, 0.25f, 0.125f};
  in.zeroPoints = {-3, 0, 4};
  TensorDesc out = in;
  out.role = Role::Output;
  out.region = uint8_t(isa::Region::OUTPUT);
  out.name = "y";
  out.quant = Quant::None;
  out.axis = -1;
  out.scales.clear();
  out.zeroPoints.clear();
  m.tensors = {in, out};
  m.provenance = {{"compiler", "test"}};
  m.debug = {{0, "node0"}};
  return m;
}

uint64_t le64(const std::vector<uint8_t> &b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | b[at + i];
  return v;
}
void put64(std::vector<uint8_t> &b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}
void put32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}
/// Recomputes the checksum so that a test reaches the check it means to.
void reseal(std::vector<uint8_t> &b) {
  std::string_view payload(reinterpret_cast<const char *>(b.data()) + 64, b.size() - 64);
  put64(b, 56, fnv1a64(payload));
}
std::string parseError(const std::vector<uint8_t> &b) {
  Model m;
  std::string error;
  EXPECT_FALSE(parse(b.data(), b.size(), m, error));
  return error;
}
} // namespace

TEST(ModelFile, RoundTripsEveryField) {
  Model m = sampleModel();
  std::vector<uint8_t> bytes = serialize(m);
  EXPECT_EQ(bytes.size() % 64, 0u);
  Model back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.targetName, "npu-v1");
  EXPECT_EQ(back.code, m.code);
  EXPECT_EQ(back.constants, m.constants);
  ASSERT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(back.tensors[0].name, "x");
  EXPECT_EQ(back.tensors[0].strides, (std::vector<int64_t>{8, 1}));
  EXPECT_EQ(back.tensors[0].scales, m.tensors[0].scales);
  EXPECT_EQ(back.tensors[0].zeroPoints, m.tensors[0].zeroPoints);
  EXPECT_EQ(back.tensors[1].quant, Quant::None);
  EXPECT_EQ(back.provenance, m.provenance);
  EXPECT_EQ(back.debug, m.debug);
  // Same model, same bytes.
  EXPECT_EQ(serialize(m), bytes);
}

TEST(ModelFile, PiecesAreTheFileWithoutCopyingCodeOrConstants) {
  Model m = sampleModel();
  m.constants.assign(1000, 7);  // not a multiple of the alignment: padding follows
  Pieces pieces = serializePieces(m);
  std::vector<uint8_t> joined;
  bool codeByReference = false, constantsByReference = false;
  for (const auto &[data, size] : pieces.parts) {
    joined.insert(joined.end(), data, data + size);
    codeByReference |= data == m.code.data() && size == m.code.size();
    constantsByReference |= data == m.constants.data() && size == m.constants.size();
  }
  EXPECT_TRUE(codeByReference);
  EXPECT_TRUE(constantsByReference);
  EXPECT_EQ(joined, serialize(m));
  Model back;
  std::string error;
  ASSERT_TRUE(parse(joined.data(), joined.size(), back, error)) << error;
  EXPECT_EQ(back.constants, m.constants);

  // Written as pieces, the file holds the same bytes.
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "npuc-pieces-test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "m.bin").string();
  ASSERT_TRUE(writeFileAtomically(path, pieces, error)) << error;
  std::vector<uint8_t> read;
  ASSERT_TRUE(readFile(path, read, error)) << error;
  EXPECT_EQ(read, joined);
  std::filesystem::remove_all(dir);
}

TEST(Hash, Fnv1aOfPiecesIsFnv1aOfTheirConcatenation) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);  // the published FNV-1a test vector
  EXPECT_EQ(fnv1a64("bar", fnv1a64("foo")), fnv1a64("foobar"));
}

TEST(ModelFile, HeaderLayoutIsAsDocumented) {
  std::vector<uint8_t> b = serialize(sampleModel());
  EXPECT_EQ(std::string(b.begin(), b.begin() + 8), "NPUMODEL");
  EXPECT_EQ(b[8] | (b[9] << 8), 1);         // major
  EXPECT_EQ(le64(b, 16), b.size());         // file size
  EXPECT_EQ(le64(b, 24), target::lookupTarget("npu-v1")->hash());
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(&b[32])), "npu-v1");
  EXPECT_EQ(b[48], 5);                      // code, constants, tensors, provenance, debug
  EXPECT_EQ(b[52], 64);                     // section table offset
  // First section: code, required, 64-aligned, right after the table.
  EXPECT_EQ(b[64], 1);
  EXPECT_EQ(b[68], 1);
  EXPECT_EQ(le64(b, 72), 256u);  // 64 + 5 * 32 = 224, aligned up to 256
  EXPECT_EQ(le64(b, 80), 32u);
}

TEST(ModelFile, PreciseErrors) {
  std::vector<uint8_t> good = serialize(sampleModel());
  auto mutate = [&](auto fn, bool seal = true) {
    std::vector<uint8_t> b = good;
    fn(b);
    if (seal)
      reseal(b);
    return parseError(b);
  };
  EXPECT_EQ(parseError({1, 2, 3}), "file is 3 bytes, shorter than the 64-byte header");
  EXPECT_EQ(mutate([](auto &b) { b[0] = 'X'; }), "not an npuc model file (bad magic)");
  EXPECT_EQ(mutate([](auto &b) { b[8] = 2; }),
            "unsupported format version 2.2 (this reader supports major version 1)");
  std::vector<uint8_t> truncated(good.begin(), good.end() - 64);
  EXPECT_EQ(parseError(truncated), "header says the file has 0x" +
                                       [&] { char s[32]; std::snprintf(s, 32, "%zx", good.size()); return std::string(s); }() +
                                       " bytes, but it has 0x" +
                                       [&] { char s[32]; std::snprintf(s, 32, "%zx", truncated.size()); return std::string(s); }());
  EXPECT_EQ(mutate([](auto &b) { std::memcpy(&b[32], "npu-v9\0", 7); }),
            "unknown target 'npu-v9' (known: npu-v1, npu-v1-tiny)");
  EXPECT_NE(mutate([](auto &b) { b[24] ^= 1; }).find("does not match this build's description"),
            std::string::npos);
  // Section 1 (constants) pushed past the end of the file.
  EXPECT_EQ(mutate([&](auto &b) { put64(b, 64 + 32 + 8, b.size() - 64); put64(b, 64 + 32 + 16, 0x200); }),
            "section 1 (constants): offset 0x" +
                [&] { char s[32]; std::snprintf(s, 32, "%zx", good.size() - 64); return std::string(s); }() +
                " + size 0x200 exceeds file size 0x" +
                [&] { char s[32]; std::snprintf(s, 32, "%zx", good.size()); return std::string(s); }());
  // An offset + size that wraps around 64 bits.
  EXPECT_NE(mutate([](auto &b) { put64(b, 64 + 32 + 16, ~uint64_t(0) - 8); })
                .find("exceeds file size"),
            std::string::npos);
  EXPECT_NE(mutate([](auto &b) { put64(b, 64 + 32 + 8, 0x108); }).find("violates the 64-byte alignment"),
            std::string::npos);
  EXPECT_NE(mutate([](auto &b) { put64(b, 64 + 32 + 8, 0xc0); }).find("overlaps the previous section"),
            std::string::npos);
  EXPECT_NE(mutate([](auto &b) { put32(b, 64 + 32 * 4, 2); }).find("a second section of this kind"),
            std::string::npos);
  EXPECT_EQ(mutate([](auto &b) { put32(b, 64 + 32 * 4, 99); put32(b, 64 + 32 * 4 + 4, 1); }),
            "section 4 (unknown): unknown required section kind 99 (written by a newer npuc?)");
  EXPECT_NE(mutate([](auto &b) { b[b.size() - 1] = 1; }).find("after the last section is not zero"),
            std::string::npos);
  EXPECT_NE(mutate([](auto &b) { b[b.size() - 1] = 1; }, false).find("after the last section is not zero"),
            std::string::npos);
  EXPECT_NE(mutate([](auto &b) { b[256] ^= 1; }, false).find("checksum mismatch"), std::string::npos);
  // Code that does not decode names the instruction and the field.
  EXPECT_EQ(mutate([](auto &b) { b[256 + 16 + 15] = 0x80; }),
            "section 0 (code): instruction 1 (offset 0x10): end: reserved bit 127 is set "
            "(reserved bits must be zero)");
}

TEST(ModelFile, NewerMinorVersionSkipsUnknownOptionalSections) {
  std::vector<uint8_t> b = serialize(sampleModel());
  b[10] = 7;                       // minor 1.7
  put32(b, 64 + 32 * 4, 42);       // debug section becomes an unknown optional kind
  reseal(b);
  Model m;
  std::string error;
  ASSERT_TRUE(parse(b.data(), b.size(), m, error)) << error;
  EXPECT_EQ(m.minor, 7);
  EXPECT_EQ(m.skippedKinds, std::vector<uint32_t>{42});
  EXPECT_TRUE(m.debug.empty());
}

namespace {
/// sampleModel() with the values section of format 1.1: the input (from the
/// start) and an arena value complete after instruction 0.
Model modelWithValues() {
  Model m = sampleModel();
  m.arenaSize = 128;
  ValueDesc in{m.tensors[0], "", ValueDesc::kFromStart};
  in.t.role = Role::Value;
  ValueDesc mid{m.tensors[1], "conv0", 0};
  mid.t.role = Role::Value;
  mid.t.region = uint8_t(isa::Region::ARENA);
  mid.t.name = "y/pre:0";
  mid.t.quant = Quant::PerTensor;
  mid.t.scales = {0.5f};
  mid.t.zeroPoints = {-1};
  m.values = {in, mid};
  return m;
}
} // namespace

TEST(ModelFile, ValuesRoundTrip) {
  Model m = modelWithValues();
  std::vector<uint8_t> bytes = serialize(m);
  Model back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.minor, 2);  // no float64 boundary: written as 1.2
  ASSERT_EQ(back.values.size(), 2u);
  EXPECT_EQ(back.values[0].after, ValueDesc::kFromStart);
  EXPECT_EQ(back.values[0].t.region, uint8_t(isa::Region::INPUT));
  EXPECT_EQ(back.values[0].t.scales, m.tensors[0].scales);
  EXPECT_EQ(back.values[1].after, 0u);
  EXPECT_EQ(back.values[1].node, "conv0");
  EXPECT_EQ(back.values[1].t.name, "y/pre:0");
  EXPECT_EQ(back.values[1].t.region, uint8_t(isa::Region::ARENA));
  EXPECT_EQ(back.values[1].t.zeroPoints, std::vector<int32_t>{-1});
  // The runtime-bound tensors are unchanged by the values beside them.
  EXPECT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(serialize(back), bytes);
}

TEST(ModelFile, BadValuesAreRejected) {
  Model m = modelWithValues();
  m.values[1].after = 2;  // the code has 2 instructions: 0 and 1
  EXPECT_EQ(parseError(serialize(m)),
            "section 5 (values): value 1: instruction 2 is past the code (2 instructions)");
  m = modelWithValues();
  m.values[1].t.offset = 120;  // 120 + 2 * 8 + 6 + 1 > 128
  EXPECT_EQ(parseError(serialize(m)),
            "section 5 (values): value 1: offset 0x78 + span exceeds the region size 0x80");
  m = modelWithValues();
  m.values[1].t.region = uint8_t(isa::Region::CONST);
  EXPECT_EQ(parseError(serialize(m)),
            "section 5 (values): value 1: region 0 is not ARENA, INPUT or OUTPUT");
  m = modelWithValues();
  m.values[1].t.role = Role::Output;
  EXPECT_EQ(parseError(serialize(m)), "section 5 (values): value 1: role 1 is not 3 (a value)");
  m = modelWithValues();
  m.tensors[0].role = Role::Value;
  EXPECT_EQ(parseError(serialize(m)), "section 2 (tensors): tensor 0: role 3 is not 0, 1 or 2");
}

// A reader of format 1.0 skips the values section (an optional kind it does
// not know) and still reads everything it needs.
TEST(ModelFile, ValuesAreOptionalForOlderReaders) {
  std::vector<uint8_t> b = serialize(modelWithValues());
  // The section table's sixth entry is the values section: make it a kind
  // this reader does not know either, as 7 is to a 1.0 reader.
  ASSERT_EQ(le64(b, 64 + 32 * 5) & 0xffffffff, 7u);
  EXPECT_EQ(le64(b, 64 + 32 * 5 + 4) & 0xffffffff, 0u);  // not required
  put32(b, 64 + 32 * 5, 42);
  reseal(b);
  Model m;
  std::string error;
  ASSERT_TRUE(parse(b.data(), b.size(), m, error)) << error;
  EXPECT_TRUE(m.values.empty());
  EXPECT_EQ(m.skippedKinds, std::vector<uint32_t>{42});
  EXPECT_EQ(m.tensors.size(), 2u);
}

TEST(ModelFile, TensorOutsideItsRegionIsRejected) {
  Model m = sampleModel();
  m.tensors[0].offset = 48;  // 48 + (2 * 8 + 6 * 1 + 1) = 71 > 64
  std::vector<uint8_t> b = serialize(m);
  EXPECT_EQ(parseError(b), "section 2 (tensors): tensor 0: offset 0x30 + span exceeds the region size 0x40");
}

// No byte sequence crashes the reader (run under the sanitizers by the fuzzer;
// here 100,000 deterministic mutations of a valid file).
TEST(ModelFile, MutationsNeverCrash) {
  std::vector<uint8_t> good = serialize(sampleModel());
  std::mt19937_64 rng(2026);
  size_t accepted = 0;
  for (int round = 0; round < 100000; ++round) {
    std::vector<uint8_t> b = good;
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      switch (rng() % 4) {
      case 0: b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8)); break;
      case 1: b[rng() % b.size()] = uint8_t(rng()); break;
      case 2: b.resize(rng() % (b.size() + 1)); break;
      case 3: put64(b, (rng() % (b.size() / 8)) * 8 & ~size_t(7), rng()); break;
      }
      if (b.size() < 8)
        break;
    }
    if (rng() % 2 && b.size() >= 64)
      reseal(b);
    Model m;
    std::string error;
    if (parse(b.data(), b.size(), m, error))
      ++accepted;
    else
      EXPECT_FALSE(error.empty());
  }
  // Some mutations (e.g. of constant bytes, resealed) stay valid.
  EXPECT_GT(accepted, 0u);
}

TEST(ModelFile, AtomicWriteLeavesNoTemporary) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("npuc-modelfile-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string error;
  std::vector<uint8_t> bytes = serialize(sampleModel());
  ASSERT_TRUE(writeFileAtomically((dir / "m.bin").string(), bytes, error)) << error;
  std::vector<uint8_t> back;
  ASSERT_TRUE(readFile((dir / "m.bin").string(), back, error));
  EXPECT_EQ(back, bytes);
  // A directory is not read as an empty file.
  EXPECT_FALSE(readFile(dir.string(), back, error));
  EXPECT_NE(error.find("is a directory, not a file"), std::string::npos) << error;
  EXPECT_FALSE(readFile((dir / "absent.bin").string(), back, error));
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  // A destination in a missing directory fails and leaves nothing behind.
  EXPECT_FALSE(writeFileAtomically((dir / "missing" / "m.bin").string(), bytes, error));
  EXPECT_NE(error.find("directory '" + (dir / "missing").string() + "' does not exist"),
            std::string::npos)
      << error;
  // A destination that is a directory is refused before anything is created.
  EXPECT_FALSE(writeFileAtomically(dir.string(), bytes, error));
  EXPECT_NE(error.find("it is a directory"), std::string::npos) << error;
  // So is one whose parent is a file.
  EXPECT_FALSE(writeFileAtomically((dir / "m.bin" / "x.bin").string(), bytes, error));
  EXPECT_NE(error.find("is not a directory"), std::string::npos) << error;
  size_t files = 0;
  for (auto &entry : fs::directory_iterator(dir)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);
  fs::remove_all(dir);
}

/// sampleModel() with its input (tensor 0) plain `t`: no quantization,
/// dense strides.
Model withPlainInput(DType t) {
  Model m = sampleModel();
  TensorDesc &in = m.tensors[0];
  in.dtype = t;
  in.quant = Quant::None;
  in.axis = -1;
  in.scales.clear();
  in.zeroPoints.clear();
  in.strides = {int64_t(dtypeBytes(t)) * in.shape.back(), int64_t(dtypeBytes(t))};
  m.inputSize = 4096;
  return m;
}

// Format 1.2's boundary types: an int64 input stored as int32 and a bool
// output stored as int8 keep their host types through a round trip; the byte
// is 0 for every other tensor, so a file without boundary types reads in a
// 1.1 reader; a boundary type over the wrong storage, or on a graph value, is
// refused by name.
TEST(ModelFile, BoundaryTypesRoundTrip) {
  ASSERT_EQ(sampleModel().tensors[0].shape.size(), 2u);
  Model m = withPlainInput(DType::I32);
  m.tensors[0].boundary = DType::I64;
  std::vector<uint8_t> bytes = serialize(m);
  Model back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.tensors[0].dtype, DType::I32);
  ASSERT_TRUE(back.tensors[0].boundary.has_value());
  EXPECT_EQ(*back.tensors[0].boundary, DType::I64);
  EXPECT_EQ(back.tensors[0].hostType(), DType::I64);
  EXPECT_FALSE(back.tensors[1].boundary.has_value());

  Model wrong = m;
  wrong.tensors[0].boundary = DType::Bool;  // bool is stored as int8, not int32
  std::vector<uint8_t> bad = serialize(wrong);
  EXPECT_FALSE(parse(bad.data(), bad.size(), back, error));
  EXPECT_NE(error.find("boundary type 6 does not suit a int32 tensor"), std::string::npos) << error;
}

// float64 over float32 (format 1.3): the file says 1.3 only when it has one,
// so a file without keeps its 1.2 bytes.
TEST(ModelFile, Float64BoundaryIsFormat13) {
  Model m = withPlainInput(DType::F32);
  std::vector<uint8_t> plain = serialize(m);
  m.tensors[0].boundary = DType::F64;
  std::vector<uint8_t> bytes = serialize(m);
  Model back;
  std::string error;
  ASSERT_TRUE(parse(plain.data(), plain.size(), back, error)) << error;
  EXPECT_EQ(back.minor, 2);
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.minor, 3);
  EXPECT_EQ(back.tensors[0].hostType(), DType::F64);
  EXPECT_EQ(dtypeBytes(DType::F64), 8u);
  EXPECT_STREQ(dtypeName(DType::F64), "float64");
  m.tensors[0].dtype = DType::F16;  // float64 is stored as float32 only
  m.tensors[0].strides = {2 * m.tensors[0].shape.back(), 2};
  std::vector<uint8_t> bad = serialize(m);
  EXPECT_FALSE(parse(bad.data(), bad.size(), back, error));
  EXPECT_NE(error.find("boundary type 10 does not suit a float16 tensor"), std::string::npos) << error;
}

// An empty graph input or output (format 1.3) addresses no bytes; any other
// tensor with a zero dimension is refused.
TEST(ModelFile, EmptyInputsAndOutputsAreFormat13) {
  Model m = withPlainInput(sampleModel().tensors[0].dtype);
  m.tensors[0].shape[0] = 0;
  EXPECT_EQ(m.tensors[0].spanBytes(), 0u);
  std::vector<uint8_t> bytes = serialize(m);
  Model back;
  std::string error;
  ASSERT_EQ(m.tensors[0].role, Role::Input);
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.minor, 3);
  EXPECT_EQ(back.tensors[0].shape[0], 0);
  EXPECT_EQ(back.tensors[0].numElements(), 0u);
  m.tensors[0].role = Role::State;
  m.tensors[0].region = uint8_t(isa::Region::STATE);
  m.stateSize = 4096;
  std::vector<uint8_t> bad = serialize(m);
  EXPECT_FALSE(parse(bad.data(), bad.size(), back, error));
  EXPECT_NE(error.find("dimension 0 = 0 is outside [1, 2^40]"), std::string::npos) << error;
}
