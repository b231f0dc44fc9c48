//===- ISAModel.cpp - Read and validate the ISA records -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ISAModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"

#include <algorithm>
#include <map>

using namespace llvm;
using namespace npuc::tblgen;

namespace {
bool isIdentifier(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return isAlnum(c) || c == '_'; });
}

// Names that would collide with the enc dialect's syntax or generated C++.
bool isReservedFieldName(StringRef s) {
  static const char *const reserved[] = {"attr", "type", "name", "loc", "operation",
                                         "context", "opcode", "properties"};
  return llvm::is_contained(reserved, s);
}
} // namespace

ISAModel ISAModel::read(const RecordKeeper &records) {
  ISAModel model;
  std::map<const Record *, int> enumIndex;
  for (const Record *e : records.getAllDerivedDefinitions("ISAEnum")) {
    ISAEnumDef def;
    def.name = e->getValueAsString("Name").str();
    def.doc = e->getValueAsString("Doc").str();
    for (StringRef v : e->getValueAsListOfStrings("Values")) {
      if (!isIdentifier(v))
        PrintFatalError(e->getLoc(), "enum value '" + v + "' is not an identifier");
      def.values.push_back(v.str());
    }
    if (def.values.empty())
      PrintFatalError(e->getLoc(), "enum '" + def.name + "' has no values");
    enumIndex[e] = model.enums.size();
    model.enums.push_back(std::move(def));
  }

  StringSet<> mnemonics;
  std::map<unsigned, const Record *> opcodes;
  for (const Record *r : records.getAllDerivedDefinitions("Inst")) {
    ISAInstDef inst;
    inst.defName = r->getName().str();
    inst.mnemonic = r->getValueAsString("Mnemonic").str();
    inst.summary = r->getValueAsString("Summary").str();
    int64_t opcode = r->getValueAsInt("Opcode");
    if (opcode <= 0 || opcode > 255)
      PrintFatalError(r->getLoc(), "opcode " + Twine(opcode) + " outside [1, 255] (0 is reserved)");
    inst.opcode = opcode;
    if (auto [it, inserted] = opcodes.try_emplace(inst.opcode, r); !inserted)
      PrintFatalError(r->getLoc(), "opcode 0x" + utohexstr(opcode) + " already used by " +
                                       it->second->getName());
    if (!isIdentifier(inst.mnemonic) || !mnemonics.insert(inst.mnemonic).second)
      PrintFatalError(r->getLoc(), "mnemonic '" + inst.mnemonic + "' is not a unique identifier");
    const Record *engine = r->getValueAsDef("Engine");
    if (engine->getValueAsInt("Id") >= 0)
      inst.engine = engine->getValueAsString("Name").str();

    // Bits [7:0] hold the opcode.
    uint64_t used[2] = {0xff, 0};
    StringSet<> fieldNames;
    for (const Record *f : r->getValueAsListOfDefs("Fields")) {
      ISAFieldDef field;
      field.name = f->getValueAsString("Name").str();
      field.lo = f->getValueAsInt("Lo");
      field.width = f->getValueAsInt("Width");
      field.isSigned = f->getValueAsBit("Signed");
      field.min = f->getValueAsInt("Min");
      field.max = f->getValueAsInt("Max");
      field.unit = f->getValueAsDef("Unit")->getValueAsString("Name").str();
      field.kind = f->getValueAsDef("Kind")->getValueAsString("Name").str();
      field.doc = f->getValueAsString("Doc").str();
      auto where = "instruction " + inst.defName + " field '" + field.name + "'";
      if (!isIdentifier(field.name) || isReservedFieldName(field.name) ||
          !fieldNames.insert(field.name).second)
        PrintFatalError(r->getLoc(), where + ": name is reserved, duplicated or not an identifier");
      if (field.width == 0 || field.width > 32 || field.lo < 8 || field.lo + field.width > 128)
        PrintFatalError(r->getLoc(), where + ": bits must lie in [127:8] and be 1..32 wide");
      int64_t bitMin = field.isSigned ? -(int64_t(1) << (field.width - 1)) : 0;
      int64_t bitMax = field.isSigned ? (int64_t(1) << (field.width - 1)) - 1
                                      : (int64_t(1) << field.width) - 1;
      if (field.min > field.max || field.min < bitMin || field.max > bitMax)
        PrintFatalError(r->getLoc(), where + ": legal range [" + Twine(field.min) + ", " +
                                         Twine(field.max) + "] does not fit its " +
                                         Twine(field.width) + " bits");
      for (unsigned b = field.lo; b < field.lo + field.width; ++b) {
        uint64_t bit = uint64_t(1) << (b % 64);
        if (used[b / 64] & bit)
          PrintFatalError(r->getLoc(), where + ": bit " + Twine(b) + " overlaps another field");
        used[b / 64] |= bit;
      }
      if (field.kind == "enum") {
        const Record *e = f->getValueAsDef("Enum");
        field.enumIndex = enumIndex.at(e);
        if (int64_t(model.enums[field.enumIndex].values.size()) - 1 != field.max)
          PrintFatalError(r->getLoc(), where + ": enum range does not match its values");
      }
      inst.fields.push_back(std::move(field));
    }
    model.insts.push_back(std::move(inst));
  }
  llvm::sort(model.insts, [](const ISAInstDef &a, const ISAInstDef &b) { return a.opcode < b.opcode; });

  if (const Record *g = records.getDef("U_GRANULE"))
    model.granuleBytes = g->getValueAsInt("Bytes");
  if (model.granuleBytes <= 0 || (model.granuleBytes & (model.granuleBytes - 1)))
    PrintFatalError("U_GRANULE must be defined with a power-of-two byte count");
  for (const Record *t : records.getAllDerivedDefinitionsIfDefined("Target")) {
    TargetDef def;
    def.defName = t->getName().str();
    def.name = t->getValueAsString("Name").str();
    def.doc = t->getValueAsString("Doc").str();
    for (const RecordVal &v : t->getValues()) {
      if (v.getName() == "Name" || v.getName() == "Doc")
        continue;
      const Init *init = v.getValue();
      const auto *i = dyn_cast_or_null<IntInit>(init);
      if (!i)
        PrintFatalError(t->getLoc(), "target " + def.name + ": parameter " + v.getName() +
                                         " must be set to an integer");
      if (i->getValue() <= 0)
        PrintFatalError(t->getLoc(), "target " + def.name + ": parameter " + v.getName() +
                                         " must be positive");
      def.params.emplace_back(v.getName().str(), i->getValue());
    }
    model.targets.push_back(std::move(def));
  }
  return model;
}

std::string ISAModel::isaFingerprintText() const {
  std::string text;
  raw_string_ostream os(text);
  for (const ISAInstDef &inst : insts) {
    os << inst.opcode << ':' << inst.mnemonic << ':' << inst.engine;
    for (const ISAFieldDef &f : inst.fields)
      os << '|' << f.name << ',' << f.lo << ',' << f.width << ',' << f.isSigned << ','
         << f.min << ',' << f.max << ',' << f.unit;
    os << ';';
  }
  return text;
}

void npuc::tblgen::emitBanner(raw_ostream &os, StringRef what, StringRef prefix) {
  os << prefix << " " << what << "\n"
     << prefix << " Generated by npuc-tblgen from include/npuc/Base/*.td. Do not edit.\n";
}
