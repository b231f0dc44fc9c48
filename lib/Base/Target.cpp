//===- Target.cpp - NPU target descriptions -------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Base/Hash.h"

using namespace npuc::target;

namespace {
#define NPUC_TARGET_TABLES
#include "npuc/Base/TargetTables.inc"
#undef NPUC_TARGET_TABLES
} // namespace

uint64_t TargetInfo::hash() const { return fnv1a64(canonical); }
std::string TargetInfo::hashHex() const { return hex64(hash()); }

const std::vector<const TargetInfo *> &npuc::target::allTargets() {
  static const std::vector<const TargetInfo *> all = [] {
    std::vector<const TargetInfo *> v;
    for (const TargetInfo &t : kTargets)
      v.push_back(&t);
    return v;
  }();
  return all;
}

const TargetInfo *npuc::target::lookupTarget(std::string_view name) {
  for (const TargetInfo &t : kTargets)
    if (name == t.name)
      return &t;
  return nullptr;
}

std::string npuc::target::targetNames() {
  std::string names;
  for (const TargetInfo &t : kTargets)
    names += (names.empty() ? "" : ", ") + std::string(t.name);
  return names;
}

std::vector<std::pair<const char *, int64_t>> npuc::target::parameters(const TargetInfo &t) {
  std::vector<std::pair<const char *, int64_t>> out;
  for (size_t i = 0; i < std::size(kParamNames); ++i)
    out.emplace_back(kParamNames[i], t.params.*kParamMembers[i]);
  return out;
}

std::optional<std::string> npuc::target::checkInstruction(const isa::Inst &inst,
                                                          const TargetInfo &t) {
  const isa::InstDesc &d = *inst.desc;
  bool isSync = d.opcode == uint8_t(isa::Opcode::SET_FLAG) ||
                d.opcode == uint8_t(isa::Opcode::WAIT_FLAG);
  for (unsigned i = 0; i < d.numFields; ++i) {
    const isa::FieldDesc &f = d.fields[i];
    int64_t v = inst[i];
    if (f.kind == isa::FieldKind::Reg && v >= t.params.ScalarRegs)
      return "field '" + std::string(f.name) + "' names r" + std::to_string(v) + ", but " +
             t.name + " has " + std::to_string(t.params.ScalarRegs) + " scalar registers (r0..r" +
             std::to_string(t.params.ScalarRegs - 1) + ")";
    if (isSync && std::string_view(f.name) == "id" && v >= t.params.FlagsPerPair)
      return "field 'id' = " + std::to_string(v) + " names a sync flag " + t.name +
             " does not have (it has " + std::to_string(t.params.FlagsPerPair) +
             " flags per engine pair: 0.." + std::to_string(t.params.FlagsPerPair - 1) + ")";
  }
  return std::nullopt;
}
