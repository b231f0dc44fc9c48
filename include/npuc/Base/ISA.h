//===- ISA.h - NPU-v1 instruction set: tables, encode, decode ---*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The base layer's view of the instruction set. The tables are generated from
// include/npuc/Base/ISA.td by npuc-tblgen; this header and lib/Base/ISA.cpp only
// interpret them. No MLIR and no LLVM: the simulator and npu-objdump use this.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_ISA_H
#define NPUC_BASE_ISA_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npuc::isa {

#define NPUC_ISA_ENUMS
#include "npuc/Base/ISATables.inc"
#undef NPUC_ISA_ENUMS

/// Bytes in one instruction word.
inline constexpr unsigned kWordBytes = 16;
/// Most fields any instruction has.
inline constexpr unsigned kMaxFields = 16;

enum class FieldKind : uint8_t { Int, Reg, Enum, Hex };

struct EnumDesc {
  const char *name;
  const char *const *values;
  unsigned numValues;
};

struct FieldDesc {
  const char *name;
  uint8_t lo, width;
  bool isSigned;
  int64_t min, max;  // legal range, possibly narrower than the bits allow
  FieldKind kind;
  int8_t enumIndex;  // into enums() when kind == Enum, else -1
  const char *unit;  // "" for plain numbers
  const char *doc;
};

struct InstDesc {
  uint8_t opcode;
  const char *name;      // C++ / record name, e.g. "DMA_IN_SHAPE"
  const char *mnemonic;  // e.g. "dma_in_shape"; the enc op is enc.<mnemonic>
  int8_t engine;         // an Engine value, or -1 when the `eng` field chooses
  const FieldDesc *fields;
  uint8_t numFields;
  const char *summary;

  /// Index of the field called `name`, or -1.
  int fieldIndex(std::string_view name) const;
};

/// Every instruction, in opcode order.
struct InstRange {
  const InstDesc *first, *last;
  const InstDesc *begin() const { return first; }
  const InstDesc *end() const { return last; }
  size_t size() const { return size_t(last - first); }
};
InstRange instructions();
const EnumDesc &enumDesc(int index);
/// The enumeration called `name` (e.g. "VBinFunc"), or nullptr.
const EnumDesc *lookupEnum(std::string_view name);
/// The value of `value` in `e`, or -1.
int enumValue(const EnumDesc &e, std::string_view value);
const char *engineName(Engine engine);

/// Bytes of a GM region the DMA can address: one past the largest GM offset
/// (DMA_IN_START's src_off, DMA_OUT_START's dst_off; ISA.td). No tensor of a
/// model can be larger.
uint64_t gmAddressBytes();

/// The descriptor of an opcode or mnemonic, or nullptr.
const InstDesc *lookup(uint8_t opcode);
const InstDesc *lookup(std::string_view mnemonic);

/// One instruction with every field's value, in declaration order.
struct Inst {
  const InstDesc *desc = nullptr;
  std::array<int64_t, kMaxFields> fields{};

  int64_t operator[](unsigned i) const { return fields[i]; }
};

/// A 128-bit instruction word as it sits in memory (little endian).
using Word = std::array<uint8_t, kWordBytes>;

/// Describes why `value` is not legal for `field`, or returns nullopt.
/// Example: "field 'rd' = 16 is outside its legal range [0, 15]".
std::optional<std::string> checkField(const FieldDesc &field, int64_t value);

/// Encodes `inst`; on an illegal field returns false and sets `error`.
bool encode(const Inst &inst, Word &out, std::string *error = nullptr);

/// Decodes one word; rejects unknown opcodes, set reserved bits and values
/// outside a field's legal range, naming the first offending field.
bool decode(const Word &in, Inst &out, std::string *error = nullptr);

/// Prints one instruction in assembly form: `alu func=ADD, rd=r1, rs1=r2, rs2=r3`.
std::string print(const Inst &inst);

} // namespace npuc::isa

#endif // NPUC_BASE_ISA_H
