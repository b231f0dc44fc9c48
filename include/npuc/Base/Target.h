//===- Target.h - NPU target descriptions -----------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The targets declared in include/npuc/Base/Target.td, as a C++ table. Base
// layer: no MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_TARGET_H
#define NPUC_BASE_TARGET_H

#include "npuc/Base/ISA.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuc::target {

/// Every parameter of a target, one member per field of Target.td.
struct TargetParams {
#define NPUC_TARGET_PARAMS
#include "npuc/Base/TargetTables.inc"
#undef NPUC_TARGET_PARAMS
};

struct TargetInfo {
  const char *name;
  const char *doc;
  /// The canonical text the hash covers: every parameter and the ISA encoding.
  const char *canonical;
  TargetParams params;

  /// FNV-1a 64 of `canonical`; stable across runs, hosts and builds.
  uint64_t hash() const;
  /// hash() as 16 lowercase hex digits.
  std::string hashHex() const;
};

/// Every target, in declaration order.
const std::vector<const TargetInfo *> &allTargets();
/// The target called `name`, or nullptr.
const TargetInfo *lookupTarget(std::string_view name);
/// The names of all targets, separated by ", " (for diagnostics).
std::string targetNames();

/// What the encoding allows but this target does not have: a register index
/// beyond its scalar registers or a flag id beyond its flags per engine pair.
/// Example: "field 'rd' names r9, but npu-v1-tiny has 8 scalar registers (r0..r7)".
std::optional<std::string> checkInstruction(const isa::Inst &inst, const TargetInfo &t);

/// (name, value) of every parameter of `t`, in declaration order.
std::vector<std::pair<const char *, int64_t>> parameters(const TargetInfo &t);

} // namespace npuc::target

#endif // NPUC_BASE_TARGET_H
