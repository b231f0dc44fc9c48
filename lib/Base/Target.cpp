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
