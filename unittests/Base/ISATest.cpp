//===- ISATest.cpp - Encode/decode/print of the generated ISA tables ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ISA.h"

#include <gtest/gtest.h>

#include <random>

using namespace npuc::isa;

namespace {
Inst make(const InstDesc &d, int64_t (*pick)(const FieldDesc &)) {
  Inst inst;
  inst.desc = &d;
  for (unsigned i = 0; i < d.numFields; ++i)
    inst.fields[i] = pick(d.fields[i]);
  return inst;
}

void expectRoundTrip(const Inst &inst) {
  Word word;
  std::string error;
  ASSERT_TRUE(encode(inst, word, &error)) << inst.desc->mnemonic << ": " << error;
  Inst back;
  ASSERT_TRUE(decode(word, back, &error)) << inst.desc->mnemonic << ": " << error;
  EXPECT_EQ(back.desc, inst.desc);
  for (unsigned i = 0; i < inst.desc->numFields; ++i)
    EXPECT_EQ(back[i], inst[i]) << inst.desc->mnemonic << " field " << inst.desc->fields[i].name;
}

/// Bit positions no field and not the opcode covers.
std::vector<unsigned> reservedBits(const InstDesc &d) {
  std::vector<bool> used(128, false);
  for (unsigned b = 0; b < 8; ++b)
    used[b] = true;
  for (unsigned i = 0; i < d.numFields; ++i)
    for (unsigned b = 0; b < d.fields[i].width; ++b)
      used[d.fields[i].lo + b] = true;
  std::vector<unsigned> out;
  for (unsigned b = 0; b < 128; ++b)
    if (!used[b])
      out.push_back(b);
  return out;
}
} // namespace

TEST(ISA, CoversTheRequiredInstructionClasses) {
  for (const char *m : {"alu", "alui", "cmp", "br", "jmp", "loop", "li", "set_flag", "wait_flag",
                        "barrier", "dma_in", "dma_out", "dma_in_pad", "dma_in_shape",
                        "dma_in_sstride", "dma_in_dstride", "matmul", "mm_cfg", "v_bin",
                        "v_requant", "v_lut", "v_reduce", "v_cast", "v_cmp", "v_sel", "end"})
    EXPECT_NE(lookup(std::string_view(m)), nullptr) << m;
  EXPECT_GE(instructions().size(), 30u);
}

TEST(ISA, EveryFieldAtMinAndMaxRoundTrips) {
  for (const InstDesc &d : instructions()) {
    expectRoundTrip(make(d, [](const FieldDesc &f) { return f.min; }));
    expectRoundTrip(make(d, [](const FieldDesc &f) { return f.max; }));
  }
}

TEST(ISA, RandomLegalValuesRoundTrip) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 200; ++round)
    for (const InstDesc &d : instructions()) {
      Inst inst;
      inst.desc = &d;
      for (unsigned i = 0; i < d.numFields; ++i)
        inst.fields[i] = std::uniform_int_distribution<int64_t>(d.fields[i].min,
                                                                d.fields[i].max)(rng);
      expectRoundTrip(inst);
    }
}

TEST(ISA, KnownEncodingOfLi) {
  // li rd=r3, imm=-5: opcode 0x03 in byte 0, rd in bits [11:8], imm in [63:32].
  Inst inst;
  inst.desc = lookup(uint8_t(Opcode::LI));
  inst.fields[field::LI::rd] = 3;
  inst.fields[field::LI::imm] = -5;
  Word w;
  ASSERT_TRUE(encode(inst, w));
  Word expected = {0x03, 0x03, 0, 0, 0xfb, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(w, expected);
  EXPECT_EQ(print(inst), "li rd=r3, imm=-5");
}

TEST(ISA, KnownEncodingOfFieldAcrossTheWordMiddle) {
  // dma_in_shape n3 occupies bits [71:56]: it straddles bytes 7 and 8.
  Inst inst;
  inst.desc = lookup(uint8_t(Opcode::DMA_IN_SHAPE));
  inst.fields = {1, 1, 1, 0xabcd};
  Word w;
  ASSERT_TRUE(encode(inst, w));
  EXPECT_EQ(w[0], 0x20);
  EXPECT_EQ(w[7], 0xcd);
  EXPECT_EQ(w[8], 0xab);
}

TEST(ISA, EncodeRejectsOutOfRangeNamingFieldAndRange) {
  Inst inst;
  inst.desc = lookup(uint8_t(Opcode::LOOP));
  inst.fields[field::LOOP::body] = 0;
  Word w;
  std::string error;
  EXPECT_FALSE(encode(inst, w, &error));
  EXPECT_EQ(error, "loop: field 'body' = 0 is outside its legal range [1, 65535]");
}

TEST(ISA, DecodeRejectsUnknownOpcodes) {
  Word w{};
  std::string error;
  Inst inst;
  EXPECT_FALSE(decode(w, inst, &error));
  EXPECT_EQ(error, "unknown opcode 0x00");
  w[0] = 0xff;
  EXPECT_FALSE(decode(w, inst, &error));
  EXPECT_EQ(error, "unknown opcode 0xff");
}

TEST(ISA, DecodeRejectsEveryReservedBit) {
  for (const InstDesc &d : instructions()) {
    Inst inst = make(d, [](const FieldDesc &f) { return f.min; });
    Word base;
    ASSERT_TRUE(encode(inst, base));
    for (unsigned bit : reservedBits(d)) {
      Word w = base;
      w[bit / 8] |= uint8_t(1u << (bit % 8));
      Inst out;
      std::string error;
      EXPECT_FALSE(decode(w, out, &error)) << d.mnemonic << " bit " << bit;
      EXPECT_EQ(error, std::string(d.mnemonic) + ": reserved bit " + std::to_string(bit) +
                           " is set (reserved bits must be zero)");
    }
  }
}

TEST(ISA, DecodeRejectsBitsOutsideTheLegalRange) {
  // barrier mask is 4 bits but 0 is not a legal mask.
  Word w{};
  w[0] = uint8_t(Opcode::BARRIER);
  Inst inst;
  std::string error;
  EXPECT_FALSE(decode(w, inst, &error));
  EXPECT_EQ(error, "barrier: field 'mask' = 0 is outside its legal range [1, 15]");
}

TEST(ISA, PrinterNamesEnumsAndRegisters) {
  Inst inst;
  inst.desc = lookup(uint8_t(Opcode::ALU));
  inst.fields = {int64_t(AluFunc::SUB), 1, 2, 3};
  EXPECT_EQ(print(inst), "alu func=SUB, rd=r1, rs1=r2, rs2=r3");
  inst.desc = lookup(uint8_t(Opcode::DMA_IN_START));
  inst.fields = {int64_t(Region::INPUT), 0, int64_t(DmaDst::LM), int64_t(Elem::B1), 1, 0, 0x10,
                 0x400};
  EXPECT_EQ(print(inst), "dma_in src_region=INPUT, src_reg=r0, dst_space=LM, elem=B1, pad=1, "
                         "dst_reg=r0, dst_addr=0x10, src_off=0x400");
}

TEST(ISA, LookupByMnemonicAndEnum) {
  EXPECT_EQ(lookup(std::string_view("matmul"))->opcode, uint8_t(Opcode::MATMUL));
  EXPECT_EQ(lookup(std::string_view("nope")), nullptr);
  const EnumDesc *e = lookupEnum("VBinFunc");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(enumValue(*e, "MUL"), int(VBinFunc::MUL));
  EXPECT_EQ(enumValue(*e, "mul"), -1);
  EXPECT_STREQ(engineName(Engine::MATRIX), "MATRIX");
}
