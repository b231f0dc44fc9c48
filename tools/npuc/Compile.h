//===- Compile.h - One compile of a model, for the npuc driver ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_NPUC_COMPILE_H
#define NPUC_TOOLS_NPUC_COMPILE_H

#include "npuc/Conversion/ONNXToGraph/ONNXToGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npuc::driver {

/// What the command line asks a compile for (checked by the driver).
struct Invocation {
  std::string input, output, targetName = "npu-v1", compileTo, reportPath;
  std::vector<std::string> inputShapes, bindInputs;
  std::string floatType = "fp32", float64 = "f32", gmBudgetArg;
  int64_t gmBudget = 0;  // 0: the target's
  bool check = false, allowUnverified = false, noHardwareLoops = false;
  bool materializeValues = false;
  // Test hooks (hidden options).
  std::string testEvidence, breakIRAfter;
  onnx_import::Options importOptions;
};

/// Imports, compiles and writes (or checks, or prints a phase of) the model,
/// reporting every problem; the driver's exit status.
int compile(const Invocation &inv);

} // namespace npuc::driver

#endif // NPUC_TOOLS_NPUC_COMPILE_H
