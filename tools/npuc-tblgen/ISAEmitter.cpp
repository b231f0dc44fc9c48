//===- ISAEmitter.cpp - Base-layer tables, printer and docs/isa.md --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ISAModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace npuc::tblgen;

static std::string cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

static std::string kindName(const ISAFieldDef &f) {
  if (f.kind == "reg") return "FieldKind::Reg";
  if (f.kind == "enum") return "FieldKind::Enum";
  if (f.kind == "hex") return "FieldKind::Hex";
  return "FieldKind::Int";
}

static std::string int64Literal(int64_t v) {
  if (v == INT64_MIN)
    return "INT64_MIN";
  return (Twine(v) + "LL").str();
}

void npuc::tblgen::emitISATables(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "NPU instruction-set tables (base layer).", "//");
  os << "\n#ifdef NPUC_ISA_ENUMS\n";
  for (const ISAEnumDef &e : m.enums) {
    os << "/// " << e.doc << "\nenum class " << e.name << " : uint8_t {";
    for (size_t i = 0; i < e.values.size(); ++i)
      os << (i ? ", " : " ") << e.values[i] << " = " << i;
    os << " };\ninline constexpr unsigned k" << e.name << "Count = " << e.values.size() << ";\n";
  }
  os << "\n/// Opcodes, bits [7:0] of every instruction word.\nenum class Opcode : uint8_t {\n";
  for (const ISAInstDef &i : m.insts)
    os << "  " << i.defName << " = 0x" << format_hex_no_prefix(i.opcode, 2) << ",\n";
  os << "};\n\n/// Field indices per instruction, for Inst::operator[].\nnamespace field {\n";
  for (const ISAInstDef &i : m.insts) {
    if (i.fields.empty())
      continue;
    os << "namespace " << i.defName << " {\n";
    for (size_t f = 0; f < i.fields.size(); ++f)
      os << "inline constexpr unsigned " << i.fields[f].name << " = " << f << ";\n";
    os << "} // namespace " << i.defName << "\n";
  }
  os << "} // namespace field\n\n"
     << "/// Legal range of every field (ISA.td), so no client retypes a limit.\n"
     << "namespace limit {\n";
  for (const ISAInstDef &i : m.insts) {
    if (i.fields.empty())
      continue;
    os << "namespace " << i.defName << " {\n";
    for (const ISAFieldDef &f : i.fields)
      os << "inline constexpr int64_t " << f.name << "_min = " << f.min << ", " << f.name
         << "_max = " << f.max << ";\n";
    os << "} // namespace " << i.defName << "\n";
  }
  os << "} // namespace limit\n\n"
     << "/// Bytes per unit of a local-address field (U_GRANULE).\n"
     << "inline constexpr int64_t kGranuleBytes = " << m.granuleBytes << ";\n"
     << "#endif // NPUC_ISA_ENUMS\n";

  os << "\n#ifdef NPUC_ISA_TABLES\n";
  for (size_t e = 0; e < m.enums.size(); ++e) {
    os << "static const char *const kEnumValues" << e << "[] = {";
    for (const std::string &v : m.enums[e].values)
      os << cString(v) << ", ";
    os << "};\n";
  }
  os << "static const EnumDesc kEnums[] = {\n";
  for (size_t e = 0; e < m.enums.size(); ++e)
    os << "  {" << cString(m.enums[e].name) << ", kEnumValues" << e << ", "
       << m.enums[e].values.size() << "},\n";
  os << "};\n";
  for (const ISAInstDef &i : m.insts) {
    if (i.fields.empty())
      continue;
    os << "static const FieldDesc kFields_" << i.defName << "[] = {\n";
    for (const ISAFieldDef &f : i.fields)
      os << "  {" << cString(f.name) << ", " << f.lo << ", " << f.width << ", "
         << (f.isSigned ? "true" : "false") << ", " << int64Literal(f.min) << ", "
         << int64Literal(f.max) << ", " << kindName(f) << ", " << f.enumIndex << ", "
         << cString(f.unit) << ", " << cString(f.doc) << "},\n";
    os << "};\n";
  }
  os << "static const InstDesc kInsts[] = {\n";
  for (const ISAInstDef &i : m.insts) {
    std::string engine = i.engine.empty() ? "-1" : "int8_t(Engine::" + i.engine + ")";
    os << "  {0x" << format_hex_no_prefix(i.opcode, 2) << ", " << cString(i.defName) << ", "
       << cString(i.mnemonic) << ", " << engine << ", "
       << (i.fields.empty() ? "nullptr" : "kFields_" + i.defName) << ", " << i.fields.size()
       << ", " << cString(i.summary) << "},\n";
  }
  os << "};\n#endif // NPUC_ISA_TABLES\n";
}

