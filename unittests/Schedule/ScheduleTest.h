//===- ScheduleTest.h - What the cost models' tests share -------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_UNITTESTS_SCHEDULE_SCHEDULETEST_H
#define NPUC_UNITTESTS_SCHEDULE_SCHEDULETEST_H

#include "npuc/Base/Target.h"

#include <optional>
#include <string>

namespace npuc::schedule_test {
inline const target::TargetInfo &v1() { return *target::lookupTarget("npu-v1"); }
inline const target::TargetInfo &tiny() { return *target::lookupTarget("npu-v1-tiny"); }

/// A refusal (checkTiling's, checkFits's, canonicalize's) as text, or kFits
/// when there is none: a failed expectation then prints the reason.
inline const std::string kFits = "(fits)";
inline std::string reason(const std::optional<std::string> &why) { return why ? *why : kFits; }
} // namespace npuc::schedule_test

#endif
