//===- Profile.h - npu-sim --profile: cycles per ONNX node ------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_NPU_SIM_PROFILE_H
#define NPUC_TOOLS_NPU_SIM_PROFILE_H

#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Target.h"
#include "npuc/Sim/Simulator.h"

#include <string>

namespace npuc::profile {

/// Per ONNX node (the model's debug records; a fused op's nodes together):
/// the span of cycles its instructions run in, each engine's busy cycles, GM
/// bytes, MACs and MAC utilization (the cycles its MACs need at the array's
/// peak over its span). As a table, largest span first, and as JSON in
/// program order (docs/cli.md, "npu-sim --profile").
std::string table(const sim::Simulator &s, const model::Model &m, const target::TargetInfo &t);
std::string json(const sim::Simulator &s, const model::Model &m, const target::TargetInfo &t);

} // namespace npuc::profile

#endif
