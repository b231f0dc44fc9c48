//===- ISA.cpp - Encode, decode and print NPU instructions ----------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Table-driven: every bit position and range comes from the generated tables.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ISA.h"

#include <algorithm>

#include <cstdio>

using namespace npuc::isa;

namespace {
#define NPUC_ISA_TABLES
#include "npuc/Base/ISATables.inc"
#undef NPUC_ISA_TABLES

using u128 = unsigned __int128;

u128 load(const Word &w) {
  u128 v = 0;
  for (int i = kWordBytes - 1; i >= 0; --i)
    v = (v << 8) | w[i];
  return v;
}

void store(u128 v, Word &w) {
  for (unsigned i = 0; i < kWordBytes; ++i, v >>= 8)
    w[i] = uint8_t(v);
}

u128 fieldMask(const FieldDesc &f) { return ((u128(1) << f.width) - 1) << f.lo; }

const InstDesc *const *opcodeTable() {
  static const InstDesc *table[256] = {};
  static bool init = [] {
    for (const InstDesc &d : kInsts)
      table[d.opcode] = &d;
    return true;
  }();
  (void)init;
  return table;
}

void printInt(std::string &out, int64_t v) { out += std::to_string(v); }
void printReg(std::string &out, int64_t v) { out += "r" + std::to_string(v); }
void printHex(std::string &out, int64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  out += buf;
}
void printEnum(std::string &out, int enumIndex, int64_t v) {
  const EnumDesc &e = kEnums[enumIndex];
  if (v >= 0 && uint64_t(v) < e.numValues)
    out += e.values[v];
  else
    printInt(out, v);
}

#include "npuc/Base/ISAPrinter.inc"
} // namespace

int InstDesc::fieldIndex(std::string_view n) const {
  for (unsigned i = 0; i < numFields; ++i)
    if (n == fields[i].name)
      return int(i);
  return -1;
}

InstRange npuc::isa::instructions() { return {std::begin(kInsts), std::end(kInsts)}; }
const EnumDesc &npuc::isa::enumDesc(int index) { return kEnums[index]; }
const EnumDesc *npuc::isa::lookupEnum(std::string_view name) {
  for (const EnumDesc &d : kEnums)
    if (name == d.name)
      return &d;
  return nullptr;
}

int npuc::isa::enumValue(const EnumDesc &e, std::string_view value) {
  for (unsigned i = 0; i < e.numValues; ++i)
    if (value == e.values[i])
      return int(i);
  return -1;
}

const char *npuc::isa::engineName(Engine e) {
  static const EnumDesc *engines = lookupEnum("Engine");
  return engines->values[unsigned(e)];
}

uint64_t npuc::isa::gmAddressBytes() {
  static const uint64_t bytes = [] {
    const InstDesc *in = lookup(uint8_t(Opcode::DMA_IN_START));
    const InstDesc *out = lookup(uint8_t(Opcode::DMA_OUT_START));
    int64_t src = in->fields[unsigned(in->fieldIndex("src_off"))].max;
    int64_t dst = out->fields[unsigned(out->fieldIndex("dst_off"))].max;
    return uint64_t(std::min(src, dst)) + 1;
  }();
  return bytes;
}

const InstDesc *npuc::isa::lookup(uint8_t opcode) { return opcodeTable()[opcode]; }

const InstDesc *npuc::isa::lookup(std::string_view mnemonic) {
  for (const InstDesc &d : kInsts)
    if (mnemonic == d.mnemonic)
      return &d;
  return nullptr;
}

std::optional<std::string> npuc::isa::checkField(const FieldDesc &f, int64_t v) {
  if (v >= f.min && v <= f.max)
    return std::nullopt;
  return "field '" + std::string(f.name) + "' = " + std::to_string(v) +
         " is outside its legal range [" + std::to_string(f.min) + ", " +
         std::to_string(f.max) + "]";
}

bool npuc::isa::encode(const Inst &inst, Word &out, std::string *error) {
  const InstDesc &d = *inst.desc;
  u128 word = d.opcode;
  for (unsigned i = 0; i < d.numFields; ++i) {
    const FieldDesc &f = d.fields[i];
    if (auto msg = checkField(f, inst.fields[i])) {
      if (error)
        *error = std::string(d.mnemonic) + ": " + *msg;
      return false;
    }
    word |= (u128(uint64_t(inst.fields[i])) << f.lo) & fieldMask(f);
  }
  store(word, out);
  return true;
}

bool npuc::isa::decode(const Word &in, Inst &out, std::string *error) {
  u128 word = load(in);
  const InstDesc *d = lookup(uint8_t(word));
  if (!d) {
    if (error) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "unknown opcode 0x%02x", unsigned(uint8_t(word)));
      *error = buf;
    }
    return false;
  }
  out = Inst{};
  out.desc = d;
  u128 used = 0xff;
  for (unsigned i = 0; i < d->numFields; ++i) {
    const FieldDesc &f = d->fields[i];
    used |= fieldMask(f);
    uint64_t raw = uint64_t((word >> f.lo) & ((u128(1) << f.width) - 1));
    int64_t v = int64_t(raw);
    if (f.isSigned && (raw >> (f.width - 1)) & 1)
      v = int64_t(raw) - (int64_t(1) << f.width);
    out.fields[i] = v;
    if (auto msg = checkField(f, v)) {
      if (error)
        *error = std::string(d->mnemonic) + ": " + *msg;
      return false;
    }
  }
  if (u128 reserved = word & ~used) {
    if (error) {
      int bit = 0;
      while (!((reserved >> bit) & 1))
        ++bit;
      *error = std::string(d->mnemonic) + ": reserved bit " + std::to_string(bit) +
               " is set (reserved bits must be zero)";
    }
    return false;
  }
  return true;
}

std::string npuc::isa::print(const Inst &inst) {
  std::string out = inst.desc->mnemonic;
  printFields(inst, out);
  return out;
}
