//===- EncEmitter.cpp - The enc dialect's ops and tests from the ISA ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// -gen-enc-ops writes ODS for one enc op per instruction (mlir-tblgen turns it
// into C++). -gen-isa-enum-cases writes each ISA enum's values as ODS enum
// cases, from which the emit dialect declares its enum attributes. -gen-enc-minmax-test and -gen-enc-range-test write lit inputs that
// exercise every field of every instruction at and beyond its legal range.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ISAModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace npuc::tblgen;

static std::string tdString(StringRef s) {
  std::string out = "\"";
  for (char c : s)
    out += (c == '"') ? '\'' : c;
  return out + "\"";
}

static std::string opSyntax(const ISAInstDef &i, ArrayRef<int64_t> values) {
  std::string s = "enc." + i.mnemonic;
  for (size_t f = 0; f < i.fields.size(); ++f)
    s += (f ? ", " : " ") + i.fields[f].name + " = " + std::to_string(values[f]);
  return s;
}

void npuc::tblgen::emitEncOps(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "enc dialect: one op per NPU instruction.", "//");
  os << "\n#ifndef NPUC_DIALECT_ENC_IR_ENCINSTOPS_TD\n"
        "#define NPUC_DIALECT_ENC_IR_ENCINSTOPS_TD\n\n"
        "include \"npuc/Dialect/Enc/IR/EncBase.td\"\n";
  for (const ISAInstDef &i : m.insts) {
    os << "\ndef Enc_" << i.defName << "Op : Enc_InstOp<\"" << i.mnemonic << "\"> {\n"
       << "  let summary = " << tdString(i.summary) << ";\n"
       << "  let description = " << tdString("Opcode 0x" + utohexstr(i.opcode, true) +
                                             ", engine " +
                                             (i.engine.empty() ? "chosen by eng" : i.engine) +
                                             ". See docs/isa.md.")
       << ";\n  let arguments = (ins";
    for (size_t f = 0; f < i.fields.size(); ++f)
      os << (f ? ", " : " ") << "I64Attr:$" << i.fields[f].name;
    os << ");\n  let assemblyFormat = \"";
    for (size_t f = 0; f < i.fields.size(); ++f)
      os << (f ? "`,` " : "") << "`" << i.fields[f].name << "` `=` $" << i.fields[f].name << " ";
    os << "attr-dict\";\n}\n";
  }
  os << "\n#endif // NPUC_DIALECT_ENC_IR_ENCINSTOPS_TD\n";
}

void npuc::tblgen::emitISAEnumCases(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "The ISA's enums as ODS enum cases.", "//");
  os << "\n#ifndef NPUC_BASE_ISAENUMCASES_TD\n"
        "#define NPUC_BASE_ISAENUMCASES_TD\n\n"
        "include \"mlir/IR/EnumAttr.td\"\n\n"
        "// ISA_<Enum>Cases<base, lower>.cases: one I32EnumAttrCase per value, the\n"
        "// ISA's name as the C++ symbol, base + its ISA value as the number, and the\n"
        "// name in lower case (lower = 1) or as written (lower = 0) as the IR's\n"
        "// spelling.\n";
  for (const ISAEnumDef &e : m.enums) {
    os << "\n// " << e.doc << "\nclass ISA_" << e.name
       << "Cases<int base = 0, bit lower = 1> {\n  list<I32EnumAttrCase> cases = [";
    for (size_t v = 0; v < e.values.size(); ++v)
      os << (v ? ",\n" : "\n") << "    I32EnumAttrCase<\"" << e.values[v] << "\", !add(base, " << v
         << "), !if(lower, \"" << StringRef(e.values[v]).lower() << "\", \"" << e.values[v]
         << "\")>";
    os << "];\n}\n";
  }
  os << "\n#endif // NPUC_BASE_ISAENUMCASES_TD\n";
}

void npuc::tblgen::emitEncMinMaxTest(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "Every instruction with every field at its minimum, then at its maximum.", "//");
  os << "// The CHECK lines are the ISA table's ranges, not the codec's output.\n"
        "enc.program {\n";
  std::string checks;
  for (const ISAInstDef &i : m.insts) {
    std::vector<int64_t> lo, hi;
    for (const ISAFieldDef &f : i.fields) {
      lo.push_back(f.min);
      hi.push_back(f.max);
    }
    for (const auto *values : {&lo, &hi}) {
      std::string line = opSyntax(i, *values);
      os << "  " << line << "\n";
      checks += "// CHECK-NEXT: " + line + "\n";
      if (i.fields.empty())
        break;
    }
  }
  os << "}\n\n// CHECK-LABEL: enc.program\n" << checks << "// CHECK-NEXT: }\n";
}

void npuc::tblgen::emitEncRangeTest(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "Every field of every instruction one step outside its legal range.", "//");
  bool first = true;
  for (const ISAInstDef &i : m.insts) {
    for (size_t f = 0; f < i.fields.size(); ++f) {
      const ISAFieldDef &field = i.fields[f];
      for (int64_t bad : {field.min - 1, field.max + 1}) {
        std::vector<int64_t> values;
        for (const ISAFieldDef &g : i.fields)
          values.push_back(g.min);
        values[f] = bad;
        os << (first ? "\n" : "\n// -----\n\n") << "enc.program {\n"
           << "  // expected-error @+1 {{'enc." << i.mnemonic << "' op field '" << field.name
           << "' = " << bad << " is outside its legal range [" << field.min << ", "
           << field.max << "]}}\n  " << opSyntax(i, values) << "\n}\n";
        first = false;
      }
    }
  }
}
