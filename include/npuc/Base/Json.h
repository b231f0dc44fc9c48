//===- Json.h - A minimal JSON writer ---------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Enough JSON for the tools' machine-readable outputs (npu-objdump --json,
// npu-sim's outputs.json and traces), without pulling LLVM into the base layer.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_JSON_H
#define NPUC_BASE_JSON_H

#include <string>
#include <string_view>

namespace npuc::json {
/// `s` as a quoted JSON string.
std::string quote(std::string_view s);
/// A finite double as a JSON number that reads back to the same value (9
/// significant digits for a float, 17 for a double); non-finite values,
/// which JSON cannot hold, as null.
std::string number(double v, int digits = 9);
} // namespace npuc::json

#endif