void npuc::tblgen::emitISAPrinter(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "NPU disassembler printer (base layer).", "//");
  os << "\n// printFields(inst, out): appends the operands of one decoded "
        "instruction.\n"
        "static void printFields(const Inst &inst, std::string &out) {\n"
        "  switch (Opcode(inst.desc->opcode)) {\n";
  for (const ISAInstDef &i : m.insts) {
    os << "  case Opcode::" << i.defName << ":\n";
    for (size_t f = 0; f < i.fields.size(); ++f) {
      const ISAFieldDef &field = i.fields[f];
      os << "    out += \"" << (f ? ", " : " ") << field.name << "=\";\n";
      if (field.kind == "reg")
        os << "    printReg(out, inst[" << f << "]);\n";
      else if (field.kind == "enum")
        os << "    printEnum(out, " << field.enumIndex << ", inst[" << f << "]);\n";
      else if (field.kind == "hex")
        os << "    printHex(out, inst[" << f << "]);\n";
      else
        os << "    printInt(out, inst[" << f << "]);\n";
    }
    os << "    return;\n";
  }
  os << "  }\n}\n";
}

static std::string bitRange(const ISAFieldDef &f) {
  if (f.width == 1)
    return "[" + std::to_string(f.lo) + "]";
  return "[" + std::to_string(f.lo + f.width - 1) + ":" + std::to_string(f.lo) + "]";
}

void npuc::tblgen::emitISADoc(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "docs/isa.md", "<!--");
  os << "-->\n\n# NPU-v1 instruction set\n\n"
     << "Generated from `include/npuc/Base/ISA.td` by `npuc-tblgen -gen-isa-doc`; "
        "the encoder, decoder, disassembler and the enc dialect come from the same "
        "records. `ctest -R docs` fails when this file is stale; regenerate it with "
        "`scripts/gen-docs.sh`.\n\n"
     << "## Word format\n\n"
     << "Every instruction is one 128-bit word, stored little endian (byte 0 holds "
        "bits [7:0]). Bits [7:0] are the opcode; opcode 0 is reserved, so zeroed "
        "memory never decodes. Every bit not covered by a field is reserved and must "
        "be zero: the decoder rejects a word that sets one. A field's legal range may "
        "be narrower than its bits (for example an extent of 0 is never legal); the "
        "decoder and the enc dialect's verifier both reject values outside it and name "
        "the field and the range.\n\n"
     << "## Operand scheme\n\n"
     << "Operands that do not fit in one word come from *descriptor registers* that "
        "configuration instructions set (`dma_in_shape`, `dma_in_sstride`, "
        "`dma_in_dstride`, `dma_in_pad`, their `dma_out_*` twins, `mm_cfg`, `v_shape`, "
        "`v_rq_cfg`). A configuration instruction is dispatched to its engine's queue "
        "like any other, so it takes effect in program order for that engine and stays "
        "in force until the next one. Addresses are an immediate plus a scalar register: "
        "local addresses (LM, ACC, LUT) are `addr * 32 + r[reg]` bytes, global addresses "
        "`off + r[reg]` bytes in the named region, with `r[reg]` a signed 32-bit value "
        "and the sum computed without wrapping (a negative address, or one past the "
        "memory, is an out-of-bounds fault). `r0` reads as zero, so `reg = 0` "
        "means the immediate alone; a `loop` runs `count + r[rc]` times (signed; "
        "negative is a fault) and loop bodies must nest; an engine instruction captures the registers it "
        "names when SCALAR dispatches it. Strides are signed byte counts per dimension, "
        "dimension 0 innermost.\n\n"
     << "## Engines\n\nSCALAR executes scalar instructions itself and dispatches the "
        "rest, in order, to DMA_IN, DMA_OUT, MATRIX or VECTOR. `set_flag` and "
        "`wait_flag` run on the engine their `eng` field names.\n\n";

  os << "## Enumerations\n\n| enum | values | meaning |\n|---|---|---|\n";
  for (const ISAEnumDef &e : m.enums) {
    os << "| " << e.name << " | ";
    for (size_t i = 0; i < e.values.size(); ++i)
      os << (i ? ", " : "") << i << "=" << e.values[i];
    os << " | " << e.doc << " |\n";
  }

  os << "\n## Opcode map\n\n| opcode | mnemonic | engine | summary |\n|---|---|---|---|\n";
  for (const ISAInstDef &i : m.insts)
    os << "| 0x" << format_hex_no_prefix(i.opcode, 2) << " | `" << i.mnemonic << "` | "
       << (i.engine.empty() ? "by `eng`" : i.engine) << " | " << i.summary << " |\n";

  os << "\n## Instructions\n";
  for (const ISAInstDef &i : m.insts) {
    os << "\n### `" << i.mnemonic << "` (0x" << format_hex_no_prefix(i.opcode, 2) << ", "
       << (i.engine.empty() ? "engine chosen by `eng`" : i.engine) << ")\n\n"
       << i.summary << "\n\n";
    if (i.fields.empty()) {
      os << "No fields.\n";
      continue;
    }
    os << "| bits | field | signed | legal range | unit | meaning |\n"
       << "|---|---|---|---|---|---|\n";
    for (const ISAFieldDef &f : i.fields) {
      os << "| " << bitRange(f) << " | `" << f.name << "` | " << (f.isSigned ? "yes" : "no")
         << " | [" << f.min << ", " << f.max << "] | " << f.unit << " | ";
      if (f.enumIndex >= 0)
        os << m.enums[f.enumIndex].name << (f.doc.empty() ? "" : ": ");
      else if (f.kind == "reg")
        os << "register" << (f.doc.empty() ? "" : ": ");
      os << f.doc << " |\n";
    }
  }
}
