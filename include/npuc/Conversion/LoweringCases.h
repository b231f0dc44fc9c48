//===- LoweringCases.h - The lowering's declared case spaces ----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// What the tools (npuc --list-ops, --list-cases) need of
// lib/Conversion/QKToEmit's selectors: every op the lowering handles
// with the case space its selector declares (npuc/Support/CaseSpace.h).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_LOWERINGCASES_H
#define NPUC_CONVERSION_LOWERINGCASES_H

#include "npuc/Support/OpSupport.h"

#include <vector>

namespace npuc::emit {
/// Every op convert-qk-to-emit lowers and its selector's case space, in
/// the order its patterns are registered.
std::vector<support::OpCaseSpace> loweringCaseSpaces();

/// The note check-lowering-evidence attaches at each further node of a
/// refused case (after the first), for the driver's list of its nodes.
inline constexpr const char *kSameCaseNote = "the same case";
} // namespace npuc::emit

#endif
